import type { Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AppError } from '../../app-error.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { UploadRow } from '../../store/database/uploads.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FileService } from './files.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { UploadCompletion } from './upload-completion.ts';
import type { UploadHashes } from './upload-hashes.ts';
import type { UploadProgress } from './upload-progress.ts';
import { MAX_UPLOAD_BYTES, tempName, type AppendInput, type AppendResult } from './upload-state.ts';

interface WriteResult {
  written: number;
  digest: Buffer | null;
  hashedTo: number;
  error: Error | null;
}

/** A PATCH's bytes onto an upload's temp file, under its lock: offset, length and quota checked first. */
export class UploadWrites {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly files: FileService,
    private readonly content: ContentStores,
    private readonly storage: StorageHealth,
    private readonly completion: UploadCompletion,
    private readonly progress: UploadProgress,
    private readonly hashes: UploadHashes,
  ) {}

  async append(upload: UploadRow, input: AppendInput, body: Readable): Promise<AppendResult> {
    const blobs = this.content.of(upload.library_id);
    const current = await blobs.tempSize(tempName(upload.id));
    if (current === null) throw new AppError('not_found');
    if (input.offset !== current) {
      throw new AppError('offset_mismatch', `The upload is at byte ${current}, not ${input.offset}.`, {
        headers: { 'Upload-Offset': String(current) },
      });
    }
    const length = this.settleLength(upload, input, current);
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
    // The file's SHA-256 grows with each request that continues where the last one ended, so
    // completion need not read the whole file again. `before`: where a refused request's bytes
    // are cut off again, the hash goes back with them.
    const sha256 = this.hashes.take(upload.id, current);
    const before = sha256?.copy() ?? null;
    const writing = this.storage.beginWrite(blobs.root);
    try {
      const progress = this.progress.publisher(upload, length);
      const result = await blobs
        .writeTemp(tempName(upload.id), current, body, {
          limit,
          digest: input.checksum?.algorithm,
          sha256,
          onProgress: (written) => progress(current + written),
        })
        .finally(writing);
      if (result.overflow) {
        await this.truncate(upload, current, before);
        if (overQuota) throw new AppError('quota_exceeded');
        throw new AppError('payload_too_large', 'More bytes arrived than the upload declared.');
      }
      return await this.afterWrite(upload, input, length, current, result, progress, sha256, before);
    } finally {
      releaseQuota();
    }
  }

  /** Cuts a refused request's bytes off again; the running hash goes back to where they began. */
  private async truncate(upload: UploadRow, current: number, before: Hash | null): Promise<void> {
    this.hashes.forget(upload.id);
    await this.content.of(upload.library_id).truncateTemp(tempName(upload.id), current);
    if (before) this.hashes.keep(upload.id, before, current);
  }

  /** The upload's length, or the one this request declares now for an upload that deferred it. */
  private settleLength(upload: UploadRow, input: AppendInput, current: number): number | null {
    const length = upload.length;
    if (input.length === undefined) return length;
    if (length !== null && length !== input.length) throw new AppError('invalid_input', 'Upload-Length cannot change.');
    if (length !== null) return length;
    if (input.length < current) throw new AppError('invalid_input', 'Upload-Length is below the bytes already sent.');
    if (input.length > MAX_UPLOAD_BYTES) throw new AppError('payload_too_large');
    // Pending bytes include this upload's own offset, which `input.length` already covers.
    const pending = this.deps.store.uploads.pendingBytes(upload.owner_id) - upload.offset;
    this.files.assertQuota(upload.owner_id, input.length, pending);
    this.deps.store.uploads.setLength(upload.id, input.length);
    return input.length;
  }

  private async afterWrite(
    upload: UploadRow,
    input: AppendInput,
    length: number | null,
    current: number,
    result: WriteResult,
    progress: (offset: number) => void,
    sha256: Hash | null,
    before: Hash | null,
  ): Promise<AppendResult> {
    const blobs = this.content.of(upload.library_id);
    // The disk filled up (or turned read-only) under this request: what it took stays, and the
    // answer says so (507 with the offset on disk), never a 204 as if the client had sent less.
    const fault = result.error ? this.storage.noteFailure(result.error, blobs.root) : null;
    if (input.checksum && !result.error && !result.digest!.equals(input.checksum.digest)) {
      // The whole request is discarded: the client resends it from the same offset.
      await this.truncate(upload, current, before);
      throw new AppError('checksum_mismatch');
    }
    if (result.error && input.checksum) {
      // Unverifiable: the partial bytes of a checksummed request are never kept.
      await this.truncate(upload, current, before);
      if (fault) throw this.storage.refusal(fault);
      throw new AppError('checksum_mismatch', 'The request ended before its data was complete; send it again.');
    }
    // A dropped connection keeps what arrived (tus): the client asks HEAD and resumes from there.
    const offset = current + result.written;
    // The hash is only worth keeping if it covers exactly the bytes on disk.
    const hashed = sha256 !== null && result.hashedTo === offset ? sha256 : null;
    const complete = length !== null && offset === length;
    if (hashed && !complete) this.hashes.keep(upload.id, hashed, offset);
    const expiresAt = this.deps.now() + this.deps.config.uploadExpiryMs;
    this.deps.store.uploads.progress(upload.id, offset, expiresAt);
    progress(offset);
    if (fault) throw this.storage.refusal(fault);
    const wholeSha256 = complete && hashed ? hashed.digest('hex') : null;
    const node = complete ? await this.completion.complete({ ...upload, length }, wholeSha256) : null;
    return { offset, expiresAt, node };
  }
}
