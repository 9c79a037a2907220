/**
 * 3: sharing: access for accounts, public links.
 */
export const migration = {
  version: 3,
  sql: `
  CREATE TABLE permissions (
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'editor')),
    granted_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (node_id, user_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX permissions_user ON permissions(user_id, node_id);

  CREATE TABLE shares (
    id TEXT PRIMARY KEY,
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    salt TEXT NOT NULL,
    password_hash TEXT,
    password_version INTEGER NOT NULL DEFAULT 0,
    allow_download INTEGER NOT NULL DEFAULT 1,
    expires_at INTEGER,
    revoked_at INTEGER,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX shares_node ON shares(node_id);
  CREATE INDEX shares_creator ON shares(created_by, id);
  `,
};
