import type { Db } from './db.ts';

/**
 * Why a content file is garbage, as the database that made it says:
 * - `deleted`: its version was deleted for good; the file goes right after the commit, and
 *   the row with it (a crash or an offline drive in between leaves both).
 * - `unfinished`: a copy (restoring an old version) started before its version row; a crash
 *   in between leaves a file no version names.
 */
export type GarbageReason = 'deleted' | 'unfinished';

export interface GarbageRow {
  library_id: string;
  blob: string;
  reason: GarbageReason;
  at: number;
}

/**
 * Content files this database let go of. The start-up clean-up takes away only files named
 * here: a file no row names, not even here, is one this database has never seen (a database
 * restored from an older backup, or a new one), and it is kept.
 */
export class GarbageRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      add: db.prepare(`INSERT INTO content_garbage (library_id, blob, reason, at) VALUES (?, ?, ?, ?)
        ON CONFLICT (library_id, blob) DO UPDATE SET reason = excluded.reason, at = excluded.at`),
      get: db.prepare('SELECT * FROM content_garbage WHERE library_id = ? AND blob = ?'),
      forget: db.prepare('DELETE FROM content_garbage WHERE library_id = ? AND blob = ?'),
      onLibrary: db.prepare('SELECT * FROM content_garbage WHERE library_id = ?'),
      forgetLibrary: db.prepare('DELETE FROM content_garbage WHERE library_id = ?'),
    };
  }

  add(libraryId: string, blob: string, reason: GarbageReason, at: number): void {
    this.stmts.add.run(libraryId, blob, reason, at);
  }

  get(libraryId: string, blob: string): GarbageRow | undefined {
    return this.stmts.get.get(libraryId, blob) as GarbageRow | undefined;
  }

  /** The file is gone (removed, or moved to the holding folder): nothing is left to collect. */
  forget(libraryId: string, blob: string): void {
    this.stmts.forget.run(libraryId, blob);
  }

  onLibrary(libraryId: string): GarbageRow[] {
    return this.stmts.onLibrary.all(libraryId) as GarbageRow[];
  }

  forgetLibrary(libraryId: string): void {
    this.stmts.forgetLibrary.run(libraryId);
  }
}
