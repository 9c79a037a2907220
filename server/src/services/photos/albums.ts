import type { Album, AlbumItem, AlbumItemsAdded, AlbumRole } from '../../contract/albums-responses.ts';
import type { EventType } from '../../contract/events.ts';
import type { Page } from '../../contract/page.ts';
import { AppError } from '../../app-error.ts';
import type { AlbumRow, AlbumScope } from '../../store/database/albums.repo.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { AccessService } from '../files/access.ts';
import type { AlbumAccess } from './album-access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { pageLimit, type PageRequest } from '../common/paging.ts';
import { withoutSpoofingCharacters } from '../common/readable-names.ts';
import { newId } from '../common/secrets.ts';
import { toNodeDto } from '../files/node-dto.ts';

/** Long enough for "Grandma's 90th birthday, Lisbon, August 2024", short enough for a tile. */
const MAX_ALBUM_NAME = 100;
/** Items added or removed in one request, as a selection of the timeline sends them. */
export const MAX_ITEMS_PER_REQUEST = 1000;

/**
 * Changes where a photo lives that change what an album shows: a photo (or a folder holding
 * some) trashed, restored or moved out of a shared folder, and a photo's new content or new
 * capture time (its place in the album's time order, the album's dates and cover).
 */
const FOLLOWED: ReadonlySet<EventType> = new Set(['node.deleted', 'node.restored', 'node.moved', 'node.updated', 'node.thumbnail_ready']);

/**
 * Albums: photos and videos gathered by reference, in the time they were taken. An item is
 * the node itself, wherever it lives, so the same photo can be in several albums and is never
 * copied. What an album shows follows the rules of the files it refers to (AlbumsRepo's
 * ITEM_SHOWN): a photo in the trash is not shown (until restored), nor one its adder may no
 * longer read. Sharing it (members) is AlbumMemberService's; its uploads AlbumUploads'.
 */
export class AlbumService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly albums: AlbumAccess,
  ) {
    // The album pages of its members stay live when what it shows changes where it lives.
    deps.bus.subscribe(({ message }) => {
      if (!FOLLOWED.has(message.type)) return;
      const node = (message.payload as { node?: { id?: unknown; type?: unknown } }).node;
      if (typeof node?.id !== 'string') return;
      for (const albumId of deps.store.albums.albumsHolding(node.id, node.type === 'folder')) {
        const album = deps.store.albums.byId(albumId);
        if (album) this.albums.announce(album);
      }
    });
  }

  list(actor: Actor, input: PageRequest & { scope?: AlbumScope | undefined }): Page<Album> {
    const limit = pageLimit(input.limit);
    const after = decodeKeyset(input.cursor, isTimeAndId);
    const rows = this.deps.store.albums.page(
      // docs/api.md's promise: a client that does not choose sees every album it is in.
      input.scope ?? 'all',
      actor.userId,
      after && { updatedAt: after[0], id: after[1] },
      limit + 1,
    );
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const last = pageRows[pageRows.length - 1];
    return {
      items: this.toAlbums(
        pageRows.map((row) => ({ row, role: row.owner_id === actor.userId ? 'owner' : (row.member_role ?? 'viewer') })),
        actor.userId,
      ),
      next_cursor: more && last ? encodeKeyset([last.updated_at, last.id]) : null,
    };
  }

  get(actor: Actor, albumId: string): Album {
    const { album, role } = this.albums.open(actor, albumId);
    return this.toAlbum(album, role, actor.userId);
  }

  /** A new album of the caller's, empty or with the photos and videos of a selection (its links show the caller's own). */
  create(actor: Actor, input: { name: string; node_ids?: string[] | undefined }): Album {
    const name = cleanAlbumName(input.name);
    const nodes = this.addable(actor, 'owner', input.node_ids ?? []);
    const now = this.deps.now();
    const id = newId();
    this.deps.store.transaction(() => {
      this.deps.store.albums.insert({ id, owner_id: actor.userId, name, created_at: now });
      this.insertItems(id, actor, nodes, true, now);
    });
    const album = this.deps.store.albums.byId(id)!;
    // The owner's other devices list it at once.
    this.albums.announce(album);
    return this.toAlbum(album, 'owner', actor.userId);
  }

  /** Renames it, or chooses its cover among what it shows (null: its newest photo again). */
  update(actor: Actor, albumId: string, patch: { name?: string | undefined; cover_node_id?: string | null | undefined }): Album {
    const album = this.albums.own(actor, albumId);
    const fields: Partial<Pick<AlbumRow, 'name' | 'cover_node_id' | 'updated_at'>> = {};
    if (patch.name !== undefined) fields.name = cleanAlbumName(patch.name);
    if (patch.cover_node_id !== undefined) {
      // Among what the owner sees; a member who may not see the chosen one gets the newest they do.
      if (patch.cover_node_id !== null && !this.deps.store.albums.itemReaches(album.id, patch.cover_node_id, actor.userId)) {
        throw new AppError('invalid_input', 'The cover is one of the photos in the album.', { field: 'cover_node_id' });
      }
      fields.cover_node_id = patch.cover_node_id;
    }
    if (Object.keys(fields).length === 0) return this.toAlbum(album, 'owner', actor.userId);
    this.deps.store.albums.update(album.id, { ...fields, updated_at: this.deps.now() });
    this.albums.announce(album);
    return this.toAlbum(this.deps.store.albums.byId(album.id)!, 'owner', actor.userId);
  }

  /** Deletes the album; its photos and videos stay where they are. */
  remove(actor: Actor, albumId: string): void {
    const album = this.albums.own(actor, albumId);
    const audience = this.albums.audience(album);
    this.deps.store.albums.remove(album.id);
    this.deps.bus.publish('album.deleted', { album_id: album.id }, audience);
  }

  /** What the album shows the caller, oldest taken first (an album tells its story in order). */
  items(actor: Actor, albumId: string, input: PageRequest): Page<AlbumItem> {
    const { album } = this.albums.open(actor, albumId);
    return this.shownItems(album.id, actor.userId, input);
  }

  /**
   * A page of what an album shows `viewerId` (null: a link's visitor, who sees what its links
   * show); the caller has been cleared to read the album.
   */
  shownItems(albumId: string, viewerId: string | null, input: PageRequest): Page<AlbumItem> {
    const limit = pageLimit(input.limit);
    const after = decodeKeyset(input.cursor, isTimeAndId);
    const rows = this.deps.store.albums.items(albumId, viewerId, after && { taken: after[0], id: after[1] }, limit + 1);
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const last = pageRows[pageRows.length - 1];
    return {
      items: pageRows.map((row) => ({
        ...toNodeDto(row),
        added_by: row.added_by,
        shared_with_album: row.shared_with_album === 1,
        on_links: row.on_links === 1,
      })),
      next_cursor: more && last ? encodeKeyset([last.taken_sort, last.id]) : null,
    };
  }

  /**
   * Adds photos and videos: all of them or, when one cannot go in, none. A contributor adds
   * their own; the owner adds their own and what was shared with them, which reaches only those
   * its owner shared it with (album-reach.ts). `onLinks`: the album's links may show the caller's
   * own photos among them; by default yes for the album's owner, no for anyone else (only their yes puts
   * a contributor's photo in front of the Internet). Adding again gives a new answer.
   */
  addItems(actor: Actor, albumId: string, nodeIds: readonly string[], onLinks?: boolean): AlbumItemsAdded {
    const { album, role } = this.albums.contribute(actor, albumId);
    const nodes = this.addable(actor, role, nodeIds);
    const { store } = this.deps;
    const now = this.deps.now();
    const { added, changed } = store.transaction(() => {
      const result = this.insertItems(album.id, actor, nodes, onLinks ?? role === 'owner', now);
      if (result.added.length + result.changed > 0) store.albums.touch(album.id, now);
      return result;
    });
    if (added.length + changed > 0) this.albums.announce(album);
    return {
      added: added.length,
      already_there: nodes.length - added.length,
      not_shared_with_album: nodes.filter((n) => n.owner_id !== actor.userId).length,
      album: this.toAlbum(album, role, actor.userId),
    };
  }

  /** The caller's own photos go in with their answer about the links; another's never reach them. */
  private insertItems(albumId: string, actor: Actor, nodes: readonly NodeRow[], onLinks: boolean, now: number) {
    const { albums } = this.deps.store;
    const ids = (own: boolean) => nodes.filter((n) => (n.owner_id === actor.userId) === own).map((n) => n.id);
    const theirs = albums.addItems(albumId, ids(true), actor.userId, now, onLinks);
    const others = albums.addItems(albumId, ids(false), actor.userId, now, false);
    return { added: [...theirs.added, ...others.added], changed: theirs.changed + others.changed };
  }

  /**
   * Takes photos out of the album (they stay where they live): the owner any, anyone else those
   * they added and their own photos whoever added them. Whoever could see one only through this
   * album loses it at once, and hears so (`node.deleted` with `access_lost`).
   */
  removeItems(actor: Actor, albumId: string, nodeIds: readonly string[]): Album {
    // A viewer may have been a contributor: what they added is still theirs to take out.
    const { album, role } = this.albums.open(actor, albumId);
    const { store } = this.deps;
    const present = [...new Set(nodeIds)].flatMap((id) => store.albums.item(album.id, id) ?? []);
    for (const item of present) {
      const mine = item.added_by === actor.userId || store.nodes.byId(item.node_id, actor.userId)?.owner_id === actor.userId;
      if (role !== 'owner' && !mine) throw new AppError('not_your_album_item', undefined, { field: 'node_ids' });
    }
    this.takeOut(album, present);
    return this.toAlbum(store.albums.byId(album.id)!, role, actor.userId);
  }

  /** Takes these items out of the album, and tells whoever lost a photo with them. */
  takeOut(album: AlbumRow, present: readonly { node_id: string }[]): void {
    const { store } = this.deps;
    // As each account knew them, before they go.
    const audience = store.albums.audience(album);
    const before = present.map((item) => ({ id: item.node_id, seenBy: audience.filter((u) => this.reads(u, item.node_id)) }));
    store.transaction(() => {
      for (const item of present) store.albums.removeItem(album.id, item.node_id);
      if (present.length > 0) store.albums.touch(album.id, this.deps.now());
    });
    if (present.length > 0) {
      this.albums.announce(album);
      for (const { id, seenBy } of before) this.tellLost(id, seenBy);
    }
  }

  /** Each of `seenBy` that no longer reads the node hears it is gone for them. */
  tellLost(nodeId: string, seenBy: readonly string[]): void {
    for (const userId of seenBy) {
      if (this.reads(userId, nodeId)) continue;
      const row = this.deps.store.nodes.byId(nodeId, userId);
      if (!row) continue;
      this.deps.bus.publish('node.deleted', { node: toNodeDto(row), permanent: false, access_lost: true }, { users: [userId] });
    }
  }

  reads(userId: string, nodeId: string): boolean {
    try {
      this.access.node({ userId }, nodeId, 'read');
      return true;
    } catch {
      return false;
    }
  }

  /** An album as account `viewerId`, its `role`, sees it. */
  toAlbum(album: AlbumRow, role: AlbumRole, viewerId: string): Album {
    return this.toAlbums([{ row: album, role }], viewerId)[0]!;
  }

  /**
   * Albums with what they hold: counts, dates, covers and members for a whole page at once, a
   * few queries whatever the number of albums.
   */
  private toAlbums(albums: readonly { row: AlbumRow; role: AlbumRole }[], viewerId: string): Album[] {
    const { store } = this.deps;
    const ids = albums.map((a) => a.row.id);
    const summaries = store.albums.summaries(ids, viewerId);
    const chosen = store.albums.chosenCovers(ids);
    const newest = store.albums.newestCovers(ids, viewerId);
    const members = store.albums.memberCounts(ids);
    const links = store.shares.liveOfAlbums(ids, this.deps.now());
    const names = new Map<string, string>();
    const nameOf = (userId: string) => {
      let name = names.get(userId);
      if (name === undefined) {
        const user = store.users.byId(userId);
        name = user ? (user.display_name ?? user.username) : 'Unknown';
        names.set(userId, name);
      }
      return name;
    };
    return albums.map(({ row, role }) => {
      const summary = summaries.get(row.id);
      const cover = summary?.cover_shown ? chosen.get(row.id) : newest.get(row.id);
      const videos = summary?.videos ?? 0;
      return {
        id: row.id,
        name: row.name,
        owner_id: row.owner_id,
        owner_name: nameOf(row.owner_id),
        role,
        cover: cover
          ? {
              id: cover.id,
              version: cover.version,
              has_thumbnail: cover.has_thumbnail === 1,
              ...(cover.rotation ? { rotation: cover.rotation } : {}),
            }
          : null,
        photos: (summary?.items ?? 0) - videos,
        videos,
        first_taken_at: summary?.first_taken ?? null,
        last_taken_at: summary?.last_taken ?? null,
        members: members.get(row.id) ?? 0,
        live_links: links.get(row.id) ?? 0,
        created_at: row.created_at,
        updated_at: row.updated_at,
      };
    });
  }

  /**
   * The nodes a selection names, each checked before anything is added: a photo or video, out
   * of the trash, and the caller's own (or, for the owner of the album, shared with them; what
   * the caller sees only through an album never counts, so an album cannot pass it on).
   */
  addable(actor: Actor, role: AlbumRole, nodeIds: readonly string[]): NodeRow[] {
    if (nodeIds.length > MAX_ITEMS_PER_REQUEST) {
      throw new AppError('invalid_input', `Add at most ${MAX_ITEMS_PER_REQUEST} at a time.`, { field: 'node_ids' });
    }
    return [...new Set(nodeIds)].map((id) => {
      const node = this.access.node(actor, id, 'read', { albums: false, sharing: true });
      if (node.type !== 'file' || node.is_media !== 1) throw new AppError('not_media', undefined, { field: 'node_ids' });
      if (node.in_trash) throw new AppError('in_trash', undefined, { field: 'node_ids' });
      if (role !== 'owner' && node.owner_id !== actor.userId) {
        throw new AppError('forbidden', 'Contributors add their own photos and videos.', { field: 'node_ids' });
      }
      return node;
    });
  }
}

/** 1 to 100 characters a person can read; slashes are fine (an album is no folder). */
export function cleanAlbumName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  const length = [...name].length;
  if (length === 0 || length > MAX_ALBUM_NAME || withoutSpoofingCharacters(name) !== name) {
    throw new AppError('invalid_album_name', undefined, { field: 'name' });
  }
  return name;
}

/** A keyset cursor's values: a time (or any integer sort value) and an id. */
function isTimeAndId(value: unknown): value is [number, string] {
  return Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string';
}

function encodeKeyset(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

/** A cursor is the last row's sort values; anything else is 400 `invalid_cursor`. */
function decodeKeyset<T>(cursor: string | undefined, valid: (value: unknown) => value is T): T | null {
  if (cursor === undefined || cursor === '') return null;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (valid(value)) return value;
  } catch {
    // fall through
  }
  throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
}
