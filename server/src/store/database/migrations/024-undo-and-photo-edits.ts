/**
 * 24: two things a family asked to take back.
 *
 * Taking someone out of an album can be undone for a while: what the removal took (the member's
 * role and each photo they had added, with when and whether links could show it) is kept in
 * album_removals and album_removed_items until the undo window has passed (a maintenance step
 * clears what is older). The album itself forgets them at once, so no rule about who sees what
 * needs to know about removals.
 *
 * A photo's edits (a quarter turn, a corrected date or place) are kept beside the original, which
 * is never rewritten: photo_edits holds what was changed and what the file itself said (put back
 * on revert), and the node's own columns carry the value shown, so the timeline's months, its
 * search and every listing follow without a join. rotation is the clockwise turn applied to
 * thumbnails and previews.
 */
export const migration = {
  version: 24,
  sql: `
  CREATE TABLE album_removals (
    album_id TEXT NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('viewer', 'contributor')),
    added_by TEXT NOT NULL,
    member_since INTEGER NOT NULL,
    removed_at INTEGER NOT NULL,
    PRIMARY KEY (album_id, user_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX album_removals_age ON album_removals(removed_at);
  CREATE TABLE album_removed_items (
    album_id TEXT NOT NULL,
    user_id TEXT NOT NULL,
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    added_at INTEGER NOT NULL,
    on_links INTEGER NOT NULL,
    PRIMARY KEY (album_id, user_id, node_id),
    FOREIGN KEY (album_id, user_id) REFERENCES album_removals(album_id, user_id) ON DELETE CASCADE
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX album_removed_items_node ON album_removed_items(node_id);
  ALTER TABLE nodes ADD COLUMN rotation INTEGER NOT NULL DEFAULT 0 CHECK (rotation IN (0, 90, 180, 270));
  CREATE TABLE photo_edits (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    rotation INTEGER NOT NULL DEFAULT 0 CHECK (rotation IN (0, 90, 180, 270)),
    -- 1 when the date (or the place) is the family's and not the file's.
    taken_edited INTEGER NOT NULL DEFAULT 0 CHECK (taken_edited IN (0, 1)),
    place_edited INTEGER NOT NULL DEFAULT 0 CHECK (place_edited IN (0, 1)),
    -- What the file said, put back on revert.
    file_taken_at INTEGER,
    file_taken_offset INTEGER,
    file_taken_sort INTEGER,
    file_latitude REAL,
    file_longitude REAL,
    file_place_town TEXT,
    file_place_country TEXT,
    edited_by TEXT NOT NULL,
    edited_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
};
