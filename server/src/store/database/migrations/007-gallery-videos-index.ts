/**
 * 7: the gallery's videos, so a month's video count is one short range (the scrubber's counts)
 */
export const migration = {
  version: 7,
  sql: `
  CREATE INDEX nodes_gallery_videos ON nodes(owner_id, taken_sort) WHERE is_media = 1 AND in_trash = 0 AND mime_type LIKE 'video/%';
  `,
};
