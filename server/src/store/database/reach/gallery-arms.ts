import { ITEM_SHOWN, OWNER_PUT_IT } from './album-reach.ts';

/**
 * What others share with an account, as the family timeline reaches it, found once per request
 * (reachOf): the partner shares it receives, every folder under a grant it holds (the granted
 * folders and all the folders below them), the files granted to it on their own, and the
 * albums it owns or is in. A family has a handful of each; a shared tree, some hundreds of folders.
 */
export interface FamilyReach {
  partners: { ownerId: string; takenFrom: number | null }[];
  folders: { id: string; ownerId: string }[];
  files: string[];
  albums: string[];
}

/** Whose photos and videos a timeline shows: the account's own, or (`family`) with what others share with it. */
export interface GalleryScope {
  userId: string;
  family: FamilyReach | null;
}

/**
 * One way photos reach a timeline, as SQL over `n` (a nodes row). Arms never overlap: each
 * leaves out what an earlier one shows (a partner's photo in a shared folder counts once, as the
 * partner's), so the months add their arms' counts and a page merges their pages.
 */
export interface GalleryArm {
  /** The taken time the arm's index ranges over: n.taken_sort, or an album item's copy of it. */
  taken: string;
  /** The same photo may come twice (it is in two albums): count and list it once. */
  distinct: boolean;
  /** FROM and WHERE of what this arm adds to the timeline, with `also` (a condition over `n`, or on `taken`). */
  rows(also: string): string;
  /**
   * A scalar: the newest taken time of what the arm reaches, with `also`; earlier arms' photos
   * included, since a newest needs no counting once, and leaving them out would make the probe
   * walk past them (an album of the account's own photos) at every step.
   */
  newest(also: string): string;
}

/**
 * The one place that says whose photos and videos a gallery holds, for the timeline's months,
 * its listing (nodes.repo's 'gallery' scope) and search alike: never in the trash; the account's
 * own; and with `family`, a partner's from their chosen day, those under folders (and files)
 * shared with it, and those its albums show it (album-reach.ts: what their owners put there). Each
 * arm is one index range per taken-time range: own on nodes_gallery, partners on
 * nodes_gallery_dated, folders on nodes_gallery_folder (one range per folder), albums on
 * album_items_taken (one per album).
 */
export function galleryArms(scope: GalleryScope, params: Record<string, unknown>): GalleryArm[] {
  params.owner = scope.userId;
  const arms = [nodesArm(`n.owner_id = @owner AND ${MEDIA}`)];
  if (!scope.family) return arms;
  const { partners, folders, files, albums } = scope.family;

  const partnerShows = partners.map((partner, i) => {
    params[`partner_${i}`] = partner.ownerId;
    if (partner.takenFrom !== null) params[`partner_${i}_from`] = partner.takenFrom;
    // PARTNER_SHOWS (partner-reach.ts), with the share's values in place (nodes_gallery_dated's condition).
    return `n.owner_id = @partner_${i} AND n.is_media = 1 AND n.in_trash = 0 AND n.in_private = 0 AND n.media_state IS NOT 'pending'${
      partner.takenFrom === null ? '' : ` AND n.taken_sort >= @partner_${i}_from`
    }`;
  });
  for (const shows of partnerShows) arms.push(nodesArm(shows));
  const notPartners = partnerShows.length > 0 ? `NOT (${partnerShows.map((shows) => `(${shows})`).join(' OR ')})` : '1';

  // Shared folders, by whose they are: a partner's leave out what the partner arm shows (a
  // row read each); anyone else's are counted on the index alone.
  const partnerIndex = new Map(partners.map((partner, i) => [partner.ownerId, i]));
  const plainFolders = folders.filter((folder) => !partnerIndex.has(folder.ownerId)).map((folder) => folder.id);
  if (plainFolders.length > 0) {
    params.family_folders = JSON.stringify(plainFolders);
    arms.push(listArm('n.parent_id', '@family_folders', MEDIA, '1'));
  }
  partners.forEach((partner, i) => {
    const theirs = folders.filter((folder) => folder.ownerId === partner.ownerId).map((folder) => folder.id);
    if (theirs.length === 0) return;
    params[`partner_${i}_folders`] = JSON.stringify(theirs);
    arms.push(listArm('n.parent_id', `@partner_${i}_folders`, MEDIA, `NOT (${partnerShows[i]})`));
  });
  // Written to be false, never NULL, for a photo at its owner's top level: `NOT (NULL IN (…))` is
  // NULL, which dropped every top-level photo a file grant or an album brought once any folder was shared.
  const inFolders =
    folders.length > 0 ? '(n.parent_id IS NOT NULL AND n.parent_id IN (SELECT value FROM json_each(@family_all_folders)))' : '0';
  if (folders.length > 0) params.family_all_folders = JSON.stringify(folders.map((folder) => folder.id));

  const inFiles = files.length > 0 ? 'n.id IN (SELECT value FROM json_each(@family_files))' : '0';
  if (files.length > 0) {
    params.family_files = JSON.stringify(files);
    arms.push(listArm('n.id', '@family_files', MEDIA, `${notPartners} AND NOT ${inFolders}`));
  }
  if (albums.length > 0) {
    params.family_albums = JSON.stringify(albums);
    arms.push(albumArm(`n.owner_id != @owner AND ${notPartners} AND NOT ${inFolders} AND NOT ${inFiles}`));
  }
  return arms;
}

/** A photo or video out of the trash (the partial indexes' condition, written as they are), and out of Private. */
const MEDIA = 'n.is_media = 1 AND n.in_trash = 0 AND n.in_private = 0';

function nodesArm(shows: string): GalleryArm {
  return {
    taken: 'n.taken_sort',
    distinct: false,
    rows: (also) => `FROM nodes n WHERE ${shows} AND ${also}`,
    newest: (also) => `(SELECT max(n.taken_sort) FROM nodes n WHERE ${shows} AND ${also})`,
  };
}

/** Rows of nodes matched against a list (folders by container, files by id): one index range per value. */
function listArm(column: string, list: string, shows: string, notEarlier: string): GalleryArm {
  return {
    taken: 'n.taken_sort',
    distinct: false,
    rows: (also) => `FROM nodes n WHERE ${column} IN (SELECT value FROM json_each(${list})) AND ${shows} AND ${notEarlier} AND ${also}`,
    // Value by value: a max over an IN list would read every row of every folder below the bound.
    newest: (also) =>
      `(SELECT max((SELECT max(n.taken_sort) FROM nodes n WHERE ${column} = e.value AND ${shows} AND ${also})) FROM json_each(${list}) e)`,
  };
}

/**
 * From the album items to their nodes, in that order (CROSS JOIN fixes it in SQLite): from the
 * nodes side, a month's videos would be read for every account through nodes_gallery_videos.
 */
const ALBUM_ITEMS = 'album_items ai CROSS JOIN nodes n ON n.id = ai.node_id';

function albumArm(notEarlier: string): GalleryArm {
  // What its owner put in the album. One someone else put there reaches the account only when a
  // grant of its own lets it read the photo anyway: the folder and file arms show those.
  const shows = `${ITEM_SHOWN} AND ${OWNER_PUT_IT} AND n.is_media = 1`;
  return {
    taken: 'ai.taken_sort',
    distinct: true,
    rows: (also) =>
      `FROM ${ALBUM_ITEMS} WHERE ai.album_id IN (SELECT value FROM json_each(@family_albums)) AND ${shows} AND ${notEarlier} AND ${also}`,
    newest: (also) =>
      `(SELECT max((SELECT ai.taken_sort FROM ${ALBUM_ITEMS} WHERE ai.album_id = e.value AND ${shows} AND ${also}
        ORDER BY ai.taken_sort DESC LIMIT 1)) FROM json_each(@family_albums) e)`,
  };
}
