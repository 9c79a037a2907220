/**
 * 23: each account's "Private" folder (a locked folder). `in_private` marks the folder and
 * everything below it, kept on every row (like `in_trash`) so that each list leaves it out with one
 * condition and no walk up the tree. The folder itself is named in `private_folders`, with the
 * account's PIN (hashed as passwords are) if it set one. A session's unlock lasts until
 * `private_until`: it is kept on the server, never in a token or a URL.
 */
export const migration = {
  version: 23,
  sql: `
  ALTER TABLE nodes ADD COLUMN in_private INTEGER NOT NULL DEFAULT 0 CHECK (in_private IN (0, 1));
  CREATE TABLE private_folders (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    node_id TEXT NOT NULL UNIQUE REFERENCES nodes(id) ON DELETE CASCADE,
    pin_hash TEXT,
    created_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  ALTER TABLE sessions ADD COLUMN private_until INTEGER;
  `,
};
