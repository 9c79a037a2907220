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
      blobsOnLibrary: db.prepare('SELECT count(DISTINCT blob) AS n FROM node_versions WHERE library_id = ?'),
      // Through node_versions_sha256. A file recorded as garbage is on its way out: never shared again.
      withContent: db.prepare(`SELECT v.blob FROM node_versions v
        WHERE v.sha256 = @sha256 AND v.library_id = @library AND v.size = @size AND v.blob <> @except
          AND NOT EXISTS (SELECT 1 FROM content_garbage g WHERE g.library_id = v.library_id AND g.blob = v.blob)
        LIMIT 1`),
      unhashed: db.prepare('SELECT * FROM node_versions WHERE sha256 IS NULL AND id > ? ORDER BY id LIMIT ?'),
      setSha256: db.prepare('UPDATE node_versions SET sha256 = @sha256 WHERE library_id = @library AND blob = @blob AND sha256 IS NULL'),
      repoint: db.prepare('UPDATE node_versions SET blob = @to WHERE library_id = @library AND blob = @from'),
      // Grouped along node_versions_sha256; one file of each group that still has two.
      duplicates: db.prepare(`SELECT library_id, sha256, size, min(blob) AS blob FROM node_versions WHERE sha256 IS NOT NULL
        GROUP BY sha256, library_id, size HAVING min(blob) <> max(blob) LIMIT ?`),
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

  /** Content files the versions on a library refer to: fewer than versions where contents are shared. */
  countBlobsOnLibrary(libraryId: string): number {
    return (this.stmts.blobsOnLibrary.get(libraryId) as { n: number }).n;
  }

  /**
   * A content file on the library already holding these bytes, by the SHA-256 the server
   * computed of it (never a client's word) and its size; `except` leaves out a file of its own.
   */
  blobWithContent(libraryId: string, sha256: string, size: number, except = ''): string | undefined {
    return (this.stmts.withContent.get({ library: libraryId, sha256, size, except }) as { blob: string } | undefined)?.blob;
  }

  /** Versions whose content has no SHA-256 yet (stored by an older release), in id order after `afterId`. */
  unhashed(afterId: string, limit: number): VersionRow[] {
    return this.stmts.unhashed.all(afterId, limit) as VersionRow[];
  }

  /** Records the SHA-256 computed from a content file, on every version that refers to it. */
  setSha256(libraryId: string, blob: string, sha256: string): void {
    this.stmts.setSha256.run({ library: libraryId, blob, sha256 });
  }

  /** Files on a library holding the same bytes as another there: one of each such group. */
  duplicates(limit: number): { library_id: string; sha256: string; size: number; blob: string }[] {
    return this.stmts.duplicates.all(limit) as { library_id: string; sha256: string; size: number; blob: string }[];
  }

  /** Every version on `from` now refers to `to`, a file with the same bytes. */
  repoint(libraryId: string, from: string, to: string): void {
    this.stmts.repoint.run({ library: libraryId, from, to });
  }
}
