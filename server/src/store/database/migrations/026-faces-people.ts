/**
 * 26: faces and people. Each photo (or video poster) is looked at once per content version and
 * face model (face_scans): a new version or a new model finds its faces again. A face keeps its
 * box (fractions of the upright picture), its embedding (1024 float32, unit length) and the model
 * that made it. People belong to one account and hold only faces of that account's own photos:
 * their embedding sum is what a new face is compared with (its direction is the centroid).
 * `left_person_id` is the person a face was moved out of, so it is never put back there.
 */
export const migration = {
  version: 26,
  sql: `
  CREATE TABLE people (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT,
    search_name TEXT,
    hidden INTEGER NOT NULL DEFAULT 0 CHECK (hidden IN (0, 1)),
    embedding_sum BLOB NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX people_owner ON people(owner_id);
  CREATE TABLE faces (
    id TEXT PRIMARY KEY,
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL,
    person_id TEXT REFERENCES people(id) ON DELETE SET NULL,
    left_person_id TEXT,
    x REAL NOT NULL,
    y REAL NOT NULL,
    w REAL NOT NULL,
    h REAL NOT NULL,
    score REAL NOT NULL,
    embedding BLOB NOT NULL,
    model TEXT NOT NULL
  ) STRICT;
  CREATE INDEX faces_node ON faces(node_id);
  CREATE INDEX faces_person ON faces(person_id, node_id);
  CREATE TABLE face_scans (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    model TEXT NOT NULL,
    faces INTEGER NOT NULL,
    failure TEXT,
    scanned_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
};
