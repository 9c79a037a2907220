import type { UploadRow } from '../../store/database/uploads.repo.ts';
import type { ServiceDeps } from '../common/context.ts';

/** `upload.progress` events per upload per second, at most. */
const PROGRESS_PER_SECOND = 4;

/** `upload.progress` events, held to PROGRESS_PER_SECOND per upload. */
export class UploadProgress {
  /** When each upload last published progress: the limit holds across its PATCH requests. */
  private readonly progressAt = new Map<string, number>();

  constructor(private readonly deps: ServiceDeps) {}

  forget(uploadId: string): void {
    this.progressAt.delete(uploadId);
  }

  publisher(upload: UploadRow, length: number | null): (offset: number) => void {
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
}
