import type { Node } from '../../contract/files-responses.ts';
import { AppError } from '../../app-error.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { UploadRow } from '../../store/database/uploads.repo.ts';
import type { AccessService } from './access.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FileService } from './files.ts';
import { decideMimeType } from './media-types.ts';
import { newId } from '../common/secrets.ts';
import type { ContentMerge } from './content-merge.ts';
import { tempName, type UploadTargets } from './upload-state.ts';
import { earlyCaptureTime, hintedCaptureTime, type CaptureMoment } from '../../media/early-capture.ts';

/** An upload whose every byte arrived becoming a file, and one that may no longer be kept dropped. */
export class UploadCompletion {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly files: FileService,
    private readonly content: ContentStores,
    private readonly targets: UploadTargets,
    private readonly merge: ContentMerge,
  ) {}

  /**
   * Every byte is there: check the quota again, move the file into place, make the node.
   * `sha256`: of the whole file when the bytes were hashed as they arrived; otherwise (an
   * upload sent in several requests, or resumed) it is read from the file here.
   */
  async complete(upload: UploadRow, sha256: string | null): Promise<Node> {
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
      return this.finish(upload, blob, contentSha256, head, await this.captureOf(upload, blobs.pathOf(blob), head));
    } finally {
      release();
    }
  }

  finish(upload: UploadRow, blob: string, sha256: string, head: Buffer, capture: CaptureMoment | null = null): Node {
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
        capture,
      });
      this.deps.store.uploads.markCompleted(upload.id, dto.id, this.deps.now() + this.deps.config.uploadExpiryMs);
      this.targets.completed(upload.user_id, JSON.parse(upload.metadata) as Record<string, string | null>, dto);
      return dto;
    });
    this.merge.soon({ library_id: upload.library_id, blob, sha256, size: upload.length ?? 0 });
    return node;
  }

  /**
   * When the photo or video was taken, read before its node exists so that it appears in its
   * month at once, not under today until processing: the file's own date, else the date the
   * uploading device gave (a phone's file date).
   */
  private async captureOf(upload: UploadRow, file: string, head: Buffer): Promise<CaptureMoment | null> {
    const metadata = JSON.parse(upload.metadata) as Record<string, string | null>;
    const mime = decideMimeType(head, upload.filename, upload.filetype);
    const now = this.deps.now();
    return (await earlyCaptureTime(file, mime, now)) ?? hintedCaptureTime(metadata, now);
  }

  /**
   * Access is checked again on every PATCH and at completion: an account whose access to a
   * shared folder was removed cannot finish an upload into it. Its upload is dropped and its
   * space released.
   */
  async recheckAccess(upload: UploadRow): Promise<void> {
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

  /**
   * Forgets an unfinished upload. Its content may already be in blobs/ (a completion the disk
   * cut short after the move): that file is recorded as garbage with the row's removal, in one
   * transaction, so the clean-up takes it (to the holding folder) rather than keep it as a file
   * no database knows, warned about at every start.
   */
  drop(upload: UploadRow): void {
    const { store } = this.deps;
    store.transaction(() => {
      if (upload.blob !== null) store.garbage.add(upload.library_id, upload.blob, 'unfinished', this.deps.now());
      store.uploads.remove(upload.id);
    });
  }
}
