import type { Db } from './db.ts';

export interface BackupDestinationRow {
  id: string;
  kind: 'folder' | 's3';
  name: string;
  /** A folder's path; a bucket's address (endpoint/bucket/prefix). */
  path: string;
  encrypted: number;
  daily_at: number | null;
  keep_last: number;
  keep_daily: number;
  keep_weekly: number;
  keep_monthly: number;
  next_run_at: number | null;
  stored_bytes: number;
  created_at: number;
  /** An s3 destination's place (null for a folder); its secret key is in backup-secrets.json, not here. */
  endpoint: string | null;
  region: string | null;
  bucket: string | null;
  prefix: string | null;
  access_key_id: string | null;
}

export interface BackupRunRow {
  id: string;
  destination_id: string;
  kind: 'backup' | 'verify';
  state: 'running' | 'succeeded' | 'failed';
  started_at: number;
  finished_at: number | null;
  files: number;
  bytes: number;
  bytes_copied: number;
  /** JSON array of {path, reason}. */
  problems: string;
  error: string | null;
  /** The catalogue's code for `error` (null on success, and on runs recorded before it was kept). */
  error_code: string | null;
  snapshot_id: string | null;
}

/** A content file the database refers to: what a snapshot must hold beside the database. */
export interface ContentRef {
  library_id: string;
  blob: string;
  size: number;
  sha256: string | null;
}

export type DestinationChanges = Partial<
  Pick<
    BackupDestinationRow,
    'name' | 'daily_at' | 'keep_last' | 'keep_daily' | 'keep_weekly' | 'keep_monthly' | 'next_run_at' | 'access_key_id'
  >
>;

export class BackupRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      all: db.prepare('SELECT * FROM backup_destinations ORDER BY created_at, id'),
      byId: db.prepare('SELECT * FROM backup_destinations WHERE id = ?'),
      byPath: db.prepare('SELECT * FROM backup_destinations WHERE path = ?'),
      insert:
        db.prepare(`INSERT INTO backup_destinations (id, kind, name, path, encrypted, daily_at, keep_last, keep_daily, keep_weekly, keep_monthly, next_run_at, created_at,
        endpoint, region, bucket, prefix, access_key_id)
        VALUES (@id, @kind, @name, @path, @encrypted, @daily_at, @keep_last, @keep_daily, @keep_weekly, @keep_monthly, @next_run_at, @created_at,
        @endpoint, @region, @bucket, @prefix, @access_key_id)`),
      remove: db.prepare('DELETE FROM backup_destinations WHERE id = ?'),
      setStored: db.prepare('UPDATE backup_destinations SET stored_bytes = ? WHERE id = ?'),
      insertRun: db.prepare(
        `INSERT INTO backup_runs (id, destination_id, kind, state, started_at) VALUES (@id, @destination_id, @kind, 'running', @started_at)`,
      ),
      progress: db.prepare('UPDATE backup_runs SET files = @files, bytes = @bytes, bytes_copied = @bytes_copied WHERE id = @id'),
      finish:
        db.prepare(`UPDATE backup_runs SET state = @state, finished_at = @finished_at, files = @files, bytes = @bytes, bytes_copied = @bytes_copied,
        problems = @problems, error = @error, error_code = @error_code, snapshot_id = @snapshot_id WHERE id = @id`),
      run: db.prepare('SELECT * FROM backup_runs WHERE id = ?'),
      lastRun: db.prepare(
        "SELECT * FROM backup_runs WHERE destination_id = ? AND kind = 'backup' ORDER BY started_at DESC, rowid DESC LIMIT 1",
      ),
      lastSuccess: db.prepare(
        "SELECT * FROM backup_runs WHERE destination_id = ? AND kind = 'backup' AND state = 'succeeded' ORDER BY started_at DESC, rowid DESC LIMIT 1",
      ),
      lastVerify: db.prepare(
        "SELECT * FROM backup_runs WHERE destination_id = ? AND kind = 'verify' ORDER BY started_at DESC, rowid DESC LIMIT 1",
      ),
      interrupted: db.prepare("UPDATE backup_runs SET state = 'failed', finished_at = @at, error = @error WHERE state = 'running'"),
    };
  }

  all(): BackupDestinationRow[] {
    return this.stmts.all.all() as BackupDestinationRow[];
  }

  byId(id: string): BackupDestinationRow | undefined {
    return this.stmts.byId.get(id) as BackupDestinationRow | undefined;
  }

  byPath(path: string): BackupDestinationRow | undefined {
    return this.stmts.byPath.get(path) as BackupDestinationRow | undefined;
  }

  insert(row: Omit<BackupDestinationRow, 'stored_bytes'>): void {
    this.stmts.insert.run(row);
  }

  update(id: string, changes: DestinationChanges): void {
    const columns = Object.keys(changes).filter((key) =>
      /^(name|daily_at|keep_last|keep_daily|keep_weekly|keep_monthly|next_run_at|access_key_id)$/.test(key),
    );
    if (columns.length === 0) return;
    this.db
      .prepare(`UPDATE backup_destinations SET ${columns.map((c) => `${c} = @${c}`).join(', ')} WHERE id = @id`)
      .run({ ...changes, id });
  }

  remove(id: string): void {
    this.stmts.remove.run(id);
  }

  setStoredBytes(id: string, bytes: number): void {
    this.stmts.setStored.run(bytes, id);
  }

  insertRun(run: { id: string; destination_id: string; kind: BackupRunRow['kind']; started_at: number }): void {
    this.stmts.insertRun.run(run);
  }

  progress(id: string, counts: { files: number; bytes: number; bytes_copied: number }): void {
    this.stmts.progress.run({ ...counts, id });
  }

  finishRun(run: Omit<BackupRunRow, 'destination_id' | 'kind' | 'started_at'>): void {
    this.stmts.finish.run(run);
  }

  run(id: string): BackupRunRow | undefined {
    return this.stmts.run.get(id) as BackupRunRow | undefined;
  }

  lastRun(destinationId: string): BackupRunRow | undefined {
    return this.stmts.lastRun.get(destinationId) as BackupRunRow | undefined;
  }

  lastSuccess(destinationId: string): BackupRunRow | undefined {
    return this.stmts.lastSuccess.get(destinationId) as BackupRunRow | undefined;
  }

  lastVerify(destinationId: string): BackupRunRow | undefined {
    return this.stmts.lastVerify.get(destinationId) as BackupRunRow | undefined;
  }

  /** Runs left "running" by a server that stopped (kill -9, power cut): they did not finish. */
  failInterrupted(at: number, error: string): number {
    return Number(this.stmts.interrupted.run({ at, error }).changes);
  }

  /** A consistent copy of the whole database in a new file, copied in steps while the server keeps serving (Db.backupTo). */
  copyDatabaseTo(file: string): Promise<void> {
    return this.db.backupTo(file);
  }
}

/** The content files a (copied) database refers to, one row each, without building a list of objects. */
export function* contentOf(db: Db): Generator<ContentRef> {
  const rows = db
    .prepareRaw('SELECT library_id, blob, max(size), max(sha256) FROM node_versions GROUP BY library_id, blob ORDER BY library_id, blob')
    .iterate();
  for (const row of rows) {
    const [library_id, blob, size, sha256] = row as [string, string, number, string | null];
    yield { library_id, blob, size: Number(size), sha256 };
  }
}

/**
 * In a snapshot's own copy of the database, the run making it reads as succeeded: a server
 * restored from the snapshot exists only because that run finished (a copy whose run fails never
 * becomes a snapshot). Left as "running", the restored server would call it cut short.
 */
export function recordRunInCopy(copy: Db, run: { id: string; snapshotId: string; at: number }): void {
  copy
    .prepare("UPDATE backup_runs SET state = 'succeeded', finished_at = ?, snapshot_id = ? WHERE id = ?")
    .run(run.at, run.snapshotId, run.id);
}
