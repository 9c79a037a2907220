/**
 * 27: things in photos (a dog, a boat, a bike: media/things.ts), found in the face finder's pass.
 * Each picture is looked at once per content version and thing model (thing_scans), as for faces
 * (face_scans), so a new version or a new model looks again. A thing keeps its label (COCO's),
 * how sure the model was, its box (fractions of the upright picture) and the model that saw it.
 */
export const migration = {
  version: 27,
  sql: `
  CREATE TABLE things (
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    score REAL NOT NULL,
    x REAL NOT NULL,
    y REAL NOT NULL,
    w REAL NOT NULL,
    h REAL NOT NULL,
    model TEXT NOT NULL
  ) STRICT;
  CREATE INDEX things_node ON things(node_id, label);
  CREATE TABLE thing_scans (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    model TEXT NOT NULL,
    things INTEGER NOT NULL,
    failure TEXT,
    scanned_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
};
