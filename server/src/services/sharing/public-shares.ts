import crypto from 'node:crypto';
import type { Node } from '../../contract/files-responses.ts';
import type { Page } from '../../contract/page.ts';
import type { PublicNode, PublicShare, UnlockResponse } from '../../contract/sharing-responses.ts';
import { AppError } from '../../app-error.ts';
import type { AlbumRow } from '../../store/database/albums.repo.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { ShareRow } from '../../store/database/sharing.repo.ts';
import type { ClientInfo, ServiceDeps } from '../common/context.ts';
import type { AlbumService } from '../photos/albums.ts';
import type { FileContent, FileService } from '../files/files.ts';
import type { ListInput, ListingService } from '../files/listing.ts';
import type { LinkZip } from '../files/zip-downloads.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { hashSecret, safeEqual } from '../common/secrets.ts';

/** How many of a shared folder's items say whether it is a folder of photos. */
const MOSTLY_MEDIA_SAMPLE = 200;

/** How long an unlocked password-protected link stays open for the browser that unlocked it. */
const GRANT_TTL_MS = 12 * 60 * 60_000;

/** What a visitor presents: the link's token and, for a protected link, the unlock grant. */
export interface LinkCredentials {
  token: string;
  grant?: string | undefined;
}

/** What a link opens right now: a node, or an album. */
type Opened = { share: ShareRow; node: NodeRow; album: null } | { share: ShareRow; node: null; album: AlbumRow };

/**
 * The public side of links, for visitors without an account. A share token opens one node
 * (and what is under it, for a folder), or one album (the photos their owners let its links
 * show, as a folder of them), and nothing else. Every request, byte-serving ones included, checks the link's state again:
 * revoking a link stops the next range request of a download already under way.
 */
export class PublicShareService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly files: FileService,
    private readonly listing: ListingService,
    private readonly grantKey: Buffer,
    private readonly albums: AlbumService,
  ) {}

  info(credentials: LinkCredentials): PublicShare {
    const opened = this.open(credentials);
    const owner = this.deps.store.users.byId(opened.album ? opened.album.owner_id : opened.node.owner_id);
    return {
      node: opened.album ? albumAsFolder(opened.album) : { ...publicNode(opened.node), parent_id: null },
      kind: opened.album ? 'album' : 'node',
      owner_name: owner ? (owner.display_name ?? owner.username) : '',
      allow_download: opened.share.allow_download === 1,
      expires_at: opened.share.expires_at,
      view: opened.album || this.mostlyMedia(opened.node) ? 'photos' : 'files',
    };
  }

  /**
   * Whether a shared folder is a folder of photos (shown by day, as an album is): no folders
   * inside, and at least four in five of its files photos or videos. Judged on its first
   * {@link MOSTLY_MEDIA_SAMPLE} items, which is where a visitor starts.
   */
  private mostlyMedia(node: NodeRow): boolean {
    if (node.type !== 'folder') return false;
    const { items } = this.listing.children(node.id, '', { limit: MOSTLY_MEDIA_SAMPLE, sort: 'name', order: 'asc' });
    if (items.length === 0 || items.some((item) => item.type === 'folder')) return false;
    const media = items.filter((item) => item.mime_type?.startsWith('image/') || item.mime_type?.startsWith('video/')).length;
    return media * 5 >= items.length * 4;
  }

  /**
   * What "Download all" zips: everything the link shows (an album's photos its links show, or
   * the shared folder with all below it), when the link lets its files be downloaded.
   */
  zipOf(credentials: LinkCredentials): LinkZip {
    const opened = this.open(credentials);
    if (opened.share.allow_download !== 1) throw new AppError('download_disabled');
    if (!opened.album) {
      const { node } = opened;
      return node.type === 'folder' ? { name: node.name, folder: node, files: [] } : { name: node.name, folder: null, files: [node] };
    }
    const max = this.deps.config.zipMaxEntries;
    const files: NodeRow[] = [];
    let cursor: string | undefined;
    do {
      const page = this.albums.shownItems(opened.album.id, null, { limit: 1000, cursor });
      for (const item of page.items) {
        const node = this.deps.store.nodes.byId(item.id, '');
        if (node) files.push(node);
      }
      if (files.length > max) throw new AppError('too_many_files');
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return { name: opened.album.name, folder: null, files };
  }

  /** Trades the link's password for a grant; wrong passwords are rate limited per link and per address. */
  async unlock(token: string, password: string, client: ClientInfo): Promise<UnlockResponse> {
    const share = this.live(token);
    // A link to something in the trash is no link, here as on every other public route.
    this.target(share);
    if (share.password_hash === null) throw new AppError('invalid_input', 'This link has no password.');
    const passwordHash = share.password_hash;
    const address = addressKey(client.ip);
    // Refused per link and address (a guesser locks only itself out); the link itself is
    // only slowed, so its rightful visitors still get in.
    const linkBucket = `share:${share.id}`;
    const right = await this.deps.rateLimiter.guess({ limited: [`${linkBucket}:ip:${address}`], slowed: linkBucket }, (signal) =>
      this.deps.passwords.verify(password, passwordHash, address, signal),
    );
    if (!right) throw new AppError('wrong_password', 'That password is not right.', { field: 'password' });
    this.deps.rateLimiter.reset(linkBucket);
    const expiresAt = this.deps.now() + GRANT_TTL_MS;
    return { grant: this.signGrant(share, expiresAt), expires_at: expiresAt };
  }

  children(credentials: LinkCredentials, input: ListInput): Page<PublicNode> {
    const opened = this.open(credentials);
    if (opened.album) {
      // Its photos in the order they were taken, whatever order is asked: an album tells a story.
      // Only those their owners let its links show (album-reach.ts's LINK_SHOWS).
      if (input.parent_id && input.parent_id !== opened.album.id) throw new AppError('not_found');
      const page = this.albums.shownItems(opened.album.id, null, input);
      return { ...page, items: page.items.map((item) => ({ ...withoutOwner(item), parent_id: opened.album.id })) };
    }
    const { share, node } = opened;
    const folder = input.parent_id ? this.inside(share, node, input.parent_id) : node;
    if (folder.type !== 'folder') throw new AppError('invalid_input', 'parent_id must be a folder.', { field: 'parent_id' });
    const page = this.listing.children(folder.id, '', { ...input, filter: undefined, query: undefined });
    return { ...page, items: page.items.map(withoutOwner) };
  }

  download(credentials: LinkCredentials, nodeId: string | undefined): FileContent {
    const opened = this.open(credentials);
    if (opened.share.allow_download !== 1) throw new AppError('download_disabled');
    return this.files.contentOf(this.nodeOf(opened, nodeId));
  }

  /**
   * A file of the link a signed-in visitor may keep a copy of: one the link shows, where the
   * link lets its files be downloaded (a copy is a download that stays on the server).
   */
  keepable(credentials: LinkCredentials, nodeId: string): NodeRow {
    const opened = this.open(credentials);
    const node = this.nodeOf(opened, nodeId);
    if (opened.share.allow_download !== 1) throw new AppError('download_disabled');
    return node;
  }

  /** Thumbnails of what the link opens (they exist once the media pipeline made them). */
  thumbnailTarget(credentials: LinkCredentials, nodeId: string | undefined): NodeRow {
    return this.nodeOf(this.open(credentials), nodeId);
  }

  /** The link and what it opens, if the link is usable by this visitor right now. */
  private open(credentials: LinkCredentials): Opened {
    const share = this.live(credentials.token);
    if (share.password_hash !== null && !this.grantValid(share, credentials.grant)) {
      throw new AppError('share_password_required');
    }
    return this.target(share);
  }

  /** What a live link opens: its node while out of the trash, or its album. */
  private target(share: ShareRow): Opened {
    if (share.album_id !== null) {
      const album = this.deps.store.albums.byId(share.album_id);
      if (!album) throw new AppError('not_found');
      return { share, node: null, album };
    }
    const node = this.deps.store.nodes.byId(share.node_id!, '');
    // Nothing in Private is reached by a link (moving in took its links away; this keeps it so).
    if (!node || node.in_trash || node.in_private) throw new AppError('not_found');
    return { share, node, album: null };
  }

  /**
   * The node a request names (`node_id`), or the shared node itself; in an album, a photo its
   * links show. Every byte a visitor gets (file, thumbnail, video, playback copy) comes through here.
   */
  private nodeOf(opened: Opened, nodeId: string | undefined): NodeRow {
    if (opened.album) {
      const node = nodeId ? this.deps.store.nodes.byId(nodeId, '') : undefined;
      if (!node || !this.deps.store.albums.linkShows(opened.album.id, node.id)) throw new AppError('not_found');
      return node;
    }
    return nodeId ? this.inside(opened.share, opened.node, nodeId) : opened.node;
  }

  /** Unknown, revoked and suspended links are the same 404; expired ones say so (410). */
  private live(token: string): ShareRow {
    if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new AppError('not_found');
    const share = this.deps.store.shares.byTokenHash(hashSecret(token));
    if (!share || share.revoked_at !== null) throw new AppError('not_found');
    // The links of a disabled account are suspended, as if revoked, until it is enabled again.
    if (this.deps.store.users.byId(share.created_by)?.disabled !== false) throw new AppError('not_found');
    if (share.expires_at !== null && share.expires_at <= this.deps.now()) throw new AppError('share_expired');
    return share;
  }

  /** A node under the shared one; anything outside the shared tree does not exist here. */
  private inside(share: ShareRow, root: NodeRow, nodeId: string): NodeRow {
    const node = this.deps.store.nodes.byId(nodeId, '');
    if (!node || node.in_trash || node.in_private || !this.deps.store.nodes.isSelfOrAncestor(root.id, node.id)) {
      throw new AppError('not_found');
    }
    return node;
  }

  private signGrant(share: ShareRow, expiresAt: number): string {
    const body = `${share.id}.${share.password_version}.${expiresAt}`;
    return `${body}.${this.mac(body)}`;
  }

  private grantValid(share: ShareRow, grant: string | undefined): boolean {
    if (!grant) return false;
    const parts = grant.split('.');
    if (parts.length !== 4) return false;
    const [id, version, expiry, mac] = parts as [string, string, string, string];
    if (!safeEqual(mac, this.mac(`${id}.${version}.${expiry}`))) return false;
    return id === share.id && Number(version) === share.password_version && Number(expiry) > this.deps.now();
  }

  private mac(body: string): string {
    return crypto.createHmac('sha256', this.grantKey).update(`grant:${body}`).digest('base64url');
  }
}

/** An album as a link's visitor sees it: a folder of its photos, named as the album. */
function albumAsFolder(album: AlbumRow): PublicNode {
  return {
    id: album.id,
    type: 'folder',
    name: album.name,
    parent_id: null,
    size: 0,
    mime_type: null,
    created_at: album.created_at,
    updated_at: album.updated_at,
    color: null,
    starred: false,
    shared: false,
    trashed_at: null,
    version: 0,
    has_thumbnail: false,
  };
}

function publicNode(node: NodeRow): PublicNode {
  return withoutOwner(toNodeDto(node));
}

function withoutOwner(node: Node): PublicNode {
  // Spelled out rather than spread: a field added to Node later is not public until listed here.
  const { id, type, name, parent_id, size, mime_type, created_at, updated_at, color, trashed_at, version, has_thumbnail } = node;
  const dto: PublicNode = {
    id,
    type,
    name,
    parent_id,
    size,
    mime_type,
    created_at,
    updated_at,
    color,
    starred: false,
    shared: false,
    trashed_at,
    version,
    has_thumbnail,
  };
  if (node.image_width !== undefined) dto.image_width = node.image_width;
  if (node.image_height !== undefined) dto.image_height = node.image_height;
  if (node.taken_at !== undefined) dto.taken_at = node.taken_at;
  if (node.taken_offset !== undefined) dto.taken_offset = node.taken_offset;
  if (node.duration_ms !== undefined) dto.duration_ms = node.duration_ms;
  // The town a photo was taken in, as its day, is the story an album link tells (Grandma sees
  // "Saturday 3 August, Lisbon"); never its coordinates nor the camera: a link may travel
  // anywhere, and where exactly the family lives is not for it to say.
  if (node.place?.town !== undefined || node.place?.country_code !== undefined) {
    dto.place = {
      ...(node.place.town !== undefined && { town: node.place.town }),
      ...(node.place.country_code !== undefined && { country_code: node.place.country_code }),
    };
  }
  return dto;
}
