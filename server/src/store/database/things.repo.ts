import type { Db } from './db.ts';
import { SCANNABLE, type FaceTodoRow } from './faces.repo.ts';

/** A picture waiting to be looked at, and what for: its faces, its things, or both (1 or 0). */
export interface PictureTodoRow extends FaceTodoRow {
  want_faces: number;
  want_things: number;
}

export interface NewThing {
  label: string;
  score: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Things found in pictures and which pictures were looked at for them (migration 27). */
export class ThingsRepo {
  private readonly stmts;

  constructor(db: Db) {
    const faceDone = 'EXISTS (SELECT 1 FROM face_scans s WHERE s.node_id = n.id AND s.version = n.version AND s.model = @face_model)';
    const thingsDone = `(@thing_model IS NULL OR
      EXISTS (SELECT 1 FROM thing_scans s WHERE s.node_id = n.id AND s.version = n.version AND s.model = @thing_model))`;
    this.stmts = {
      todo: db.prepare(`SELECT n.id, n.owner_id, n.version, n.mime_type, NOT ${faceDone} AS want_faces, NOT ${thingsDone} AS want_things
        FROM nodes n WHERE ${SCANNABLE} AND NOT (${faceDone} AND ${thingsDone}) LIMIT @limit`),
      deleteOfNode: db.prepare('DELETE FROM things WHERE node_id = ?'),
      insert: db.prepare(`INSERT INTO things (node_id, label, score, x, y, w, h, model)
        VALUES (@node_id, @label, @score, @x, @y, @w, @h, @model)`),
      recordScan: db.prepare(`INSERT INTO thing_scans (node_id, version, model, things, failure, scanned_at) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (node_id) DO UPDATE SET version = excluded.version, model = excluded.model, things = excluded.things,
          failure = excluded.failure, scanned_at = excluded.scanned_at`),
      dropPrivateThings: db.prepare('DELETE FROM things WHERE node_id IN (SELECT id FROM nodes WHERE in_private = 1)'),
      dropPrivateScans: db.prepare('DELETE FROM thing_scans WHERE node_id IN (SELECT id FROM nodes WHERE in_private = 1)'),
      labelsOf: db.prepare('SELECT DISTINCT label FROM things WHERE node_id = ? ORDER BY label'),
    };
  }

  /**
   * Pictures still to be looked at for their faces (by `faceModel`) or their things (by
   * `thingModel`; null when things are not looked for), for their current content.
   */
  todo(faceModel: string, thingModel: string | null, limit: number): PictureTodoRow[] {
    return this.stmts.todo.all({ face_model: faceModel, thing_model: thingModel, limit }) as PictureTodoRow[];
  }

  /** A picture's things become these. */
  replace(nodeId: string, model: string, things: readonly NewThing[]): void {
    this.stmts.deleteOfNode.run(nodeId);
    for (const thing of things) this.stmts.insert.run({ ...thing, node_id: nodeId, model });
  }

  recordScan(nodeId: string, version: number, model: string, things: number, failure: string | null, at: number): void {
    this.stmts.recordScan.run(nodeId, version, model, things, failure, at);
  }

  /** Things of pictures that went into a Private folder go, with their scans (looked at again if they come out). */
  dropPrivate(): void {
    this.stmts.dropPrivateThings.run();
    this.stmts.dropPrivateScans.run();
  }

  /** The kinds of thing seen in a picture (tests, and whoever shows them). */
  labelsOf(nodeId: string): string[] {
    return (this.stmts.labelsOf.all(nodeId) as { label: string }[]).map((r) => r.label);
  }
}
