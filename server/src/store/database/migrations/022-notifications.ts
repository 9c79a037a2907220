/**
 * 22: notifications: what the family is told (shared with you, new photos in an album, a phone
 * waiting, a backup failing, a phone not backed up), each account's choice of what to be told, and the browsers that
 * asked to be told by Web Push. `topic` names what a notification is about, so that one cause is
 * told once and a burst of photos in an album is one notification.
 */
export const migration = {
  version: 22,
  sql: `
  CREATE TABLE notifications (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    topic TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    link TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    read_at INTEGER
  ) STRICT;
  CREATE INDEX notifications_user ON notifications(user_id, updated_at, id);
  CREATE INDEX notifications_topic ON notifications(user_id, kind, topic, updated_at);
  CREATE TABLE notification_settings (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    PRIMARY KEY (user_id, kind)
  ) STRICT, WITHOUT ROWID;
  -- A browser's yes to Web Push, made on one signed-in device: it ends with that session.
  CREATE TABLE push_subscriptions (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL UNIQUE,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX push_subscriptions_user ON push_subscriptions(user_id);
  -- When each phone last ran "Back up this phone": a phone silent for a week is told so.
  CREATE TABLE phone_backups (
    session_id TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    backed_up_at INTEGER NOT NULL
  ) STRICT;
  `,
};
