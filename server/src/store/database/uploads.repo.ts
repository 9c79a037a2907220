import type { Db } from './db.ts';

export interface UploadRow {
  id: string;
  user_id: string;
  owner_id: string;
  parent_id: string | null;
  node_id: string | null;
  filename: string;
  filetype: string | null;
  length: number | null;
  offset: number;
  library_id: string;
  metadata: string;
  blob: string | null;
  completed_node_id: string | null;
  created_at: number;
  expires_at: number;
}

export class UploadsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO uploads (id, user_id, owner_id, parent_id, node_id, filename, filetype, length, offset,
          library_id, metadata, created_at, expires_at)
        VALUES (@id, @user_id, @owner_id, @parent_id, @node_id, @filename, @filetype, @length, @offset,
          @library_id, @metadata, @created_at, @expires_at)`),
      byId: db.prepare('SELECT * FROM uploads WHERE id = ?'),
      progress: db.prepare('UPDATE uploads SET offset = ?, expires_at = ? WHERE id = ?'),
      setLength: db.prepare('UPDATE uploads SET length = ? WHERE id = ? AND length IS NULL'),
      setBlob: db.prepare('UPDATE uploads SET blob = ? WHERE id = ?'),
      markCompleted: db.prepare('UPDATE uploads SET completed_node_id = ?, expires_at = ? WHERE id = ?'),
      remove: db.prepare('DELETE FROM uploads WHERE id = ?'),
      expired: db.prepare('SELECT * FROM uploads WHERE expires_at <= ? AND (blob IS NULL OR completed_node_id IS NOT NULL) LIMIT 500'),
      holdsBlob: db.prepare('SELECT 1 FROM uploads WHERE blob = ?'),
      all: db.prepare('SELECT * FROM uploads'),
      cutShort: db.prepare('SELECT * FROM uploads WHERE blob IS NOT NULL AND completed_node_id IS NULL LIMIT 500'),
      pendingBytes: db.prepare(
        'SELECT coalesce(sum(coalesce(length, offset)), 0) AS n FROM uploads WHERE owner_id = ? AND completed_node_id IS NULL',
      ),
      activeOnLibrary: db.prepare('SELECT count(*) AS n FROM uploads WHERE library_id = ? AND completed_node_id IS NULL'),
      removeCompletedOnLibrary: db.prepare('DELETE FROM uploads WHERE library_id = ? AND completed_node_id IS NOT NULL'),
    };
  }

  insert(row: Omit<UploadRow, 'blob' | 'completed_node_id'>): void {
    this.stmts.insert.run(row);
  }

  byId(id: string): UploadRow | undefined {
    return this.stmts.byId.get(id) as UploadRow | undefined;
  }

  progress(id: string, offset: number, expiresAt: number): void {
    this.stmts.progress.run(offset, expiresAt, id);
  }

  setLength(id: string, length: number): boolean {
    return (this.stmts.setLength.run(length, id) as { changes: number }).changes === 1;
  }

  setBlob(id: string, blob: string): void {
    this.stmts.setBlob.run(blob, id);
  }

  markCompleted(id: string, nodeId: string, keepUntil: number): void {
    this.stmts.markCompleted.run(nodeId, keepUntil, id);
  }

  remove(id: string): void {
    this.stmts.remove.run(id);
  }

  expired(now: number): UploadRow[] {
    return this.stmts.expired.all(now) as UploadRow[];
  }

  /** Whether an upload is completing into this content file (recorded before the file is moved in). */
  holdsBlob(blob: string): boolean {
    return this.stmts.holdsBlob.get(blob) !== undefined;
  }

  all(): UploadRow[] {
    return this.stmts.all.all() as UploadRow[];
  }

  /** Uploads whose every byte arrived but whose completion the disk cut short (their content id recorded). */
  cutShort(): UploadRow[] {
    return this.stmts.cutShort.all() as UploadRow[];
  }

  /** Space promised to unfinished uploads: counted against the quota at creation. */
  pendingBytes(ownerId: string): number {
    return (this.stmts.pendingBytes.get(ownerId) as { n: number }).n;
  }

  countOnLibrary(libraryId: string): number {
    return (this.stmts.activeOnLibrary.get(libraryId) as { n: number }).n;
  }

  /** Completed uploads kept for clients that lost the last answer; a removed library takes them along. */
  removeCompletedOnLibrary(libraryId: string): void {
    this.stmts.removeCompletedOnLibrary.run(libraryId);
  }
}
