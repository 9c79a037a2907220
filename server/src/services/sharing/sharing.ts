import crypto from 'node:crypto';
import type { Page } from '../../contract/page.ts';
import type { Grant, Link } from '../../contract/sharing-responses.ts';
import { AppError } from '../../app-error.ts';
import type { GrantRole, ShareRow } from '../../store/database/sharing.repo.ts';
import type { AccessService } from '../files/access.ts';
import type { AlbumAccess } from '../photos/album-access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { hashSecret, newId } from '../common/secrets.ts';
import { checkPassword } from '../identity/passwords.ts';

/** A link ready to be stored: to a node, or to an album (the other null). */
export interface PreparedLink {
  nodeId: string | null;
  albumId: string | null;
  passwordHash: string | null;
  allowDownload: boolean;
  expiresAt: number | null;
}

export interface LinkInput {
  password?: string | null | undefined;
  expires_at?: number | null | undefined;
  allow_download?: boolean | undefined;
}

/**
 * Sharing by the owner: grants for other accounts, and public links. A link's token is
 * never stored: only its hash (for lookups) and a salt from which, with the server's link
 * key, the owner's copy of the URL is derived again when listed.
 */
export class SharingService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly linkKey: Buffer,
    private readonly albums: AlbumAccess,
  ) {}

  // ---- Access for accounts ----

  permissions(actor: Actor, nodeId: string): Grant[] {
    const node = this.access.node(actor, nodeId, 'read');
    return this.deps.store.permissions.ofNode(node.id).map((p) => this.toPermission(p.user_id, p.role, p.created_at));
  }

  grant(actor: Actor, nodeId: string, input: { user_id: string; role: GrantRole }): Grant {
    const node = this.access.node(actor, nodeId, 'manage', { sharing: true });
    if (node.in_trash) throw new AppError('in_trash');
    if (input.user_id === node.owner_id) throw new AppError('cannot_share_with_owner', undefined, { field: 'user_id' });
    const grantee = this.deps.store.users.byId(input.user_id);
    if (!grantee || grantee.disabled) throw new AppError('unknown_user', undefined, { field: 'user_id' });
    const now = this.deps.now();
    this.deps.store.permissions.upsert({
      node_id: node.id,
      user_id: grantee.id,
      role: input.role,
      granted_by: actor.userId,
      created_at: now,
    });
    const stored = this.deps.store.permissions.get(node.id, grantee.id)!;
    const forGrantee = this.deps.store.nodes.byId(node.id, grantee.id)!;
    this.deps.bus.publish('share.received', { node: toNodeDto(forGrantee), role: input.role }, { users: [grantee.id] });
    return this.toPermission(grantee.id, stored.role, stored.created_at);
  }

  /**
   * Ends a grant: the owner removes anyone, a grantee may leave. Takes effect on the next
   * request, event and upload chunk, since each checks access anew. The account hears that the
   * node is out of its reach (`access_lost`), unless another grant still covers it; albums
   * showing what it had added from there hear of it too (AlbumService follows node.deleted).
   */
  revokeGrant(actor: Actor, nodeId: string, userId: string): void {
    const node = this.access.node(actor, nodeId, 'read');
    if (node.owner_id !== actor.userId && userId !== actor.userId) throw new AppError('forbidden');
    const asTheySawIt = this.deps.store.nodes.byId(node.id, userId);
    this.deps.store.transaction(() => {
      if (!this.deps.store.permissions.remove(node.id, userId)) throw new AppError('not_found');
      // Bookmarks on what is no longer reachable would list things the account cannot open.
      this.deps.store.nodes.unstarSubtree(userId, node.id);
    });
    if (asTheySawIt && this.deps.store.permissions.inherited(node.id, userId).length === 0) {
      this.deps.bus.publish('node.deleted', { node: toNodeDto(asTheySawIt), permanent: false, access_lost: true }, { users: [userId] });
    }
  }

  // ---- Public links ----

  /**
   * First half of creating a link: checks and the slow password hash. The second half
   * (`insertLink`) is synchronous so it can share a transaction with an Idempotency-Key record.
   */
  async prepareLink(actor: Actor, nodeId: string, input: LinkInput): Promise<PreparedLink> {
    const node = this.access.node(actor, nodeId, 'manage', { sharing: true });
    if (node.in_trash) throw new AppError('in_trash');
    return this.prepare({ nodeId: node.id, albumId: null }, input);
  }

  /**
   * A link to an album, made by its owner: it opens what the album shows at each visit (a
   * photo taken out or trashed is gone from it too), like a folder's link.
   */
  async prepareAlbumLink(actor: Actor, albumId: string, input: LinkInput): Promise<PreparedLink> {
    const album = this.albums.own(actor, albumId);
    return this.prepare({ nodeId: null, albumId: album.id }, input);
  }

  private async prepare(target: { nodeId: string | null; albumId: string | null }, input: LinkInput): Promise<PreparedLink> {
    if (input.password) checkPassword(input.password);
    return {
      ...target,
      passwordHash: input.password ? await this.deps.passwords.hash(input.password) : null,
      allowDownload: input.allow_download !== false,
      expiresAt: input.expires_at ?? null,
    };
  }

  insertLink(actor: Actor, link: PreparedLink, origin: string): Link {
    const salt = crypto.randomBytes(16).toString('base64url');
    const id = newId();
    this.deps.store.shares.insert({
      id,
      node_id: link.nodeId,
      album_id: link.albumId,
      created_by: actor.userId,
      token_hash: hashSecret(this.tokenOf(id, salt)),
      salt,
      password_hash: link.passwordHash,
      allow_download: link.allowDownload ? 1 : 0,
      expires_at: link.expiresAt,
      created_at: this.deps.now(),
    });
    return this.toLink(this.deps.store.shares.byId(id)!, origin);
  }

  /** One link the caller created, as it is now (a replayed create answers it again). */
  linkOf(actor: Actor, shareId: string, origin: string): Link {
    const share = this.deps.store.shares.byId(shareId);
    if (!share || share.created_by !== actor.userId) throw new AppError('not_found');
    return this.toLink(share, origin);
  }

  linksOfNode(actor: Actor, nodeId: string, origin: string): Link[] {
    const node = this.access.node(actor, nodeId, 'manage');
    return this.deps.store.shares.ofNode(node.id).map((s) => this.toLink(s, origin));
  }

  linksOfAlbum(actor: Actor, albumId: string, origin: string): Link[] {
    const album = this.albums.own(actor, albumId);
    return this.deps.store.shares.ofAlbum(album.id).map((s) => this.toLink(s, origin));
  }

  myLinks(actor: Actor, page: PageRequest, origin: string): Page<Link> {
    return keysetPage(
      page,
      (before, limit) => this.deps.store.shares.byCreator(actor.userId, before, limit),
      (s) => s.id,
      (s) => this.toLink(s, origin),
    );
  }

  /** Changes expiry, password or the download switch; the URL stays the same. */
  async updateLink(actor: Actor, shareId: string, input: LinkInput, origin: string): Promise<Link> {
    const share = this.ownLink(actor, shareId);
    if (input.password) checkPassword(input.password);
    const fields: Partial<Pick<ShareRow, 'password_hash' | 'password_version' | 'allow_download' | 'expires_at'>> = {};
    if (input.password !== undefined) {
      fields.password_hash = input.password ? await this.deps.passwords.hash(input.password) : null;
      // A new version voids unlock grants issued under the old password.
      fields.password_version = share.password_version + 1;
    }
    if (input.expires_at !== undefined) fields.expires_at = input.expires_at;
    if (input.allow_download !== undefined) fields.allow_download = input.allow_download ? 1 : 0;
    this.deps.store.shares.update(shareId, fields);
    return this.toLink(this.deps.store.shares.byId(shareId)!, origin);
  }

  revokeLink(actor: Actor, shareId: string): void {
    this.ownLink(actor, shareId);
    this.deps.store.shares.revoke(shareId, this.deps.now());
  }

  tokenOf(shareId: string, salt: string): string {
    return crypto.createHmac('sha256', this.linkKey).update(`${shareId}.${salt}`).digest('base64url');
  }

  private ownLink(actor: Actor, shareId: string): ShareRow {
    const share = this.deps.store.shares.byId(shareId);
    if (!share || share.revoked_at !== null) throw new AppError('not_found');
    const ownerId =
      share.node_id !== null
        ? this.deps.store.nodes.byId(share.node_id, actor.userId)?.owner_id
        : this.deps.store.albums.byId(share.album_id!)?.owner_id;
    if (ownerId !== actor.userId) throw new AppError('not_found');
    return share;
  }

  private toLink(share: ShareRow, origin: string): Link {
    const token = this.tokenOf(share.id, share.salt);
    const now = this.deps.now();
    return {
      id: share.id,
      node_id: share.node_id,
      album_id: share.album_id,
      token,
      url: `${origin}/s/${token}`,
      expires_at: share.expires_at,
      password_protected: share.password_hash !== null,
      allow_download: share.allow_download === 1,
      active: share.revoked_at === null && (share.expires_at === null || share.expires_at > now),
      created_at: share.created_at,
    };
  }

  private toPermission(userId: string, role: GrantRole, createdAt: number): Grant {
    const user = this.deps.store.users.byId(userId);
    return {
      user_id: userId,
      name: user ? (user.display_name ?? user.username) : 'Unknown',
      avatar_seed: user?.avatar_seed ?? '',
      role,
      created_at: createdAt,
    };
  }
}
