/**
 * 18: album items carry their photo owner's word on the album's public links (on_links): a link
 * shows the album owner's own photos and the contributors' they let it show, never what someone was
 * only given access to. Items already there: the album owner's own photos stay on its links, every
 * other photo leaves them until its owner says yes. The album-upload folder keeps the contributor's
 * answer for what arrives there.
 */
export const migration = {
  version: 18,
  sql: `
  ALTER TABLE album_items ADD COLUMN on_links INTEGER NOT NULL DEFAULT 0 CHECK (on_links IN (0, 1));
  UPDATE album_items SET on_links = 1
    WHERE added_by = (SELECT a.owner_id FROM albums a WHERE a.id = album_items.album_id)
      AND added_by = (SELECT n.owner_id FROM nodes n WHERE n.id = album_items.node_id);
  ALTER TABLE album_upload_folders ADD COLUMN on_links INTEGER NOT NULL DEFAULT 0 CHECK (on_links IN (0, 1));
  `,
};
