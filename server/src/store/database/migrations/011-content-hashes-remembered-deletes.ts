/**
 * 11: finding files by content (a phone's backup asks which of its photos are here), and the
 * contents an account deleted on purpose, so a backup does not send them again.
 */
export const migration = {
  version: 11,
  sql: `
  CREATE INDEX node_versions_sha256 ON node_versions(sha256) WHERE sha256 IS NOT NULL;
  CREATE TABLE remembered_deletes (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    deleted_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, sha256)
  ) STRICT, WITHOUT ROWID;
  `,
};
