import type { Readable } from 'node:stream';
import type { Node, NodeVersion } from '../../contract/files-responses.ts';
import { AppError } from '../../app-error.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { VersionRow } from '../../store/database/versions.repo.ts';
import type { AccessService } from './access.ts';
import type { ActivityService } from './activity.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { isMediaType } from './media-types.ts';
import { toNodeDto } from './node-dto.ts';
import { containerOf, nameColumns, type NodeService } from './nodes.ts';
import { newId } from '../common/secrets.ts';
import { quotaUsed } from '../identity/quota-usage.ts';
import type { CaptureMoment } from '../../media/early-capture.ts';

/** What a download needs: the bytes of one version, and what identifies them for caches. */
export interface FileContent {
  node: NodeRow;
  version: VersionRow;
  /** Strong validator: a version's content never changes. */
  etag: string;
  lastModified: number;
  open(range?: { start: number; end: number }): Readable;
  /** The content file on disk (what `open` reads). */
  path: string;
}

/** Finished content to become a file node or a new version of one. */
export interface CompletedContent {
  uploaderId: string;
  ownerId: string;
  parentId: string | null;
  nodeId: string | null;
  filename: string;
  mimeType: string;
  size: number;
  libraryId: string;
  blob: string;
  sha256: string | null;
  /** The capture time known as the upload completes (media/early-capture.ts), else null. */
  capture?: CaptureMoment | null;
}

/** File content: downloads, versions, and turning finished uploads into nodes. */
export class FileService {
  /**
   * Bytes promised to work in progress whose usage is not recorded yet, by account: a version
   * being restored, an upload being completed, a deferred-length PATCH being received. Kept in
   * memory because the work dies with the process.
   */
  private readonly inFlight = new Map<string, number>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly activity: ActivityService,
    private readonly nodes: NodeService,
    private readonly content: ContentStores,
  ) {}

  download(actor: Actor, id: string): FileContent {
    return this.contentOf(this.access.node(actor, id, 'read'));
  }

  /** The current content of a node the caller has been cleared to read. */
  contentOf(node: NodeRow): FileContent {
    if (node.type !== 'file') throw new AppError('invalid_input', 'Folders cannot be downloaded.', { field: 'id' });
    const version = this.deps.store.versions.current(node.id);
    if (!version) throw new AppError('not_found');
    const blobs = this.content.of(version.library_id);
    return {
      node,
      version,
      etag: `"${version.id}"`,
      lastModified: version.created_at,
      open: (range) => blobs.read(version.blob, range),
      path: blobs.pathOf(version.blob),
    };
  }

  versions(actor: Actor, id: string): NodeVersion[] {
    const node = this.access.node(actor, id, 'read');
    if (node.type !== 'file') return [];
    return this.deps.store.versions.ofNode(node.id).map((v) => ({
      id: v.id,
      version: v.version,
      size: v.size,
      created_at: v.created_at,
      created_by: v.created_by,
    }));
  }

  /**
   * Makes an old version's content current again, as a new version: history only grows. The
   * new version refers to the old one's content file (content files are shared by the versions
   * with the same bytes), so nothing is copied and the restore is one transaction.
   */
  restoreVersion(actor: Actor, id: string, versionId: string): Node {
    const node = this.access.node(actor, id, 'write');
    if (node.in_trash) throw new AppError('in_trash');
    const { store } = this.deps;
    const old = store.versions.byId(versionId);
    if (!old || old.node_id !== node.id) throw new AppError('not_found');
    // The new version is charged to the account like any other, so its quota must allow it.
    this.assertQuota(node.owner_id, old.size, store.uploads.pendingBytes(node.owner_id));
    const dto = store.transaction(() => {
      this.addVersionRow(node, { ...old, id: newId() }, actor.userId);
      this.activity.record(node.owner_id, actor.userId, 'version.restored', node.id, { version: old.version });
      return toNodeDto(store.nodes.byId(node.id, actor.userId)!);
    });
    this.deps.bus.publish('node.updated', { node: dto }, this.access.audienceOf(dto));
    this.nodes.publishQuota(node.owner_id);
    return dto;
  }

  /**
   * 507 when `extra` more bytes would pass the account's quota, counting its usage, `pending`
   * (space promised to unfinished uploads) and the work in progress. Synchronous, so a caller
   * that records its own reservation before its next `await` makes check and reservation one step.
   */
  assertQuota(ownerId: string, extra: number, pending = 0): void {
    if (extra > this.remainingQuota(ownerId, pending)) throw new AppError('quota_exceeded');
  }

  /** Bytes the account may still take beside `pending`; Infinity without a quota. */
  remainingQuota(ownerId: string, pending = 0): number {
    const owner = this.deps.store.users.byId(ownerId);
    if (!owner || owner.quota_bytes === null) return Infinity;
    return owner.quota_bytes - quotaUsed(this.deps.store, owner) - pending - (this.inFlight.get(ownerId) ?? 0);
  }

  /**
   * Checks the quota and holds `extra` bytes for work in progress, in one synchronous step:
   * parallel requests see each other's reservations. The returned function releases them; call
   * it in the same tick as the commit that records the usage.
   */
  reserveQuota(ownerId: string, extra: number, pending = 0): () => void {
    this.assertQuota(ownerId, extra, pending);
    if (extra <= 0) return () => {};
    this.inFlight.set(ownerId, (this.inFlight.get(ownerId) ?? 0) + extra);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inFlight.get(ownerId) ?? 0) - extra;
      if (left > 0) this.inFlight.set(ownerId, left);
      else this.inFlight.delete(ownerId);
    };
  }

  /**
   * Turns committed content into a node (or a new version of `nodeId`), in one transaction
   * with the quota it uses. If the target folder went away meanwhile, the file lands at the
   * top level rather than being lost.
   */
  completeContent(c: CompletedContent): Node {
    const dto = this.recordContent(c);
    this.announce(dto);
    return dto;
  }

  /**
   * completeContent without telling anyone yet: for work that makes many nodes in one
   * transaction of its own (a folder restored from a backup) and must not announce any before
   * that transaction commits. Call `announce` with each after the commit.
   */
  recordContent(c: CompletedContent): Node {
    const { store } = this.deps;
    const now = this.deps.now();
    const dto = store.transaction(() => {
      const existing = c.nodeId ? store.nodes.byId(c.nodeId, c.uploaderId) : undefined;
      let nodeId: string;
      if (existing && existing.type === 'file') {
        nodeId = existing.id;
        this.addVersionRow(existing, this.versionRow(c, existing.version + 1, now), c.uploaderId);
        this.activity.record(existing.owner_id, c.uploaderId, 'file.version_added', nodeId, { version: existing.version + 1 });
      } else {
        const parent = c.parentId ? store.nodes.byId(c.parentId, c.uploaderId) : undefined;
        const parentId = parent && !parent.in_trash && parent.type === 'folder' ? parent.id : null;
        const ownerId = parent && parentId ? parent.owner_id : c.ownerId;
        const name = this.nodes.freeName(containerOf(ownerId, parentId), c.filename, true);
        nodeId = newId();
        store.nodes.insert({
          id: nodeId,
          owner_id: ownerId,
          parent_id: parentId,
          type: 'file',
          ...nameColumns(name),
          size: c.size,
          mime_type: c.mimeType,
          version: 1,
          created_by: c.uploaderId,
          created_at: now,
          is_media: isMediaType(c.mimeType) ? 1 : 0,
        });
        store.versions.insert(this.versionRow({ ...c, ownerId }, 1, now, nodeId));
        store.users.addUsage(ownerId, c.size);
        if (isMediaType(c.mimeType)) store.media.enqueue(nodeId, 1, now);
        this.activity.record(ownerId, c.uploaderId, 'file.uploaded', nodeId, { name, size: c.size });
      }
      if (c.capture && isMediaType(c.mimeType)) store.media.placeEarly(nodeId, c.capture.takenAt, c.capture.takenOffset);
      return toNodeDto(store.nodes.byId(nodeId, c.uploaderId)!);
    });
    return dto;
  }

  /** Tells the family a file recorded by recordContent is there (its thumbnails follow the event), and its owner their usage. */
  announce(dto: Node, options: { quota?: boolean } = {}): void {
    this.deps.bus.publish(dto.version > 1 ? 'node.updated' : 'node.created', { node: dto }, this.access.audienceOf(dto));
    if (options.quota !== false) this.nodes.publishQuota(dto.owner_id);
  }

  private versionRow(c: CompletedContent, version: number, now: number, nodeId = c.nodeId!): VersionRow {
    return {
      id: newId(),
      node_id: nodeId,
      version,
      size: c.size,
      library_id: c.libraryId,
      blob: c.blob,
      sha256: c.sha256,
      mime_type: c.mimeType,
      created_by: c.uploaderId,
      created_at: now,
    };
  }

  private addVersionRow(node: NodeRow, row: VersionRow, actorId: string): void {
    const version = node.version + 1;
    const now = this.deps.now();
    this.deps.store.versions.insert({ ...row, node_id: node.id, version, created_by: actorId, created_at: now });
    this.deps.store.users.addUsage(node.owner_id, row.size);
    this.deps.store.nodes.update(node.id, {
      version,
      size: row.size,
      mime_type: row.mime_type,
      updated_at: now,
      is_media: isMediaType(row.mime_type) ? 1 : 0,
      has_thumbnail: 0,
      media_state: null,
      image_width: null,
      image_height: null,
      taken_at: null,
      taken_sort: node.created_at,
    });
    // The new content is processed afresh (size, capture time, thumbnails).
    if (isMediaType(row.mime_type)) this.deps.store.media.enqueue(node.id, version, now);
  }
}
