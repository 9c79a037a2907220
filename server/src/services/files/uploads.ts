import type { Readable } from 'node:stream';
import { AppError } from '../../app-error.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { UploadRow } from '../../store/database/uploads.repo.ts';
import { normaliseParentId, type AccessService } from './access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import type { FileService } from './files.ts';
import { cleanNodeName } from './node-names.ts';
import { newId } from '../common/secrets.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { ContentMerge } from './content-merge.ts';
import { UploadCompletion } from './upload-completion.ts';
import { UploadHashes } from './upload-hashes.ts';
import { UploadLocks } from './upload-locks.ts';
import { UploadProgress } from './upload-progress.ts';
import {
  MAX_UPLOAD_BYTES,
  tempName,
  toState,
  type AppendInput,
  type AppendResult,
  type UploadState,
  type UploadTargets,
} from './upload-state.ts';
import { UploadUpkeep } from './upload-upkeep.ts';
import { UploadWrites } from './upload-writes.ts';

/**
 * The rules of resumable uploads; the tus wire protocol is in uploads/tus-protocol.ts. An upload writes
 * to a temp file on the default library; only when every byte is there does it become a
 * node (or a new version), so an unfinished upload is never listed. The temp file's size is
 * the upload's offset, which is why a crash mid-upload resumes where the disk says it got.
 */
export class UploadService {
  private readonly locks = new UploadLocks();
  private readonly hashes = new UploadHashes();
  private readonly progress: UploadProgress;
  private readonly completion: UploadCompletion;
  private readonly writes: UploadWrites;
  private readonly upkeep: UploadUpkeep;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly files: FileService,
    private readonly content: ContentStores,
    private readonly storage: StorageHealth,
    private readonly targets: UploadTargets,
    merge: ContentMerge,
  ) {
    this.progress = new UploadProgress(deps);
    this.completion = new UploadCompletion(deps, access, files, content, targets, merge);
    this.writes = new UploadWrites(deps, files, content, storage, this.completion, this.progress, this.hashes);
    this.upkeep = new UploadUpkeep(deps, content, storage, this.locks, this.progress, this.hashes, this.completion);
  }

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
    this.targets.check(actor, metadata);
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
    // The check and the reservation (the row, which pendingBytes counts) with no `await` between
    // them: parallel creations cannot all pass on the same free space. The row also comes before
    // the temp file: the startup pass removes temp files no upload row owns, and may be walking
    // the temp folder right now. A crash before the file exists leaves a row that recover() drops.
    this.files.assertQuota(ownerId, length ?? 0, this.deps.store.uploads.pendingBytes(ownerId));
    // A full disk refuses at once, and so does a file that cannot fit in what it has left:
    // better than an upload that stops at 90 % (the answer says how much room there is).
    this.storage.assertWritable(blobs.root, length ?? 0);
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
    const upload = this.own(actor, id, { cutShort: true });
    try {
      return await this.stateOf(actor, upload);
    } catch (error) {
      throw await this.withHonestOffset(error, upload);
    }
  }

  private async stateOf(actor: Actor, upload: UploadRow): Promise<UploadState> {
    const id = upload.id;
    if (upload.completed_node_id !== null) {
      return { ...toState(upload, upload.length ?? 0), nodeId: upload.completed_node_id };
    }
    if (upload.blob !== null) {
      // Every byte is on disk but its completion was cut short (the disk refused the move or
      // the commit): finished now, once the disk takes it.
      const done = await this.completeCutShort(actor, id);
      return { ...toState(done, done.length ?? 0), nodeId: done.completed_node_id! };
    }
    const offset = await this.content.of(upload.library_id).tempSize(tempName(upload.id));
    if (offset === null) throw new AppError('not_found');
    if (upload.length !== null && offset === upload.length && !this.locks.has(upload.id)) {
      // Every byte arrived but the completing request died before finishing: finish now,
      // since a client that sees a full offset sends nothing more. Under the upload's lock, as
      // a PATCH or DELETE would be, and only if it is still there and unfinished once held.
      const release = await this.locks.take(id, () => {});
      try {
        const now = this.own(actor, id);
        if (now.completed_node_id !== null) return { ...toState(now, now.length ?? 0), nodeId: now.completed_node_id };
        if ((await this.content.of(now.library_id).tempSize(tempName(now.id))) !== now.length) return this.state(actor, id);
        const node = await this.completion.complete(now, null);
        return { ...toState(now, offset), nodeId: node.id };
      } finally {
        release();
      }
    }
    return toState(upload, offset);
  }

  /**
   * PATCH: appends bytes at `offset`. A newer request for the same upload takes over from an
   * older one still hanging on a dead connection, after it has finished writing.
   */
  async append(actor: Actor, id: string, input: AppendInput, body: Readable): Promise<AppendResult> {
    const first = this.own(actor, id, { cutShort: true });
    if (first.completed_node_id !== null) return this.alreadyComplete(first, input);
    if (first.blob !== null) {
      try {
        return this.alreadyComplete(await this.completeCutShort(actor, id), input);
      } catch (error) {
        throw await this.withHonestOffset(error, first);
      }
    }
    await this.completion.recheckAccess(first);
    const release = await this.locks.take(id, () => body.destroy(new Error('superseded')));
    try {
      // Whatever held the lock before (a DELETE, a completing HEAD) may have changed the upload.
      const upload = this.own(actor, id);
      if (upload.completed_node_id !== null) return this.alreadyComplete(upload, input);
      return await this.writes.append(upload, input, body);
    } catch (error) {
      throw await this.withHonestOffset(error, first);
    } finally {
      release();
      const row = this.deps.store.uploads.byId(id);
      if (!row || row.completed_node_id !== null) {
        this.progress.forget(id);
        this.hashes.forget(id);
      }
    }
  }

  /**
   * DELETE: stops a PATCH in progress and waits for it to let go before removing anything.
   * A finished upload is only forgotten (204, later requests 404): its bytes are a file now,
   * which a DELETE of the upload never removes. A client that cancels just as the last bytes
   * land (the web app terminates on cancel) keeps the file rather than losing it unasked.
   */
  async terminate(actor: Actor, id: string): Promise<void> {
    // Someone else's upload is not there for the caller: nothing of it is touched, not even its lock.
    this.own(actor, id, { cutShort: true });
    const release = await this.locks.take(id, () => {});
    try {
      const upload = this.own(actor, id, { cutShort: true });
      this.progress.forget(id);
      this.hashes.forget(id);
      if (upload.completed_node_id !== null) {
        this.deps.store.uploads.remove(upload.id);
        return;
      }
      // One whose completion a full disk cut short is cancelled too: it would otherwise become
      // a file at the next start, after the person said no.
      this.completion.drop(upload);
      const blobs = this.content.of(upload.library_id);
      await blobs.removeTemp(tempName(upload.id));
      if (upload.blob !== null) {
        await blobs.remove(upload.blob);
        this.deps.store.garbage.forget(upload.library_id, upload.blob);
      }
    } finally {
      release();
    }
  }

  /** Maintenance: reclaims the space of uploads abandoned past their expiry. */
  expire(): Promise<void> {
    return this.upkeep.expire();
  }

  /** Maintenance, and whenever a disk takes writes again: completions the disk cut short, finished now. */
  finishCutShort(): Promise<void> {
    return this.upkeep.finishCutShort();
  }

  /** Startup: uploads whose bytes were complete when the server stopped are finished now. */
  recover(): Promise<void> {
    return this.upkeep.recover();
  }

  /**
   * Finishes an upload whose bytes all arrived but whose completion the disk cut short (its
   * content id is recorded, the move or the commit failed), under its lock: waiting for a
   * completion still running rather than taking over from it. Returns the completed row.
   */
  private async completeCutShort(actor: Actor, id: string): Promise<UploadRow> {
    const release = await this.locks.take(id, () => {}, false);
    try {
      const upload = this.own(actor, id, { cutShort: true });
      if (upload.completed_node_id !== null) return upload;
      if (upload.blob === null) throw new AppError('not_found');
      // Access may have gone while the disk was full.
      await this.completion.recheckAccess(upload);
      const blobs = this.content.of(upload.library_id);
      if (await blobs.exists(upload.blob)) {
        this.completion.finish(upload, upload.blob, await blobs.sha256Of(upload.blob), await blobs.headOf(upload.blob));
      } else if ((await blobs.tempSize(tempName(upload.id))) === upload.length) {
        await this.completion.complete(upload, null);
      } else {
        throw new AppError('not_found');
      }
      return this.own(actor, id, { cutShort: true });
    } finally {
      release();
    }
  }

  /**
   * A write the disk refused, answered as such (507 `storage_full`, 503 `storage_read_only`)
   * with the offset really on disk, as a HEAD would say it: the client resumes from there
   * once there is room. Whatever arrived before the disk filled stays.
   */
  private async withHonestOffset(error: unknown, upload: UploadRow): Promise<unknown> {
    let blobs;
    try {
      blobs = this.content.of(upload.library_id);
    } catch {
      return error;
    }
    let refusal: AppError;
    if (error instanceof AppError) {
      if (error.code !== 'storage_full' && error.code !== 'storage_read_only') return error;
      refusal = error;
    } else {
      const fault = this.storage.noteFailure(error, blobs.root);
      if (!fault) return error;
      refusal = this.storage.refusal(fault);
    }
    const row = this.deps.store.uploads.byId(upload.id);
    const onDisk = await blobs.tempSize(tempName(upload.id));
    // No temp file: its bytes were moved into place whole (a completion the disk cut short).
    const offset = onDisk ?? (row?.blob != null ? (row.length ?? 0) : 0);
    return new AppError(refusal.code, refusal.message, { headers: { ...refusal.headers, 'Upload-Offset': String(offset) } });
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

  /** `cutShort`: also an upload between the move into place and the commit (see completeCutShort). */
  private own(actor: Actor, id: string, options: { cutShort?: boolean } = {}): UploadRow {
    const upload = this.deps.store.uploads.byId(id);
    if (!upload || upload.user_id !== actor.userId) throw new AppError('not_found');
    // Between the move into place and the commit, the upload is neither here nor done.
    const cutShort = upload.blob !== null && upload.completed_node_id === null;
    if (cutShort && !options.cutShort) throw new AppError('not_found');
    // Every byte of a completion cut short was acknowledged: it never expires (maintenance
    // never takes it either). Answering 410 would have the client send it again, and both
    // would become files.
    if (!cutShort && upload.expires_at <= this.deps.now()) throw new AppError('upload_expired');
    return upload;
  }
}
