import type { Readable } from 'node:stream';
import type { NodeDto } from '../contract/dto.ts';
import { AppError } from '../errors.ts';
import type { ContentStores } from '../store/content-stores.ts';
import type { UploadRow } from '../store/uploads.repo.ts';
import { normaliseParentId, type AccessService } from './access.ts';
import type { Actor, ServiceDeps } from './context.ts';
import type { FileService } from './files.ts';
import { decideMimeType } from './media-types.ts';
import { cleanNodeName } from './node-names.ts';
import { newId } from './secrets.ts';

/** The largest single file accepted. */
export const MAX_UPLOAD_BYTES = 1024 ** 4;
/** `upload.progress` events per upload per second, at most. */
const PROGRESS_PER_SECOND = 4;

export interface UploadState {
  id: string;
  offset: number;
  length: number | null;
  metadata: Record<string, string | null>;
  expiresAt: number;
  /** Set when the upload turned out complete and became this node. */
  nodeId?: string;
}

export interface AppendResult {
  offset: number;
  expiresAt: number;
  /** Set when the upload is complete: the node it became. */
  node: Pick<NodeDto, 'id'> | null;
}

export interface AppendInput {
  offset: number;
  /** The total length, when the upload deferred it until now. */
  length?: number | undefined;
  checksum?: { algorithm: 'sha1' | 'sha256'; digest: Buffer } | undefined;
}

interface Lock {
  abort: () => void;
  done: Promise<void>;
}

/**
 * The rules of resumable uploads; the tus wire protocol is in http/tus.ts. An upload writes
 * to a temp file on the default library; only when every byte is there does it become a
 * node (or a new version), so an unfinished upload is never listed. The temp file's size is
 * the upload's offset, which is why a crash mid-upload resumes where the disk says it got.
 */
export class UploadService {
  private readonly locks = new Map<string, Lock>();
  /** When each upload last published progress: the limit holds across its PATCH requests. */
  private readonly progressAt = new Map<string, number>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly files: FileService,
    private readonly content: ContentStores,
  ) {}

  async create(actor: Actor, length: number | null, metadata: Record<string, string | null>): Promise<UploadState> {
    if (length !== null && length > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large');
    const filename = cleanNodeName(metadata.filename || 'Untitled', 'filename');
    let ownerId = actor.userId;
    let parentId: string | null = null;
    let nodeId: string | null = null;
    if (metadata.node_id) {
      const target = this.access.node(actor, metadata.node_id, 'write');
      if (target.type !== 'file') throw new AppError('invalid_input', 'node_id must be a file.', { field: 'node_id' });
      if (target.in_trash) throw new AppError('in_trash');
      ({ owner_id: ownerId, parent_id: parentId, id: nodeId } = target);
    } else {
      const parent = this.access.targetFolder(actor, normaliseParentId(metadata.parent_id ?? undefined));
      if (parent) ({ owner_id: ownerId, id: parentId } = parent);
    }
    this.files.assertQuota(ownerId, length ?? 0, this.deps.store.uploads.pendingBytes(ownerId));
    const { library, blobs } = this.content.defaultLibrary();
    const now = this.deps.now();
    const id = newId();
    const row = {
      id,
      user_id: actor.userId,
      owner_id: ownerId,
      parent_id: parentId,
      node_id: nodeId,
      filename,
      filetype: metadata.filetype ?? null,
      length,
      offset: 0,
      library_id: library.id,
      metadata: JSON.stringify(metadata),
      created_at: now,
      expires_at: now + this.deps.config.uploadExpiryMs,
    };
    // The row first: the startup pass removes temp files no upload row owns, and may be walking
    // the temp folder right now. A crash before the file exists leaves a row that recover() drops.
    this.deps.store.uploads.insert(row);
    try {
      await blobs.createTemp(tempName(id));
    } catch (error) {
      this.deps.store.uploads.remove(id);
      throw error;
    }
    return { id, offset: 0, length, metadata, expiresAt: row.expires_at };
  }

  /** HEAD: how far the upload got. Someone else's upload does not exist for the caller. */
  async state(actor: Actor, id: string): Promise<UploadState> {
    const upload = this.own(actor, id);
    if (upload.completed_node_id !== null) {
      return { ...toState(upload, upload.length ?? 0), nodeId: upload.completed_node_id };
    }
    const offset = await this.content.of(upload.library_id).tempSize(tempName(upload.id));
    if (offset === null) throw new AppError('not_found');
    if (upload.length !== null && offset === upload.length && !this.locks.has(upload.id)) {
      // Every byte arrived but the completing request died before finishing: finish now,
      // since a client that sees a full offset sends nothing more.
      const node = await this.complete(upload, null);
      return { ...toState(upload, offset), nodeId: node.id };
    }
    return toState(upload, offset);
  }

  /**
   * PATCH: appends bytes at `offset`. A newer request for the same upload takes over from an
   * older one still hanging on a dead connection, after it has finished writing.
   */
  async append(actor: Actor, id: string, input: AppendInput, body: Readable): Promise<AppendResult> {
    const upload = this.own(actor, id);
    if (upload.completed_node_id !== null) return this.alreadyComplete(upload, input);
    await this.recheckAccess(actor, upload);
    const previous = this.locks.get(id);
    if (previous) {
      previous.abort();
      await previous.done;
    }
    let release!: () => void;
    const lock: Lock = { abort: () => body.destroy(new Error('superseded')), done: new Promise((r) => (release = r)) };
    this.locks.set(id, lock);
    try {
      return await this.appendLocked(upload, input, body);
    } finally {
      if (this.locks.get(id) === lock) this.locks.delete(id);
      release();
      const row = this.deps.store.uploads.byId(id);
      if (!row || row.completed_node_id !== null) this.progressAt.delete(id);
    }
  }

  async terminate(actor: Actor, id: string): Promise<void> {
    const upload = this.own(actor, id);
    if (upload.completed_node_id !== null) throw new AppError('not_found');
    this.locks.get(id)?.abort();
    this.progressAt.delete(id);
    this.deps.store.uploads.remove(upload.id);
    await this.content.of(upload.library_id).removeTemp(tempName(upload.id));
  }

  /** Maintenance: reclaims the space of uploads abandoned past their expiry. */
  async expire(): Promise<void> {
    for (const upload of this.deps.store.uploads.expired(this.deps.now())) {
      if (this.locks.has(upload.id)) continue;
      this.progressAt.delete(upload.id);
      this.deps.store.uploads.remove(upload.id);
      await this.content.of(upload.library_id).removeTemp(tempName(upload.id)).catch(() => {});
    }
  }

  /**
   * Startup: an upload whose bytes were complete when the server stopped is finished now,
   * so an acknowledged byte is never lost; one whose temp file vanished is forgotten.
   */
  async recover(): Promise<void> {
    for (const upload of this.deps.store.uploads.all()) {
      if (upload.completed_node_id !== null) continue;
      let blobs;
      try {
        blobs = this.content.of(upload.library_id);
      } catch {
        continue;
      }
      if (upload.blob !== null) {
        if (await blobs.exists(upload.blob)) {
          this.finish(upload, upload.blob, null, await blobs.headOf(upload.blob));
          continue;
        }
        const size = await blobs.tempSize(tempName(upload.id));
        if (size !== null && size === upload.length) {
          await this.complete(upload, null);
          continue;
        }
      }
      if ((await blobs.tempSize(tempName(upload.id))) === null) this.deps.store.uploads.remove(upload.id);
    }
  }

  private async appendLocked(upload: UploadRow, input: AppendInput, body: Readable): Promise<AppendResult> {
    const blobs = this.content.of(upload.library_id);
    const current = await blobs.tempSize(tempName(upload.id));
    if (current === null) throw new AppError('not_found');
    if (input.offset !== current) {
      throw new AppError('offset_mismatch', `The upload is at byte ${current}, not ${input.offset}.`, {
        headers: { 'Upload-Offset': String(current) },
      });
    }
    let length = upload.length;
    if (input.length !== undefined) {
      if (length !== null && length !== input.length) throw new AppError('invalid_input', 'Upload-Length cannot change.');
      if (length === null) {
        if (input.length < current) throw new AppError('invalid_input', 'Upload-Length is below the bytes already sent.');
        if (input.length > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large');
        // Pending bytes include this upload's own offset, which `input.length` already covers.
        const pending = this.deps.store.uploads.pendingBytes(upload.owner_id) - upload.offset;
        this.files.assertQuota(upload.owner_id, input.length, pending);
        this.deps.store.uploads.setLength(upload.id, input.length);
        length = input.length;
      }
    }
    const progress = this.progressPublisher(upload, length);
    const result = await blobs.writeTemp(tempName(upload.id), current, body, {
      limit: length === null ? MAX_UPLOAD_BYTES - current : length - current,
      digest: input.checksum?.algorithm,
      onProgress: (written) => progress(current + written),
    });
    if (result.overflow) {
      await blobs.truncateTemp(tempName(upload.id), current);
      throw new AppError('payload_too_large', 'More bytes arrived than the upload declared.');
    }
    if (input.checksum && !result.error && !result.digest!.equals(input.checksum.digest)) {
      // The whole request is discarded: the client resends it from the same offset.
      await blobs.truncateTemp(tempName(upload.id), current);
      throw new AppError('checksum_mismatch');
    }
    if (result.error && input.checksum) {
      // Unverifiable: the partial bytes of a checksummed request are never kept.
      await blobs.truncateTemp(tempName(upload.id), current);
      throw new AppError('checksum_mismatch', 'The request ended before its data was complete; send it again.');
    }
    // A dropped connection keeps what arrived (tus): the client asks HEAD and resumes from there.
    const offset = current + result.written;
    const expiresAt = this.deps.now() + this.deps.config.uploadExpiryMs;
    this.deps.store.uploads.progress(upload.id, offset, expiresAt);
    progress(offset);
    const complete = length !== null && offset === length;
    const node = complete ? await this.complete({ ...upload, length }, input.checksum) : null;
    return { offset, expiresAt, node };
  }

  /** Every byte is there: check the quota again, move the file into place, make the node. */
  private async complete(upload: UploadRow, checksum: AppendInput['checksum'] | null): Promise<NodeDto> {
    const blobs = this.content.of(upload.library_id);
    try {
      this.files.assertQuota(upload.owner_id, upload.length ?? 0);
    } catch (error) {
      this.deps.store.uploads.remove(upload.id);
      await blobs.removeTemp(tempName(upload.id));
      throw error;
    }
    const head = await blobs.headOfTemp(tempName(upload.id));
    const blob = newId();
    // Recorded before the move: if the server dies after it, startup finishes the job.
    this.deps.store.uploads.setBlob(upload.id, blob);
    await blobs.commitTemp(tempName(upload.id), blob);
    return this.finish(upload, blob, checksum?.algorithm === 'sha256' ? checksum.digest.toString('hex') : null, head);
  }

  private finish(upload: UploadRow, blob: string, sha256: string | null, head: Buffer): NodeDto {
    const node = this.deps.store.transaction(() => {
      const dto = this.files.completeContent({
        uploaderId: upload.user_id,
        ownerId: upload.owner_id,
        parentId: upload.parent_id,
        nodeId: upload.node_id,
        filename: upload.filename,
        mimeType: decideMimeType(head, upload.filename, upload.filetype),
        size: upload.length ?? 0,
        libraryId: upload.library_id,
        blob,
        sha256,
      });
      this.deps.store.uploads.markCompleted(upload.id, dto.id, this.deps.now() + this.deps.config.uploadExpiryMs);
      return dto;
    });
    return node;
  }

  /**
   * Access is checked again on every PATCH: an account whose access to a shared folder was
   * removed cannot finish an upload into it. Its upload is dropped and its space released.
   */
  private async recheckAccess(actor: Actor, upload: UploadRow): Promise<void> {
    if (upload.owner_id === actor.userId) return;
    try {
      if (upload.node_id !== null) this.access.node(actor, upload.node_id, 'write');
      else this.access.targetFolder(actor, upload.parent_id);
    } catch (error) {
      this.deps.store.uploads.remove(upload.id);
      await this.content.of(upload.library_id).removeTemp(tempName(upload.id)).catch(() => {});
      throw error instanceof AppError && error.code === 'forbidden' ? error : new AppError('not_found');
    }
  }

  /** A retry of the completing request, whose answer was lost: the same answer again. */
  private alreadyComplete(upload: UploadRow, input: AppendInput): AppendResult {
    if (input.offset !== upload.length) {
      throw new AppError('offset_mismatch', `The upload is complete at byte ${upload.length}.`, {
        headers: { 'Upload-Offset': String(upload.length) },
      });
    }
    return {
      offset: upload.length,
      expiresAt: upload.expires_at,
      node: this.deps.store.nodes.byId(upload.completed_node_id!, upload.user_id) ? { id: upload.completed_node_id! } : null,
    };
  }

  private progressPublisher(upload: UploadRow, length: number | null) {
    // No bypass for the end of a request: quick successive PATCHes (small chunks on a fast
    // link) would otherwise publish far more than the limit. Completion has its node.created.
    return (offset: number) => {
      const now = this.deps.now();
      const last = this.progressAt.get(upload.id);
      if (last !== undefined && now - last < 1000 / PROGRESS_PER_SECOND) return;
      this.progressAt.set(upload.id, now);
      this.deps.bus.publish('upload.progress', { upload_id: upload.id, offset, length }, { users: [upload.user_id] });
    };
  }

  private own(actor: Actor, id: string): UploadRow {
    const upload = this.deps.store.uploads.byId(id);
    if (!upload || upload.user_id !== actor.userId) throw new AppError('not_found');
    // Between the move into place and the commit, the upload is neither here nor done.
    if (upload.blob !== null && upload.completed_node_id === null) throw new AppError('not_found');
    if (upload.expires_at <= this.deps.now()) throw new AppError('upload_expired');
    return upload;
  }
}

function tempName(uploadId: string): string {
  return `${uploadId}.upload`;
}

function toState(upload: UploadRow, offset: number): UploadState {
  return {
    id: upload.id,
    offset,
    length: upload.length,
    metadata: JSON.parse(upload.metadata) as Record<string, string | null>,
    expiresAt: upload.expires_at,
  };
}
