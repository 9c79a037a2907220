/**
 * 1: accounts, sessions, invites, settings.
 */
export const migration = {
  version: 1,
  sql: `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL,
    username_key TEXT NOT NULL UNIQUE,
    display_name TEXT,
    role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    password_hash TEXT NOT NULL,
    must_change_password INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    avatar_seed TEXT NOT NULL,
    quota_bytes INTEGER,
    used_bytes INTEGER NOT NULL DEFAULT 0,
    totp_secret TEXT,
    totp_pending_secret TEXT,
    totp_last_step INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE recovery_codes (
    code_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    used_at INTEGER
  ) STRICT;
  CREATE INDEX recovery_codes_user ON recovery_codes(user_id);

  CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'active', 'denied', 'revoked')),
    device_name TEXT,
    platform TEXT,
    user_agent TEXT,
    ip TEXT,
    created_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    approved_at INTEGER,
    expires_at INTEGER NOT NULL,
    ended_at INTEGER,
    ended_reason TEXT
  ) STRICT;
  CREATE INDEX sessions_user_status ON sessions(user_id, status);
  CREATE INDEX sessions_status_expiry ON sessions(status, expires_at);

  CREATE TABLE refresh_tokens (
    token_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    used_at INTEGER
  ) STRICT;
  CREATE INDEX refresh_tokens_session ON refresh_tokens(session_id);

  CREATE TABLE invites (
    id TEXT PRIMARY KEY,
    code_hash TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    max_uses INTEGER,
    uses INTEGER NOT NULL DEFAULT 0,
    expires_at INTEGER,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;

  CREATE TABLE rate_events (bucket TEXT NOT NULL, at INTEGER NOT NULL) STRICT;
  CREATE INDEX rate_events_bucket_at ON rate_events(bucket, at);
  `,
};
