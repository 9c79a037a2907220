/**
 * 16: one family timeline. Partner sharing: an account shows all its photos and videos, or those
 * taken from a day on, in another account's Photos. Each album item keeps its photo's taken time
 * beside it, kept so by the database itself (triggers), so the timeline counts an album's months by
 * one index range; an index of each folder's photos and videos by taken time does the same for
 * shared folders. And where a phone opens after signing in (Photos unless the person chose My
 * files)
 */
export const migration = {
  version: 16,
  sql: `
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
};
