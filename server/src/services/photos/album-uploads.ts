import type { Node } from '../../contract/files-responses.ts';
import { shortenName } from '../../contract/names.ts';
import { AppError } from '../../app-error.ts';
import type { AlbumRow } from '../../store/database/albums.repo.ts';
import type { AlbumAccess, OpenAlbum } from './album-access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { isMediaType } from '../files/media-types.ts';
import { nameKey } from '../files/node-names.ts';
import { containerOf, type NodeService } from '../files/nodes.ts';
import type { UploadTargets } from '../files/upload-state.ts';

/** The top-level folder of each account's album uploads. */
const ALBUMS_FOLDER = 'Albums';

/**
 * Photos sent straight into an album (its Upload) by its owner or a contributor. Each file is
 * the uploader's own, stored in their My files like any upload and charged to them: in the
 * folder `Albums/<album name>`, made the first time and then remembered by id (renamed or moved,
 * it keeps receiving them; deleted, it is made again). The upload names the album in its
 * metadata (`album_id`); the file joins the album in the very transaction that makes it, with
 * the uploader's last answer about the album's links, given as they asked for the folder (the
 * upload metadata is the web app's queue's, kept across restarts; the answer is the server's).
 */
export class AlbumUploads implements UploadTargets {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly albums: AlbumAccess,
    private readonly nodes: NodeService,
  ) {}

  /**
   * The caller's folder for this album's uploads, made if missing. `onLinks`: whether the album's
   * links may show what they send there from now on (the album's owner: yes unless they say no;
   * anyone else: no unless they say yes).
   */
  folder(actor: Actor, albumId: string, onLinks?: boolean): Node {
    const { album, role } = this.albums.contribute(actor, albumId);
    const { store } = this.deps;
    const answer = onLinks ?? role === 'owner';
    const known = store.albums.uploadFolder(album.id, actor.userId);
    const remembered = known === undefined ? undefined : store.nodes.byId(known.folder_id, actor.userId);
    if (remembered && remembered.owner_id === actor.userId && !remembered.in_trash) {
      store.albums.setUploadFolder(album.id, actor.userId, remembered.id, answer);
      return this.nodes.get(actor, remembered.id);
    }
    const top = this.folderNamed(actor, null, ALBUMS_FOLDER);
    const folder = this.folderNamed(actor, top.id, folderNameOf(album));
    store.albums.setUploadFolder(album.id, actor.userId, folder.id, answer);
    return folder;
  }

  /** An upload naming an album: only its owner and contributors may send one. */
  check(actor: Actor, metadata: Record<string, string | null>): void {
    if (metadata.album_id) this.albums.contribute(actor, metadata.album_id);
  }

  /**
   * In the completing transaction: the new photo or video joins the album, if the uploader may
   * still add to it (removed meanwhile, the file simply stays in their folder). Anything else
   * sent with it (a PDF) stays in the folder only.
   */
  completed(uploaderId: string, metadata: Record<string, string | null>, node: Node): void {
    const albumId = metadata.album_id;
    if (!albumId || node.type !== 'file' || !isMediaType(node.mime_type) || node.owner_id !== uploaderId) return;
    let opened: OpenAlbum;
    try {
      opened = this.albums.contribute({ userId: uploaderId }, albumId);
    } catch {
      return;
    }
    const { album, role } = opened;
    const now = this.deps.now();
    // No folder asked for (a client of its own): the album's owner says yes, anyone else no.
    const answer = this.deps.store.albums.uploadFolder(album.id, uploaderId);
    const onLinks = answer ? answer.on_links === 1 : role === 'owner';
    if (this.deps.store.albums.addItems(album.id, [node.id], uploaderId, now, onLinks).added.length === 0) return;
    this.deps.store.albums.touch(album.id, now);
    this.albums.announce(album);
  }

  /** The folder of that name at that place, made if there is none (a file holding the name gets a numbered folder beside it). */
  private folderNamed(actor: Actor, parentId: string | null, name: string): Node {
    const { store } = this.deps;
    const container = containerOf(actor.userId, parentId);
    const existing = store.nodes.activeSiblingId(container, nameKey(name));
    const found = existing === undefined ? undefined : store.nodes.byId(existing, actor.userId);
    if (found?.type === 'folder') return this.nodes.get(actor, found.id);
    const free = found ? this.nodes.freeName(container, name, false) : name;
    try {
      return this.nodes.createFolder(actor, { name: free, parent_id: parentId });
    } catch (error) {
      // Made meanwhile by another request of the same account (two phones sending to the album at once).
      if (error instanceof AppError && error.code === 'name_conflict') return this.folderNamed(actor, parentId, name);
      throw error;
    }
  }
}

/** A folder name for the album: slashes are fine in album names, not in folder names. */
function folderNameOf(album: AlbumRow): string {
  const name = shortenName(album.name.replace(/\//g, '-'));
  return name === '.' || name === '..' ? 'Album' : name;
}
