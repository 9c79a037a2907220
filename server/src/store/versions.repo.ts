import type { Db } from './db.ts';

export interface VersionRow {
  id: string;
  node_id: string;
  version: number;
  size: number;
  library_id: string;
  blob: string;
  sha256: string | null;
  mime_type: string | null;
  created_by: string;
  created_at: number;
}

export class VersionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert:
        db.prepare(`INSERT INTO node_versions (id, node_id, version, size, library_id, blob, sha256, mime_type, created_by, created_at)
        VALUES (@id, @node_id, @version, @size, @library_id, @blob, @sha256, @mime_type, @created_by, @created_at)`),
      byId: db.prepare('SELECT * FROM node_versions WHERE id = ?'),
      current: db.prepare('SELECT * FROM node_versions WHERE node_id = ? ORDER BY version DESC LIMIT 1'),
      ofNode: db.prepare('SELECT * FROM node_versions WHERE node_id = ? ORDER BY version DESC'),
      ofSubtree: db.prepare(`WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE id = ?
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id)
        SELECT v.* FROM node_versions v JOIN down ON v.node_id = down.id`),
      hasBlob: db.prepare('SELECT 1 FROM node_versions WHERE library_id = ? AND blob = ? LIMIT 1'),
      countOnLibrary: db.prepare('SELECT count(*) AS n FROM node_versions WHERE library_id = ?'),
    };
  }

  insert(row: VersionRow): void {
    this.stmts.insert.run(row);
  }

  byId(id: string): VersionRow | undefined {
    return this.stmts.byId.get(id) as VersionRow | undefined;
  }

  current(nodeId: string): VersionRow | undefined {
    return this.stmts.current.get(nodeId) as VersionRow | undefined;
  }

  ofNode(nodeId: string): VersionRow[] {
    return this.stmts.ofNode.all(nodeId) as VersionRow[];
  }

  /** Every version of a node and everything below it: what a permanent delete frees. */
  ofSubtree(nodeId: string): VersionRow[] {
    return this.stmts.ofSubtree.all(nodeId) as VersionRow[];
  }

  hasBlob(libraryId: string, blob: string): boolean {
    return this.stmts.hasBlob.get(libraryId, blob) !== undefined;
  }

  countOnLibrary(libraryId: string): number {
    return (this.stmts.countOnLibrary.get(libraryId) as { n: number }).n;
  }
}
