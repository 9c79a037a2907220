import type { Readable } from 'node:stream';
import type { Node } from '../../contract/files-responses.ts';
import { AppError } from '../../app-error.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { UploadRow } from '../../store/database/uploads.repo.ts';
import { normaliseParentId, type AccessService } from './access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import type { FileService } from './files.ts';
import { decideMimeType } from './media-types.ts';
import { cleanNodeName } from './node-names.ts';
import { newId } from '../common/secrets.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { ContentMerge } from './content-merge.ts';

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
  node: Pick<Node, 'id'> | null;
}

export interface AppendInput {
  offset: number;
  /** The total length, when the upload deferred it until now. */
  length?: number | undefined;
  checksum?: { algorithm: 'sha1' | 'sha256'; digest: Buffer } | undefined;
  /** The request's Content-Length, when it sent one. */
  bodyLength?: number | undefined;
}

/**
 * Where a finished upload also goes besides its folder, named by its metadata (an album:
 * `album_id`, see album-uploads.ts). Checked when the upload is created, before any byte is
 * sent; applied in the transaction that makes the file, so a crash cannot keep one without the other.
 */
export interface UploadTargets {
  check(actor: Actor, metadata: Record<string, string | null>): void;
  completed(uploaderId: string, metadata: Record<string, string | null>, node: Node): void;
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
    private readonly storage: StorageHealth,
    private readonly targets: UploadTargets,
    private readonly merge: ContentMerge,
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
      const release = await this.lock(id, () => {});
      try {
        const now = this.own(actor, id);
        if (now.completed_node_id !== null) return { ...toState(now, now.length ?? 0), nodeId: now.completed_node_id };
        if ((await this.content.of(now.library_id).tempSize(tempName(now.id))) !== now.length) return this.state(actor, id);
        const node = await this.complete(now, null);
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
    await this.recheckAccess(first);
    const release = await this.lock(id, () => body.destroy(new Error('superseded')));
    try {
      // Whatever held the lock before (a DELETE, a completing HEAD) may have changed the upload.
      const upload = this.own(actor, id);
      if (upload.completed_node_id !== null) return this.alreadyComplete(upload, input);
      return await this.appendLocked(upload, input, body);
    } catch (error) {
      throw await this.withHonestOffset(error, first);
    } finally {
      release();
      const row = this.deps.store.uploads.byId(id);
      if (!row || row.completed_node_id !== null) this.progressAt.delete(id);
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
    const release = await this.lock(id, () => {});
    try {
      const upload = this.own(actor, id, { cutShort: true });
      this.progressAt.delete(id);
      if (upload.completed_node_id !== null) {
        this.deps.store.uploads.remove(upload.id);
        return;
      }
      // One whose completion a full disk cut short is cancelled too: it would otherwise become
      // a file at the next start, after the person said no.
      this.drop(upload);
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

  /**
   * Forgets an unfinished upload. Its content may already be in blobs/ (a completion the disk
   * cut short after the move): that file is recorded as garbage with the row's removal, in one
   * transaction, so the clean-up takes it (to the holding folder) rather than keep it as a file
   * no database knows, warned about at every start.
   */
  private drop(upload: UploadRow): void {
    const { store } = this.deps;
    store.transaction(() => {
      if (upload.blob !== null) store.garbage.add(upload.library_id, upload.blob, 'unfinished', this.deps.now());
      store.uploads.remove(upload.id);
    });
  }

  /**
   * One request at a time per upload (PATCH, DELETE, a completing HEAD). A newer request
   * takes over from an older one still hanging on a dead connection: it asks the holder to
   * stop (`abort` of the holder), then waits until the holder has finished writing.
   */
  private async lock(id: string, abort: () => void, takeOver = true): Promise<() => void> {
    for (let held = this.locks.get(id); held; held = this.locks.get(id)) {
      if (takeOver) held.abort();
      await held.done;
    }
    let done!: () => void;
    const lock: Lock = { abort, done: new Promise((resolve) => (done = resolve)) };
    this.locks.set(id, lock);
    return () => {
      if (this.locks.get(id) === lock) this.locks.delete(id);
      done();
    };
  }

  /** Maintenance: reclaims the space of uploads abandoned past their expiry. */
  async expire(): Promise<void> {
    for (const upload of this.deps.store.uploads.expired(this.deps.now())) {
      if (this.locks.has(upload.id)) continue;
      this.progressAt.delete(upload.id);
      this.deps.store.uploads.remove(upload.id);
      await this.content
        .of(upload.library_id)
        .removeTemp(tempName(upload.id))
        .catch(() => {});
    }
  }

  /**
   * Maintenance, and whenever a disk takes writes again: uploads whose every byte arrived but
   * whose completion the disk cut short are finished now, without waiting for the client's
   * next request or a restart. Those on a disk still full (or away) wait for the next round.
   */
  async finishCutShort(): Promise<void> {
    for (const upload of this.deps.store.uploads.cutShort()) {
      if (this.locks.has(upload.id) || !this.content.isOnline(upload.library_id)) continue;
      if (this.storage.state(this.content.of(upload.library_id).root) !== 'ok') continue;
      const release = await this.lock(upload.id, () => {}, false);
      try {
        const now = this.deps.store.uploads.byId(upload.id);
        if (now === undefined || now.blob === null || now.completed_node_id !== null) continue;
        // Access may have gone while the disk was full (the upload is then dropped).
        await this.recheckAccess(now);
        await this.recoverOne(now);
      } catch (error) {
        if (!this.storage.noteFailure(error)) this.deps.log.warn('upload not completed', { upload_id: upload.id, error: String(error) });
      } finally {
        release();
      }
    }
  }

  /**
   * Startup: an upload whose bytes were complete when the server stopped is finished now,
   * so an acknowledged byte is never lost; one whose temp file vanished is forgotten.
   */
  async recover(): Promise<void> {
    for (const upload of this.deps.store.uploads.all()) {
      if (upload.completed_node_id !== null) continue;
      try {
        await this.recoverOne(upload);
      } catch (error) {
        // A full disk must not stop the start: the upload stays as it is on disk, finished by
        // the client's next HEAD or a later start.
        if (!this.storage.noteFailure(error)) throw error;
        this.deps.log.warn('upload not completed at startup: the disk is full', { upload_id: upload.id });
      }
    }
  }

  private async recoverOne(upload: UploadRow): Promise<void> {
    let blobs;
    try {
      blobs = this.content.of(upload.library_id);
    } catch {
      return;
    }
    if (upload.blob !== null) {
      if (await blobs.exists(upload.blob)) {
        this.finish(upload, upload.blob, await blobs.sha256Of(upload.blob), await blobs.headOf(upload.blob));
        return;
      }
      const size = await blobs.tempSize(tempName(upload.id));
      if (size !== null && size === upload.length) {
        // A refusal (access or quota gone meanwhile) drops this upload, not the startup.
        await this.complete(upload, null).catch((error: unknown) => {
          if (this.storage.classify(error)) throw error;
          this.deps.log.warn('upload not completed at startup', { upload_id: upload.id, error: String(error) });
        });
        return;
      }
    }
    if ((await blobs.tempSize(tempName(upload.id))) === null) this.deps.store.uploads.remove(upload.id);
  }

  /**
   * Finishes an upload whose bytes all arrived but whose completion the disk cut short (its
   * content id is recorded, the move or the commit failed), under its lock: waiting for a
   * completion still running rather than taking over from it. Returns the completed row.
   */
  private async completeCutShort(actor: Actor, id: string): Promise<UploadRow> {
    const release = await this.lock(id, () => {}, false);
    try {
      const upload = this.own(actor, id, { cutShort: true });
      if (upload.completed_node_id !== null) return upload;
      if (upload.blob === null) throw new AppError('not_found');
      // Access may have gone while the disk was full.
      await this.recheckAccess(upload);
      const blobs = this.content.of(upload.library_id);
      if (await blobs.exists(upload.blob)) {
        this.finish(upload, upload.blob, await blobs.sha256Of(upload.blob), await blobs.headOf(upload.blob));
      } else if ((await blobs.tempSize(tempName(upload.id))) === upload.length) {
        await this.complete(upload, null);
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
    // A full disk answers before reading a byte of the body (with the offset, added by append).
    this.storage.assertWritable(blobs.root);
    let limit = length === null ? MAX_UPLOAD_BYTES - current : length - current;
    let overQuota = false;
    // While the length is unknown, creation reserved nothing: each PATCH takes its bytes from
    // what the quota has left, held for the request so parallel PATCHes share it.
    let releaseQuota = () => {};
    if (length === null) {
      const remaining = Math.max(0, this.files.remainingQuota(upload.owner_id, this.deps.store.uploads.pendingBytes(upload.owner_id)));
      if (input.bodyLength !== undefined && input.bodyLength > remaining) throw new AppError('quota_exceeded');
      if (remaining < limit) {
        const wanted = Math.min(input.bodyLength ?? remaining, remaining);
        releaseQuota = this.files.reserveQuota(upload.owner_id, wanted);
        limit = wanted;
        overQuota = true;
      }
    }
    const writing = this.storage.beginWrite(blobs.root);
    try {
      const progress = this.progressPublisher(upload, length);
      const result = await blobs
        .writeTemp(tempName(upload.id), current, body, {
          limit,
          digest: input.checksum?.algorithm,
          // A request from the first byte is usually the whole file (the web app sends one): its
          // SHA-256 comes with the write, and completion need not read the file again.
          sha256: current === 0,
          onProgress: (written) => progress(current + written),
        })
        .finally(writing);
      if (result.overflow) {
        await blobs.truncateTemp(tempName(upload.id), current);
        if (overQuota) throw new AppError('quota_exceeded');
        throw new AppError('payload_too_large', 'More bytes arrived than the upload declared.');
      }
      return await this.afterWrite(upload, input, length, current, result, progress);
    } finally {
      releaseQuota();
    }
  }

  private async afterWrite(
    upload: UploadRow,
    input: AppendInput,
    length: number | null,
    current: number,
    result: { written: number; digest: Buffer | null; sha256: Buffer | null; error: Error | null },
    progress: (offset: number) => void,
  ): Promise<AppendResult> {
    const blobs = this.content.of(upload.library_id);
    // The disk filled up (or turned read-only) under this request: what it took stays, and the
    // answer says so (507 with the offset on disk), never a 204 as if the client had sent less.
    const fault = result.error ? this.storage.noteFailure(result.error, blobs.root) : null;
    if (input.checksum && !result.error && !result.digest!.equals(input.checksum.digest)) {
      // The whole request is discarded: the client resends it from the same offset.
      await blobs.truncateTemp(tempName(upload.id), current);
      throw new AppError('checksum_mismatch');
    }
    if (result.error && input.checksum) {
      // Unverifiable: the partial bytes of a checksummed request are never kept.
      await blobs.truncateTemp(tempName(upload.id), current);
      if (fault) throw this.storage.refusal(fault);
      throw new AppError('checksum_mismatch', 'The request ended before its data was complete; send it again.');
    }
    // A dropped connection keeps what arrived (tus): the client asks HEAD and resumes from there.
    const offset = current + result.written;
    const expiresAt = this.deps.now() + this.deps.config.uploadExpiryMs;
    this.deps.store.uploads.progress(upload.id, offset, expiresAt);
    progress(offset);
    if (fault) throw this.storage.refusal(fault);
    const complete = length !== null && offset === length;
    const wholeSha256 = current === 0 && result.sha256 ? result.sha256.toString('hex') : null;
    const node = complete ? await this.complete({ ...upload, length }, wholeSha256) : null;
    return { offset, expiresAt, node };
  }

  /**
   * Every byte is there: check the quota again, move the file into place, make the node.
   * `sha256`: of the whole file when the bytes were hashed as they arrived; otherwise (an
   * upload sent in several requests, or resumed) it is read from the file here.
   */
  private async complete(upload: UploadRow, sha256: string | null): Promise<Node> {
    const blobs = this.content.of(upload.library_id);
    // Access may have gone while the bytes arrived (or before a completing HEAD).
    await this.recheckAccess(upload);
    let release: () => void;
    try {
      // Check and reservation in one step: completions running in parallel see each other.
      release = this.files.reserveQuota(upload.owner_id, upload.length ?? 0);
    } catch (error) {
      this.drop(upload);
      await blobs.removeTemp(tempName(upload.id));
      throw error;
    }
    try {
      const contentSha256 = sha256 ?? (await blobs.sha256OfTemp(tempName(upload.id)));
      // The same work whoever else holds these bytes: the file is kept as its own, and merged
      // with another holding the same bytes after the answer (content-merge.ts says why).
      const blob = newId();
      // Recorded before the move: if the server dies after it, startup finishes the job.
      this.deps.store.uploads.setBlob(upload.id, blob);
      const head = await blobs.headOfTemp(tempName(upload.id));
      await blobs.commitTemp(tempName(upload.id), blob);
      return this.finish(upload, blob, contentSha256, head);
    } finally {
      release();
    }
  }

  private finish(upload: UploadRow, blob: string, sha256: string, head: Buffer): Node {
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
      this.targets.completed(upload.user_id, JSON.parse(upload.metadata) as Record<string, string | null>, dto);
      return dto;
    });
    this.merge.soon({ library_id: upload.library_id, blob, sha256, size: upload.length ?? 0 });
    return node;
  }

  /**
   * Access is checked again on every PATCH and at completion: an account whose access to a
   * shared folder was removed cannot finish an upload into it. Its upload is dropped and its
   * space released.
   */
  private async recheckAccess(upload: UploadRow): Promise<void> {
    if (upload.owner_id === upload.user_id) return;
    const uploader = { userId: upload.user_id };
    try {
      if (upload.node_id !== null) this.access.node(uploader, upload.node_id, 'write');
      else this.access.targetFolder(uploader, upload.parent_id);
    } catch (error) {
      this.drop(upload);
      await this.content
        .of(upload.library_id)
        .removeTemp(tempName(upload.id))
        .catch(() => {});
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
