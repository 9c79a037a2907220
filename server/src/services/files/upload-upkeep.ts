import type { ContentStores } from '../../store/content/content-stores.ts';
import type { UploadRow } from '../../store/database/uploads.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { UploadCompletion } from './upload-completion.ts';
import type { UploadHashes } from './upload-hashes.ts';
import type { UploadLocks } from './upload-locks.ts';
import type { UploadProgress } from './upload-progress.ts';
import { tempName } from './upload-state.ts';

/** Uploads no request is finishing: the expired reclaimed, those whose every byte arrived finished. */
export class UploadUpkeep {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly storage: StorageHealth,
    private readonly locks: UploadLocks,
    private readonly progress: UploadProgress,
    private readonly hashes: UploadHashes,
    private readonly completion: UploadCompletion,
  ) {}

  /** Maintenance: reclaims the space of uploads abandoned past their expiry. */
  async expire(): Promise<void> {
    for (const upload of this.deps.store.uploads.expired(this.deps.now())) {
      if (this.locks.has(upload.id)) continue;
      this.progress.forget(upload.id);
      this.hashes.forget(upload.id);
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
      const release = await this.locks.take(upload.id, () => {}, false);
      try {
        const now = this.deps.store.uploads.byId(upload.id);
        if (now === undefined || now.blob === null || now.completed_node_id !== null) continue;
        // Access may have gone while the disk was full (the upload is then dropped).
        await this.completion.recheckAccess(now);
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
        this.completion.finish(upload, upload.blob, await blobs.sha256Of(upload.blob), await blobs.headOf(upload.blob));
        return;
      }
      const size = await blobs.tempSize(tempName(upload.id));
      if (size !== null && size === upload.length) {
        // A refusal (access or quota gone meanwhile) drops this upload, not the startup.
        await this.completion.complete(upload, null).catch((error: unknown) => {
          if (this.storage.classify(error)) throw error;
          this.deps.log.warn('upload not completed at startup', { upload_id: upload.id, error: String(error) });
        });
        return;
      }
    }
    if ((await blobs.tempSize(tempName(upload.id))) === null) this.deps.store.uploads.remove(upload.id);
  }
}
