import type { AlbumAppearance, LinkAppearance, NodeAppearances } from '../../contract/albums-responses.ts';
import { AppError } from '../../app-error.ts';
import type { AccessService } from '../files/access.ts';
import type { AlbumAccess } from './album-access.ts';
import type { AlbumService } from './albums.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/**
 * Where a photo is shown, for its owner, who alone decides who sees it: every album holding it
 * (whoever put it there, in albums they may not be in) and every public link opening it. Its
 * owner takes it out of any of those albums, and says whether each album's links may show it.
 */
export class PhotoAppearances {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly albumAccess: AlbumAccess,
    private readonly albums: AlbumService,
  ) {}

  /** The albums and links showing the node; only its owner may ask (403 for whoever else may read it). */
  list(actor: Actor, nodeId: string): NodeAppearances {
    const node = this.access.node(actor, nodeId, 'manage');
    const { store } = this.deps;
    const rows = store.albums.appearances(node.id);
    const ids = rows.map((row) => row.album_id);
    const members = store.albums.memberCounts(ids);
    const links = store.shares.liveOfAlbums(ids, this.deps.now());
    const nameOf = this.names();
    const albums: AlbumAppearance[] = rows.map((row) => ({
      album_id: row.album_id,
      album_name: row.album_name,
      album_owner_id: row.album_owner_id,
      album_owner_name: nameOf(row.album_owner_id),
      added_by: row.added_by,
      added_by_name: nameOf(row.added_by),
      added_at: row.added_at,
      shared_with_album: row.added_by === node.owner_id,
      members: members.get(row.album_id) ?? 0,
      on_links: row.added_by === node.owner_id && row.on_links === 1,
      live_links: links.get(row.album_id) ?? 0,
    }));
    const opening: LinkAppearance[] = store.shares.liveAbove(node.id, this.deps.now()).map((share) => ({
      link_id: share.id,
      node_id: share.node_id!,
      node_name: store.nodes.byId(share.node_id!, actor.userId)?.name ?? '',
      created_by: share.created_by,
      created_by_name: nameOf(share.created_by),
      expires_at: share.expires_at,
      password_protected: share.password_hash !== null,
      allow_download: share.allow_download === 1,
    }));
    return { albums, links: opening };
  }

  /** Its owner takes the photo out of an album, whoever put it there; it stays where it lives. */
  takeOut(actor: Actor, nodeId: string, albumId: string): void {
    const item = this.itemOf(actor, nodeId, albumId);
    const album = this.deps.store.albums.byId(item.album_id)!;
    this.albums.takeOut(album, [item]);
  }

  /**
   * Its owner says whether the album's links may show it. Only where they put it themselves: one
   * put there by someone they shared it with reaches no link, and saying yes to that would mean
   * choosing the album's people too (409 `album_item_not_yours`: take it out, or add it yourself).
   */
  setOnLinks(actor: Actor, nodeId: string, albumId: string, onLinks: boolean): AlbumAppearance {
    const item = this.itemOf(actor, nodeId, albumId);
    if (item.added_by !== actor.userId) {
      if (onLinks) throw new AppError('album_item_not_yours', undefined, { field: 'on_links' });
    } else if ((item.on_links === 1) !== onLinks) {
      this.deps.store.albums.setOnLinks(item.album_id, item.node_id, onLinks);
      // What the album's links show changed: its people's pages fetch again (items say on_links).
      this.albumAccess.announce(this.deps.store.albums.byId(item.album_id)!);
    }
    return this.list(actor, nodeId).albums.find((a) => a.album_id === item.album_id)!;
  }

  /** The node's item in that album, for the node's owner; an album not holding it is 404. */
  private itemOf(actor: Actor, nodeId: string, albumId: string) {
    const node = this.access.node(actor, nodeId, 'manage');
    const item = this.deps.store.albums.item(albumId, node.id);
    if (!item) throw new AppError('not_found');
    return item;
  }

  private names(): (userId: string) => string {
    const known = new Map<string, string>();
    return (userId) => {
      let name = known.get(userId);
      if (name === undefined) {
        const user = this.deps.store.users.byId(userId);
        name = user ? (user.display_name ?? user.username) : 'Unknown';
        known.set(userId, name);
      }
      return name;
    };
  }
}
