import fs from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '../../store/content/blobs.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { emptyExpiredHolding, HOLDING_DAYS, moveToHolding } from '../../store/content/holding.ts';
import type { ServiceDeps } from '../common/context.ts';

export interface ReconcileResult {
  /** Files moved to the holding folder: garbage by the database's own record. */
  held: number;
  /** Content files the database has no record of at all, left where they are. */
  unknown: number;
  /** Versions whose content file is not there. */
  missing: number;
}

/**
 * Makes files and rows agree, and never by guessing. A content file is taken away only when
 * the database says it is garbage (content_garbage: a version deleted for good whose file
 * outlived the delete, a copy a crash left unfinished), and then it is moved to the library's
 * holding folder, kept there for HOLDING_DAYS, not deleted. A file the database has no record
 * of is kept where it is: it is what a database restored from an older backup, or a new one,
 * looks like from here, and "no row points to it" is no proof that it is garbage.
 */
export class ContentUpkeep {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
  ) {}

  /** The start-up pass, over every online library. Rows whose content is missing are reported, never dropped. */
  async reconcile(): Promise<ReconcileResult> {
    // Garbage recorded from now on belongs to work of this process (a copy under way), not to a crash.
    const startedAt = this.deps.now();
    // Start after the server is answering: with a million files this walk takes a while, and it
    // holds no table in memory (each file is one indexed lookup).
    await new Promise((resolve) => setImmediate(resolve));
    const total: ReconcileResult = { held: 0, unknown: 0, missing: 0 };
    for (const [libraryId, blobs] of this.content.online()) {
      const result = await this.reconcileLibrary(libraryId, blobs, startedAt);
      total.held += result.held;
      total.unknown += result.unknown;
      total.missing += result.missing;
    }
    if (total.held > 0) {
      this.deps.log.info('moved content files the database had let go of to the holding folder', { count: total.held, days: HOLDING_DAYS });
    }
    return total;
  }

  /** Maintenance: the holding folders' days past HOLDING_DAYS are emptied. */
  async emptyHolding(): Promise<number> {
    let emptied = 0;
    for (const [libraryId, blobs] of this.content.online()) {
      const days = await emptyExpiredHolding(blobs.root, this.deps.now());
      if (days > 0) this.deps.log.info('emptied the holding folder of files held over the period', { library_id: libraryId, days: days });
      emptied += days;
    }
    return emptied;
  }

  private async reconcileLibrary(libraryId: string, blobs: BlobStore, startedAt: number): Promise<ReconcileResult> {
    const { store } = this.deps;
    const root = blobs.root;
    let referenced = 0;
    let held = 0;
    let unknown = 0;
    let sinceYield = 0;
    for await (const { id: blob, file } of blobs.list()) {
      const verdict = this.judge(libraryId, blob, startedAt);
      if (verdict === 'referenced') referenced++;
      else if (verdict === 'unknown') unknown++;
      else if (verdict === 'garbage') {
        // By where it is, not by its name: a stray file in the wrong shard is not at pathOf(id).
        if (await this.hold(root, file, 'blobs')) held++;
        store.garbage.forget(libraryId, blob);
      }
      if (++sinceYield === 1000) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    for (const name of await blobs.listTemp()) {
      const uploadId = name.endsWith('.upload') ? name.slice(0, -'.upload'.length) : null;
      // A completed upload's bytes are a content file now (moved into place, or a shared file
      // with the same bytes): a temp file it left is a copy a crash kept from being removed.
      const owner = uploadId === null ? undefined : store.uploads.byId(uploadId);
      if (owner && owner.completed_node_id === null) continue;
      const file = path.join(root, 'tmp', name);
      // Written since this start: work under way (a copy being made), not a leftover.
      const stat = await fs.stat(file).catch(() => null);
      if (stat === null || stat.mtimeMs >= startedAt) continue;
      // An unfinished upload no row owns can never complete; held all the same, as anything taken away.
      if (await this.hold(root, file, 'tmp')) held++;
    }
    // Garbage whose file is already gone (removed before a crash could undo the row's removal).
    for (const row of store.garbage.onLibrary(libraryId)) {
      if ((row.reason === 'deleted' || row.at < startedAt) && !(await blobs.exists(row.blob))) {
        store.garbage.forget(libraryId, row.blob);
      }
    }
    if (unknown > 0) {
      this.deps.log.warn('kept content files this database has no record of (a database older than the files?)', {
        library_id: libraryId,
        count: unknown,
      });
    }
    // Versions with the same bytes share one content file: fewer referenced files than distinct ones means some are gone.
    const missing = Math.max(0, store.versions.countBlobsOnLibrary(libraryId) - referenced);
    if (missing > 0) this.deps.log.error('content files missing for stored versions', { library_id: libraryId, missing });
    return { held, unknown, missing };
  }

  /**
   * What the database says of one content file. Asked now, not from a list made when the walk
   * began: the server is already taking uploads and deletes meanwhile.
   */
  private judge(libraryId: string, blob: string, startedAt: number): 'referenced' | 'garbage' | 'in use' | 'unknown' {
    const { store } = this.deps;
    if (store.versions.hasBlob(libraryId, blob)) return 'referenced';
    const garbage = store.garbage.get(libraryId, blob);
    // A copy recorded unfinished since this start is still being made.
    if (garbage) return garbage.reason === 'deleted' || garbage.at < startedAt ? 'garbage' : 'in use';
    // An upload completing now records its blob before moving the file in.
    return store.uploads.holdsBlob(blob) ? 'in use' : 'unknown';
  }

  /** False when the file went meanwhile (removed by the delete that recorded it). */
  private async hold(root: string, file: string, kind: 'blobs' | 'tmp'): Promise<boolean> {
    try {
      await moveToHolding(root, file, kind, this.deps.now());
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}
