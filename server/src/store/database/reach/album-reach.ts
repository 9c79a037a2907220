/*
 * Who an album's photos reach, as SQL over an album item `ai`, its node `n` and (where named) its
 * album `a`. One rule, as for files: only a photo's owner decides who outside the family sees it,
 * and who in it. So an item reaches the album's people only when its owner put it there; one
 * put there by someone they shared it with (a grant, viewer or editor) reaches only those who
 * may see it anyway; and an album's links show only what their owners agreed to (the album
 * owner's own, and a contributor's when they said so as they added it).
 */

/** What a disabled account shared is suspended while it is disabled (as PermissionsRepo does for grants). */
export const DISABLED = 'SELECT id FROM users WHERE disabled = 1';

/** Account `who` holds a grant on node `n` or on a folder above it. */
function granted(who: string): string {
  return `EXISTS (WITH RECURSIVE up(id, parent_id) AS (
    SELECT n.id, n.parent_id UNION ALL SELECT p.id, p.parent_id FROM nodes p JOIN up ON p.id = up.parent_id)
    SELECT 1 FROM up JOIN permissions g ON g.node_id = up.id AND g.user_id = ${who})`;
}

/** The photo's owner put it in the album themselves: they chose the album's people. */
export const OWNER_PUT_IT = 'n.owner_id = ai.added_by';

/**
 * Whoever added item `ai` of node `n` may still read the node: it is theirs, or a grant on it or
 * a folder above it is (revoked, it leaves the album for everyone), and its owner is not
 * disabled. Access through an album never counts here, so an album cannot pass on what it alone
 * shows. Most items are their adder's own, which the first test settles.
 */
export const ADDER_READS = `n.owner_id NOT IN (${DISABLED}) AND (${OWNER_PUT_IT} OR ${granted('ai.added_by')})`;

/**
 * Item `ai` of node `n` is live in its album: out of the trash and out of Private (moving in takes
 * it out of its albums; this keeps it so), and its adder may still read it.
 */
export const ITEM_SHOWN = `n.in_trash = 0 AND n.in_private = 0 AND ${ADDER_READS}`;

/**
 * Item `ai` of node `n` reaches account @viewer in its album (who is in it): its owner put it
 * there, or @viewer may read the photo anyway (theirs, they added it under their grant, or a
 * grant of their own covers it). Never a photo the album alone would show them against its owner's choice.
 */
export const ITEM_REACHES_VIEWER = `${ITEM_SHOWN} AND (${OWNER_PUT_IT} OR ai.added_by = @viewer OR n.owner_id = @viewer
  OR ${granted('@viewer')})`;

/** Item `ai` of node `n` is shown by its album's links: its owner put it there and agreed to them. */
export const LINK_SHOWS = `${ITEM_SHOWN} AND ${OWNER_PUT_IT} AND ai.on_links = 1`;

/** Album `a` is open to account @user: theirs, or they are a member and its owner is not disabled. */
export const OPEN_TO_USER = `(a.owner_id = @user OR (a.owner_id NOT IN (${DISABLED})
  AND EXISTS (SELECT 1 FROM album_members m WHERE m.album_id = a.id AND m.user_id = @user)))`;

/**
 * Node `n` reaches account @user through an album they are in, when nothing else lets them read
 * it (a photo of their own or one under a grant of theirs is theirs to read already, and the
 * access check asks those first): its owner put it in that album. For the access check and for
 * lists of what the account can open that include such photos (its Starred).
 */
export const SHOWN_BY_ALBUM_TO_USER = `EXISTS (SELECT 1 FROM album_items ai JOIN albums a ON a.id = ai.album_id
  WHERE ai.node_id = n.id AND ${OPEN_TO_USER} AND ${ITEM_SHOWN} AND ${OWNER_PUT_IT})`;
