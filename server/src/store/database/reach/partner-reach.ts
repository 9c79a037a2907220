/**
 * Whether partner share `ps` shows node `n`: a photo or video of its owner's, taken on or after
 * its first day, never from its Private folder, once the server has read when it was taken. Until then a photo's taken time is
 * its upload time, and a partner would see (then lose) a photo from before the day the owner chose.
 */
export const PARTNER_SHOWS = `n.owner_id = ps.owner_id AND n.is_media = 1 AND n.in_private = 0 AND n.media_state IS NOT 'pending'
  AND (ps.taken_from IS NULL OR n.taken_sort >= ps.taken_from)`;
