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
    -- What the edit shows, written again over a re-read of the file (a new version, an upgrade's catching up).
    edit_taken_at INTEGER,
    edit_taken_offset INTEGER,
    edit_taken_sort INTEGER,
    edit_latitude REAL,
    edit_longitude REAL,
    edit_place_town TEXT,
    edit_place_country TEXT,
    edit_media_search TEXT,
    edited_by TEXT NOT NULL,
    edited_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  -- The media worker writes a file's facts (media.repo's SET_FACTS, camera_make among them; an
  -- edit's own write never names camera_make): what the file says now is kept for a revert, and
  -- the family's date and place are shown again, so a re-read never undoes their correction.
  CREATE TRIGGER photo_edits_outlast_rereads AFTER UPDATE OF camera_make ON nodes
  WHEN EXISTS (SELECT 1 FROM photo_edits e WHERE e.node_id = NEW.id AND (e.taken_edited = 1 OR e.place_edited = 1))
  BEGIN
    UPDATE photo_edits SET file_taken_at = NEW.taken_at, file_taken_offset = NEW.taken_offset, file_taken_sort = NEW.taken_sort,
      file_latitude = NEW.latitude, file_longitude = NEW.longitude, file_place_town = NEW.place_town,
      file_place_country = NEW.place_country
    WHERE node_id = NEW.id;
    UPDATE nodes SET
      taken_at = (SELECT CASE WHEN e.taken_edited = 1 THEN e.edit_taken_at ELSE NEW.taken_at END FROM photo_edits e WHERE e.node_id = NEW.id),
      taken_offset = (SELECT CASE WHEN e.taken_edited = 1 THEN e.edit_taken_offset ELSE NEW.taken_offset END FROM photo_edits e WHERE e.node_id = NEW.id),
      taken_sort = (SELECT CASE WHEN e.taken_edited = 1 THEN e.edit_taken_sort ELSE NEW.taken_sort END FROM photo_edits e WHERE e.node_id = NEW.id),
      latitude = (SELECT CASE WHEN e.place_edited = 1 THEN e.edit_latitude ELSE NEW.latitude END FROM photo_edits e WHERE e.node_id = NEW.id),
      longitude = (SELECT CASE WHEN e.place_edited = 1 THEN e.edit_longitude ELSE NEW.longitude END FROM photo_edits e WHERE e.node_id = NEW.id),
      place_town = (SELECT CASE WHEN e.place_edited = 1 THEN e.edit_place_town ELSE NEW.place_town END FROM photo_edits e WHERE e.node_id = NEW.id),
      place_country = (SELECT CASE WHEN e.place_edited = 1 THEN e.edit_place_country ELSE NEW.place_country END FROM photo_edits e WHERE e.node_id = NEW.id),
      media_search = (SELECT CASE WHEN e.place_edited = 1 THEN e.edit_media_search ELSE NEW.media_search END FROM photo_edits e WHERE e.node_id = NEW.id)
    WHERE id = NEW.id;
  END;
  `,
};
