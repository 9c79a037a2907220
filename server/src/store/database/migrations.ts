/**
 * Versioned schema. Each entry runs once, in order, inside one transaction with the bump of
 * `user_version`; never edit a shipped entry, add a new one.
 */
export const MIGRATIONS: readonly string[] = [
  /* 1: accounts, sessions, invites, settings */ `
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
  /* 2: the node tree, content versions, stars, activity, idempotency, uploads, libraries */ `
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
  /* 3: sharing: access for accounts, public links */ `
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
  /* 4: media processing: a durable queue, and where each node stands in it */ `
  ALTER TABLE nodes ADD COLUMN media_state TEXT CHECK (media_state IN ('pending', 'done', 'failed'));
  CREATE TABLE media_jobs (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    version INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    enqueued_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX media_jobs_order ON media_jobs(enqueued_at, node_id);
  `,
  /* 5: libraries the server mounted itself (a drive, or a pool of drives): how to mount them again */ `
  ALTER TABLE libraries ADD COLUMN mount_spec TEXT;
  `,
  /* 6: who an invite is for, as the owner wrote it (the console lists invites by it) */ `
  ALTER TABLE invites ADD COLUMN label TEXT;
  `,
  /* 7: the gallery's videos, so a month's video count is one short range (the scrubber's counts) */ `
  CREATE INDEX nodes_gallery_videos ON nodes(owner_id, taken_sort) WHERE is_media = 1 AND in_trash = 0 AND mime_type LIKE 'video/%';
  `,
  /* 8: content files the database let go of (a version deleted for good, a copy never finished):
     the only files the start-up clean-up may take away, and then only to the holding folder */ `
  CREATE TABLE content_garbage (
    library_id TEXT NOT NULL,
    blob TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('deleted', 'unfinished')),
    at INTEGER NOT NULL,
    PRIMARY KEY (library_id, blob)
  ) STRICT, WITHOUT ROWID;
  `,
  /* 9: backups: where they go, on what schedule and retention, and each run's outcome */ `
  CREATE TABLE backup_destinations (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder')),
    name TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    encrypted INTEGER NOT NULL DEFAULT 0,
    -- Minutes after local midnight of the nightly run; NULL: only when asked.
    daily_at INTEGER,
    keep_daily INTEGER NOT NULL,
    keep_weekly INTEGER NOT NULL,
    keep_monthly INTEGER NOT NULL,
    next_run_at INTEGER,
    -- What the destination holds: the distinct files of its kept snapshots, after the last run.
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL
  ) STRICT;
  CREATE TABLE backup_runs (
    id TEXT PRIMARY KEY,
    destination_id TEXT NOT NULL REFERENCES backup_destinations(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('backup', 'verify')),
    state TEXT NOT NULL CHECK (state IN ('running', 'succeeded', 'failed')),
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    files INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0,
    bytes_copied INTEGER NOT NULL DEFAULT 0,
    problems TEXT NOT NULL DEFAULT '[]',
    error TEXT,
    snapshot_id TEXT
  ) STRICT;
  CREATE INDEX backup_runs_destination ON backup_runs(destination_id, kind, started_at);
  `,
  /* 10: off-site backups to S3-compatible buckets: the bucket's place and access key id (the secret is kept out of the database: backup-secrets.ts). The tables are rebuilt to widen kind's CHECK, runs alongside, since dropping the destinations would cascade to them */ `
  CREATE TABLE backup_destinations_v10 (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('folder', 's3')),
    name TEXT NOT NULL,
    -- A folder's path; a bucket's address (endpoint/bucket/prefix), which makes it unique too.
    path TEXT NOT NULL UNIQUE,
    encrypted INTEGER NOT NULL DEFAULT 0,
    daily_at INTEGER,
    keep_daily INTEGER NOT NULL,
    keep_weekly INTEGER NOT NULL,
    keep_monthly INTEGER NOT NULL,
    next_run_at INTEGER,
    stored_bytes INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,
    endpoint TEXT,
    region TEXT,
    bucket TEXT,
    prefix TEXT,
    access_key_id TEXT,
    CHECK ((kind = 's3') = (bucket IS NOT NULL))
  ) STRICT;
  INSERT INTO backup_destinations_v10 (id, kind, name, path, encrypted, daily_at, keep_daily, keep_weekly, keep_monthly, next_run_at, stored_bytes, created_at)
    SELECT id, kind, name, path, encrypted, daily_at, keep_daily, keep_weekly, keep_monthly, next_run_at, stored_bytes, created_at FROM backup_destinations;
  CREATE TABLE backup_runs_v10 (
    id TEXT PRIMARY KEY,
    destination_id TEXT NOT NULL REFERENCES backup_destinations_v10(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('backup', 'verify')),
    state TEXT NOT NULL CHECK (state IN ('running', 'succeeded', 'failed')),
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    files INTEGER NOT NULL DEFAULT 0,
    bytes INTEGER NOT NULL DEFAULT 0,
    bytes_copied INTEGER NOT NULL DEFAULT 0,
    problems TEXT NOT NULL DEFAULT '[]',
    error TEXT,
    snapshot_id TEXT
  ) STRICT;
  INSERT INTO backup_runs_v10 SELECT id, destination_id, kind, state, started_at, finished_at, files, bytes, bytes_copied, problems, error, snapshot_id FROM backup_runs ORDER BY rowid;
  DROP TABLE backup_runs;
  DROP TABLE backup_destinations;
  ALTER TABLE backup_destinations_v10 RENAME TO backup_destinations;
  ALTER TABLE backup_runs_v10 RENAME TO backup_runs;
  CREATE INDEX backup_runs_destination ON backup_runs(destination_id, kind, started_at);
  `,
  /* 11: finding files by content (a phone's backup asks which of its photos are here), and the contents an account deleted on purpose, so a backup does not send them again */ `
  CREATE INDEX node_versions_sha256 ON node_versions(sha256) WHERE sha256 IS NOT NULL;
  CREATE TABLE remembered_deletes (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    sha256 TEXT NOT NULL,
    deleted_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, sha256)
  ) STRICT, WITHOUT ROWID;
  `,
  /* 12: a content file shared by every version with the same bytes, found by its SHA-256. Only a hash the server computed from the whole stored file may lead an upload to share a file, and releases before 11 recorded a client's checksum of its last request instead (wrong for uploads sent in several): every hash recorded so far is computed again from the files, by the content index job, which walks the versions still to hash through this partial index */ `
  UPDATE node_versions SET sha256 = NULL WHERE sha256 IS NOT NULL;
  CREATE INDEX node_versions_unhashed ON node_versions(id) WHERE sha256 IS NULL;
  `,
  /* 13: albums: photos and videos gathered by reference (the same photo in several albums, never copied), shared with family members as viewers or contributors or by a link, and the folder each contributor's album uploads go to */ `
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
  /* 14: what a photo or video says about itself: the zone it was taken in, its place (position, and town and country from the offline table), camera and exposure, a video's length, and the words search finds it by. taken_sort becomes the time on the camera's clock where it was taken (taken_at plus its zone), so months and dates are those the family lived. Photos already processed are queued for a re-read of these alone (no thumbnails), after every upload's own job */ `
  ALTER TABLE nodes ADD COLUMN taken_offset INTEGER;
  ALTER TABLE nodes ADD COLUMN duration_ms INTEGER;
  ALTER TABLE nodes ADD COLUMN latitude REAL;
  ALTER TABLE nodes ADD COLUMN longitude REAL;
  ALTER TABLE nodes ADD COLUMN place_town TEXT;
  ALTER TABLE nodes ADD COLUMN place_country TEXT;
  ALTER TABLE nodes ADD COLUMN camera_make TEXT;
  ALTER TABLE nodes ADD COLUMN camera_model TEXT;
  ALTER TABLE nodes ADD COLUMN lens TEXT;
  ALTER TABLE nodes ADD COLUMN f_number REAL;
  ALTER TABLE nodes ADD COLUMN exposure_time REAL;
  ALTER TABLE nodes ADD COLUMN iso INTEGER;
  ALTER TABLE nodes ADD COLUMN focal_length REAL;
  ALTER TABLE nodes ADD COLUMN media_search TEXT;
  ALTER TABLE media_jobs ADD COLUMN details_only INTEGER NOT NULL DEFAULT 0;
  DROP INDEX media_jobs_order;
  CREATE INDEX media_jobs_order ON media_jobs(details_only, enqueued_at, node_id);
  INSERT INTO media_jobs (node_id, version, enqueued_at, details_only)
    SELECT id, version, 0, 1 FROM nodes WHERE is_media = 1 AND type = 'file' AND media_state IN ('done', 'failed')
    ON CONFLICT (node_id) DO NOTHING;
  `,
  /* 15: playback copies: for each video content file (shared by every version with its bytes, so two accounts' same video have one copy), what it holds and whether a browser-friendly copy is needed, waiting or made. The copies are files under the library's playback/ folder, made again if lost: never backed up */ `
  CREATE TABLE playback_copies (
    library_id TEXT NOT NULL,
    blob TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('unprobed', 'not_needed', 'waiting', 'ready', 'failed')),
    probe TEXT,
    size INTEGER NOT NULL DEFAULT 0,
    enqueued_at INTEGER NOT NULL,
    made_at INTEGER,
    failure TEXT,
    PRIMARY KEY (library_id, blob)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX playback_copies_queue ON playback_copies(state, enqueued_at);
  `,
  /* 16: one family timeline. Partner sharing: an account shows all its photos and videos, or those taken from a day on, in another account's Photos. Each album item keeps its photo's taken time beside it, kept so by the database itself (triggers), so the timeline counts an album's months by one index range; an index of each folder's photos and videos by taken time does the same for shared folders. And where a phone opens after signing in (Photos unless the person chose My files) */ `
  CREATE TABLE partner_shares (
    owner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    partner_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    -- Photos taken on or after this, on the clock where they were taken (taken_sort's: the day's midnight read as UTC); NULL: all of them.
    taken_from INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (owner_id, partner_id),
    CHECK (owner_id != partner_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX partner_shares_partner ON partner_shares(partner_id, owner_id);
  ALTER TABLE album_items ADD COLUMN taken_sort INTEGER NOT NULL DEFAULT 0;
  UPDATE album_items SET taken_sort = (SELECT n.taken_sort FROM nodes n WHERE n.id = album_items.node_id);
  CREATE INDEX album_items_taken ON album_items(album_id, taken_sort);
  CREATE TRIGGER album_items_taken_on_add AFTER INSERT ON album_items BEGIN
    UPDATE album_items SET taken_sort = (SELECT n.taken_sort FROM nodes n WHERE n.id = NEW.node_id)
      WHERE album_id = NEW.album_id AND node_id = NEW.node_id;
  END;
  CREATE TRIGGER album_items_follow_taken AFTER UPDATE OF taken_sort ON nodes WHEN NEW.taken_sort IS NOT OLD.taken_sort BEGIN
    UPDATE album_items SET taken_sort = NEW.taken_sort WHERE node_id = NEW.id;
  END;
  -- On parent_id, not container: an index on a generated column never covers a count here, and every row read costs.
  CREATE INDEX nodes_gallery_folder ON nodes(parent_id, taken_sort, mime_type) WHERE is_media = 1 AND in_trash = 0;
  -- A partner sees a photo once its taken time is read (partners.repo's PARTNER_SHOWS): their months are counted here, on the index alone.
  CREATE INDEX nodes_gallery_dated ON nodes(owner_id, taken_sort, media_state, mime_type) WHERE is_media = 1 AND in_trash = 0;
  ALTER TABLE users ADD COLUMN phone_start TEXT NOT NULL DEFAULT 'photos' CHECK (phone_start IN ('photos', 'files'));
  `,
  /* 17: download tickets: a signed-in request names what to zip and gets a one-use ticket, whose URL the browser follows to save the zip straight to disk; the ticket is a short-lived secret stored hashed, never a session token in a URL */ `
  CREATE TABLE download_tickets (
    ticket_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    node_ids TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX download_tickets_expiry ON download_tickets(expires_at);
  `,
  /* 18: album items carry their photo owner's word on the album's public links (on_links): a link shows the album owner's own photos and the contributors' they let it show, never what someone was only given access to. Items already there: the album owner's own photos stay on its links, every other photo leaves them until its owner says yes. The album-upload folder keeps the contributor's answer for what arrives there */ `
  ALTER TABLE album_items ADD COLUMN on_links INTEGER NOT NULL DEFAULT 0 CHECK (on_links IN (0, 1));
  UPDATE album_items SET on_links = 1
    WHERE added_by = (SELECT a.owner_id FROM albums a WHERE a.id = album_items.album_id)
      AND added_by = (SELECT n.owner_id FROM nodes n WHERE n.id = album_items.node_id);
  ALTER TABLE album_upload_folders ADD COLUMN on_links INTEGER NOT NULL DEFAULT 0 CHECK (on_links IN (0, 1));
  `,
  /* 19: backups keep the latest few snapshots whatever their day (a second "Back up now" on one day no longer replaces the morning's good copy; 5 for every destination, old ones too), and a failed run keeps its error code beside its words (destination_unsafe, backup_unreachable…) */ `
  ALTER TABLE backup_destinations ADD COLUMN keep_last INTEGER NOT NULL DEFAULT 5;
  ALTER TABLE backup_runs ADD COLUMN error_code TEXT;
  `,
  /* 20: media that could not be processed for want of a tool (a video on a PC without ffmpeg, under releases that looked only for the system's), processed again, poster and all, at the first start that has the tool. Videos marked failed so far are all taken as such: a damaged one costs one more try */ `
  CREATE TABLE media_missing_tools (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    tool TEXT NOT NULL CHECK (tool IN ('ffmpeg'))
  ) STRICT, WITHOUT ROWID;
  INSERT INTO media_missing_tools (node_id, tool)
    SELECT id, 'ffmpeg' FROM nodes WHERE type = 'file' AND mime_type LIKE 'video/%' AND media_state = 'failed' AND has_thumbnail = 0;
  `,
  /* 21: playback copies count against the quota of the accounts whose videos they are. A copy that ran out of their room records how far it got: it is tried again only once they have more room than that */ `
  ALTER TABLE playback_copies ADD COLUMN needs_room INTEGER NOT NULL DEFAULT 0;
  `,
];
