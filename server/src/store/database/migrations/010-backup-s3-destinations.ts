/**
 * 10: off-site backups to S3-compatible buckets: the bucket's place and access key id (the secret
 * is kept out of the database: backup-secrets.ts). The tables are rebuilt to widen kind's CHECK,
 * runs alongside, since dropping the destinations would cascade to them.
 */
export const migration = {
  version: 10,
  sql: `
  CREATE TABLE backup_destinations_v10 (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 's3')),
    name TEXT NOT NULL,
    -- A folder's path; a bucket's address (endpoint/bucket/prefix), which makes it unique too.
    path TEXT NOT NULL UNIQUE,
    encrypted INTEGER NOT NULL DEFAULT 0,
    daily_at INTEGER,
    keep_daily INTEGER NOT NULL,
    keep_weekly INTEGER NOT NULL,
    keep_monthly INTEGER NOT NULL,
    next_run_at INTEGER,
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    endpoint TEXT,
    region TEXT,
    bucket TEXT,
    prefix TEXT,
    access_key_id TEXT,
    CHECK ((kind = 's3') = (bucket IS NOT NULL))
  ) STRICT;
  INSERT INTO backup_destinations_v10 (id, kind, name, path, encrypted, daily_at, keep_daily, keep_weekly, keep_monthly, next_run_at, stored_bytes, created_at)
    SELECT id, kind, name, path, encrypted, daily_at, keep_daily, keep_weekly, keep_monthly, next_run_at, stored_bytes, created_at FROM backup_destinations;
  CREATE TABLE backup_runs_v10 (
    id TEXT PRIMARY KEY,
    destination_id TEXT NOT NULL REFERENCES backup_destinations_v10(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('backup', 'verify')),
    state TEXT NOT NULL CHECK (state IN ('running', 'succeeded', 'failed')),
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    files INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0,
    bytes_copied INTEGER NOT NULL DEFAULT 0,
    problems TEXT NOT NULL DEFAULT '[]',
    error TEXT,
    snapshot_id TEXT
  ) STRICT;
  INSERT INTO backup_runs_v10 SELECT id, destination_id, kind, state, started_at, finished_at, files, bytes, bytes_copied, problems, error, snapshot_id FROM backup_runs ORDER BY rowid;
  DROP TABLE backup_runs;
  DROP TABLE backup_destinations;
  ALTER TABLE backup_destinations_v10 RENAME TO backup_destinations;
  ALTER TABLE backup_runs_v10 RENAME TO backup_runs;
  CREATE INDEX backup_runs_destination ON backup_runs(destination_id, kind, started_at);
  `,
};
