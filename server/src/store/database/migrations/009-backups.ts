/**
 * 9: backups: where they go, on what schedule and retention, and each run's outcome.
 */
export const migration = {
  version: 9,
  sql: `
  CREATE TABLE backup_destinations (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder')),
    name TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    encrypted INTEGER NOT NULL DEFAULT 0,
    -- Minutes after local midnight of the nightly run; NULL: only when asked.
    daily_at INTEGER,
    keep_daily INTEGER NOT NULL,
    keep_weekly INTEGER NOT NULL,
    keep_monthly INTEGER NOT NULL,
    next_run_at INTEGER,
    -- What the destination holds: the distinct files of its kept snapshots, after the last run.
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE backup_runs (
    id TEXT PRIMARY KEY,
    destination_id TEXT NOT NULL REFERENCES backup_destinations(id) ON DELETE CASCADE,
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
  CREATE INDEX backup_runs_destination ON backup_runs(destination_id, kind, started_at);
  `,
};
