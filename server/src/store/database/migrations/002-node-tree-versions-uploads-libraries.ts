/**
 * 2: the node tree, content versions, stars, activity, idempotency, uploads, libraries.
 */
export const migration = {
  version: 2,
  sql: `
  CREATE TABLE libraries (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('internal', 'external', 'network', 'pooled')),
    path TEXT NOT NULL UNIQUE,
    is_default INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'online' CHECK (status IN ('online', 'offline', 'ejected')),
    created_at INTEGER NOT NULL
  ) STRICT;

  CREATE TABLE nodes (
    id TEXT PRIMARY KEY,
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    parent_id TEXT REFERENCES nodes(id) ON DELETE CASCADE,
    type TEXT NOT NULL CHECK (type IN ('folder', 'file')),
    kind_rank INTEGER NOT NULL GENERATED ALWAYS AS (CASE type WHEN 'folder' THEN 0 ELSE 1 END) VIRTUAL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    sort_name TEXT NOT NULL,
    search_name TEXT NOT NULL,
    size INTEGER NOT NULL DEFAULT 0,
    mime_type TEXT,
    color TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    trashed_at INTEGER,
    in_trash INTEGER NOT NULL DEFAULT 0,
    is_media INTEGER NOT NULL DEFAULT 0,
    image_width INTEGER,
    image_height INTEGER,
    taken_at INTEGER,
    taken_sort INTEGER NOT NULL,
    has_thumbnail INTEGER NOT NULL DEFAULT 0,
    container TEXT NOT NULL GENERATED ALWAYS AS (coalesce(parent_id, 'root:' || owner_id)) VIRTUAL
  ) STRICT;
  -- Siblings are unique ignoring case; trashed nodes keep their names without blocking anyone.
  CREATE UNIQUE INDEX nodes_sibling_name ON nodes(container, name_key) WHERE in_trash = 0;
  -- One index per sort of a folder listing: a page is a single indexed range scan.
  CREATE INDEX nodes_by_name ON nodes(container, in_trash, kind_rank, sort_name, id);
  CREATE INDEX nodes_by_updated ON nodes(container, in_trash, kind_rank, updated_at, id);
  CREATE INDEX nodes_by_created ON nodes(container, in_trash, kind_rank, created_at, id);
  CREATE INDEX nodes_by_size ON nodes(container, in_trash, kind_rank, size, id);
  CREATE INDEX nodes_by_taken ON nodes(container, in_trash, kind_rank, taken_sort, id);
  CREATE INDEX nodes_parent ON nodes(parent_id);
  CREATE INDEX nodes_gallery ON nodes(owner_id, taken_sort, id) WHERE is_media = 1 AND in_trash = 0;
  CREATE INDEX nodes_recent ON nodes(owner_id, updated_at, id) WHERE type = 'file' AND in_trash = 0;
  CREATE INDEX nodes_trash ON nodes(owner_id, trashed_at) WHERE trashed_at IS NOT NULL;

  CREATE TABLE node_versions (
    id TEXT PRIMARY KEY,
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    size INTEGER NOT NULL,
    library_id TEXT NOT NULL REFERENCES libraries(id),
    blob TEXT NOT NULL,
    sha256 TEXT,
    mime_type TEXT,
    created_by TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (node_id, version)
  ) STRICT;
  CREATE INDEX node_versions_blob ON node_versions(library_id, blob);

  CREATE TABLE stars (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, node_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX stars_node ON stars(node_id);

  CREATE TABLE activity (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    actor_id TEXT,
    type TEXT NOT NULL,
    node_id TEXT,
    at INTEGER NOT NULL,
    details TEXT NOT NULL DEFAULT '{}'
  ) STRICT;
  CREATE INDEX activity_user ON activity(user_id, id);

  CREATE TABLE idempotency (
    user_id TEXT NOT NULL,
    scope TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, scope, key)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX idempotency_created ON idempotency(created_at);

  CREATE TABLE uploads (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    owner_id TEXT NOT NULL,
    parent_id TEXT,
    node_id TEXT,
    filename TEXT NOT NULL,
    filetype TEXT,
    length INTEGER,
    offset INTEGER NOT NULL DEFAULT 0,
    library_id TEXT NOT NULL REFERENCES libraries(id),
    metadata TEXT NOT NULL DEFAULT '{}',
    -- Set once the bytes are complete and being moved into place: lets startup finish the job.
    blob TEXT,
    -- Kept a while after completion so a client that lost the final answer learns the node.
    completed_node_id TEXT,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX uploads_expiry ON uploads(expires_at);
  CREATE INDEX uploads_owner ON uploads(owner_id);
  `,
};
