/**
 * 28: drive passwords (issue 34), one per computer that reaches Hearth as a drive over WebDAV.
 * Only the SHA-256 of each is kept (the password is random, so a copy of the database opens
 * nothing); revoking deletes the row, and removing the account takes its passwords with it.
 */
export const migration = {
  version: 28,
  sql: `
  CREATE TABLE dav_passwords (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    password_hash TEXT NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    last_used_at INTEGER
  ) STRICT;
  CREATE INDEX dav_passwords_user ON dav_passwords(user_id, id);
  `,
};
