import type { ContentStores } from '../../store/content/content-stores.ts';
import type { ServiceDeps } from '../common/context.ts';

/** A content file on a library. */
export interface ContentRef {
  library_id: string;
  blob: string;
}

/**
 * Content files are shared: every version with the same bytes on a library refers to one file
 * (two phones backing up the same photo, a restored version), so a file is garbage only once
 * no version refers to it any more. The count is the version rows themselves, asked in the
 * transaction that removes the last of them, so a crash can never leave a count that disagrees
 * with the rows. A file let go of is recorded as garbage in that same transaction: from then on
 * no upload shares it (blobWithContent skips garbage), and the file goes after the commit; a
 * crash in between leaves it to the start-up clean-up, which takes only recorded garbage.
 */
export class ContentRefs {
  constructor(
    private readonly deps: Pick<ServiceDeps, 'store' | 'log' | 'now'>,
    private readonly content: ContentStores,
  ) {}

  /**
   * Inside the transaction that removed or re-pointed the versions of `refs`: those files no
   * version refers to any more become garbage. Returns them, for `remove` after the commit.
   */
  letGo(refs: readonly ContentRef[]): ContentRef[] {
    const { store } = this.deps;
    const unreferenced: ContentRef[] = [];
    const seen = new Set<string>();
    for (const ref of refs) {
      const key = `${ref.library_id}/${ref.blob}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (store.versions.hasBlob(ref.library_id, ref.blob)) continue;
      store.garbage.add(ref.library_id, ref.blob, 'deleted', this.deps.now());
      unreferenced.push({ library_id: ref.library_id, blob: ref.blob });
    }
    return unreferenced;
  }

  /** After the commit: removes the files `letGo` gave. What cannot go now stays recorded for the clean-up. */
  async remove(refs: readonly ContentRef[]): Promise<void> {
    for (const ref of refs) {
      try {
        await this.content.of(ref.library_id).remove(ref.blob);
        this.deps.store.garbage.forget(ref.library_id, ref.blob);
      } catch (error) {
        // Offline library or I/O error: its garbage row stays, and a later reconciliation collects the file.
        this.deps.log.warn('content not removed yet', { blob: ref.blob, error: String(error) });
      }
    }
  }
}
