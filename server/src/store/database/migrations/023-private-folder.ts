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
  -- The timeline's indexes hold the mark too, so its counts stay on the index alone (a third
  -- condition in a partial index's WHERE would make SQLite read each row for it).
  DROP INDEX nodes_gallery;
  CREATE INDEX nodes_gallery ON nodes(owner_id, taken_sort, id, in_private) WHERE is_media = 1 AND in_trash = 0;
  DROP INDEX nodes_gallery_videos;
  CREATE INDEX nodes_gallery_videos ON nodes(owner_id, taken_sort, in_private) WHERE is_media = 1 AND in_trash = 0 AND mime_type LIKE 'video/%';
  DROP INDEX nodes_gallery_folder;
  CREATE INDEX nodes_gallery_folder ON nodes(parent_id, taken_sort, mime_type, in_private) WHERE is_media = 1 AND in_trash = 0;
  DROP INDEX nodes_gallery_dated;
  CREATE INDEX nodes_gallery_dated ON nodes(owner_id, taken_sort, media_state, mime_type, in_private) WHERE is_media = 1 AND in_trash = 0;
  `,
};
