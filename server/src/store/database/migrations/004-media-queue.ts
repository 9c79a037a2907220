/**
 * 4: media processing: a durable queue, and where each node stands in it.
 */
export const migration = {
  version: 4,
  sql: `
  ALTER TABLE nodes ADD COLUMN media_state TEXT CHECK (media_state IN ('pending', 'done', 'failed'));
  CREATE TABLE media_jobs (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    enqueued_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX media_jobs_order ON media_jobs(enqueued_at, node_id);
  `,
};
