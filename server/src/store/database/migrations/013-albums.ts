/**
 * 13: albums: photos and videos gathered by reference (the same photo in several albums, never
 * copied), shared with family members as viewers or contributors or by a link, and the folder each
 * contributor's album uploads go to.
 */
export const migration = {
  version: 13,
  sql: `
  CREATE TABLE albums (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- Chosen by the owner; NULL (or an item no longer shown) means the newest photo.
    cover_node_id TEXT REFERENCES nodes(id) ON DELETE SET NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX albums_owner ON albums(owner_id, updated_at, id);
  CREATE TABLE album_members (
    album_id TEXT NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'contributor')),
    added_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (album_id, user_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX album_members_user ON album_members(user_id, album_id);
  CREATE TABLE album_items (
    album_id TEXT NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    -- Whose the addition is: a contributor removes only their own, and an item stays only while this account may read the node.
    added_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    added_at INTEGER NOT NULL,
    PRIMARY KEY (album_id, node_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX album_items_node ON album_items(node_id, album_id);
  CREATE TABLE album_upload_folders (
    album_id TEXT NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    folder_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    PRIMARY KEY (album_id, user_id)
  ) STRICT, WITHOUT ROWID;
  -- A link opens a node or an album: the table is rebuilt to make node_id optional (nothing refers to it).
  CREATE TABLE shares_v13 (
    id TEXT PRIMARY KEY,
    node_id TEXT REFERENCES nodes(id) ON DELETE CASCADE,
    album_id TEXT REFERENCES albums(id) ON DELETE CASCADE,
    created_by TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    salt TEXT NOT NULL,
    password_hash TEXT,
    password_version INTEGER NOT NULL DEFAULT 0,
    allow_download INTEGER NOT NULL DEFAULT 1,
    expires_at INTEGER,
    revoked_at INTEGER,
    created_at INTEGER NOT NULL,
    CHECK ((node_id IS NULL) != (album_id IS NULL))
  ) STRICT;
  INSERT INTO shares_v13 (id, node_id, album_id, created_by, token_hash, salt, password_hash, password_version, allow_download, expires_at, revoked_at, created_at)
    SELECT id, node_id, NULL, created_by, token_hash, salt, password_hash, password_version, allow_download, expires_at, revoked_at, created_at FROM shares ORDER BY rowid;
  DROP TABLE shares;
  ALTER TABLE shares_v13 RENAME TO shares;
  CREATE INDEX shares_node ON shares(node_id);
  CREATE INDEX shares_album ON shares(album_id);
  CREATE INDEX shares_creator ON shares(created_by, id);
  `,
};
