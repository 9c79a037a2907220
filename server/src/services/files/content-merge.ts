import type { ContentStores } from '../../store/content/content-stores.ts';
import type { ServiceDeps } from '../common/context.ts';
import { KeyedLock } from '../common/keyed-lock.ts';
import { ContentRefs } from './content-refs.ts';

/** A content file and what its bytes are. */
export interface HashedContent {
  library_id: string;
  blob: string;
  sha256: string;
  size: number;
}

/** What a merge must know of the rest of the server. */
export interface MergeSurroundings {
  /**
   * Whether something reads content files by names it took earlier (a backup, by its own copy
   * of the database; a zip, by its plan): a file merged away meanwhile would be missing from the
   * snapshot or cut the zip short, so merges wait.
   */
  filesInUse(): boolean;
  /** Told after files were merged: the playback copy of the one that went is no longer needed. */
  merged(): void;
}

/** Playback states a copy ends in: two files' copies are alike only once both are in one of them. */
const SETTLED = new Set(['ready', 'not_needed', 'failed']);
/** Duplicate groups looked at in one pass. */
const BATCH = 200;

/**
 * Files with the same bytes on a library are kept once, in the background. An upload always
 * keeps its own file and answers the same whoever else holds those bytes (reading the other
 * file to compare, or sharing it, took measurably longer, and told the uploader that someone
 * had them); afterwards its file is compared with one already holding the same SHA-256 (by
 * reading it: a record is not proof) and its versions move to that one, its own file going.
 *
 * A video's two files merge only once each has its own playback copy settled the same way
 * (both made, both not needed, both failed): a second account's upload of a video another
 * account holds goes through "being prepared" as new bytes would, and is merged only after.
 * No merge takes a file away while a backup runs; what waits is merged by the content index job.
 */
export class ContentMerge {
  private readonly refs: ContentRefs;
  private readonly sameContent = new KeyedLock();
  private readonly running = new Set<Promise<unknown>>();
  /** Files may be left apart: at start (a stop before their merge), and after a merge put off. Looked for by the job only then. */
  private leftovers = true;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly around: MergeSurroundings,
  ) {
    this.refs = new ContentRefs(deps, content);
  }

  /** After an upload answered: its file merged into another with the same bytes, when there is one. */
  soon(file: HashedContent): void {
    const merging = this.merge(file)
      .catch((error: unknown) => {
        this.leftovers = true;
        this.deps.log.warn('content not merged yet', { blob: file.blob, error: String(error) });
      })
      .finally(() => this.running.delete(merging));
    this.running.add(merging);
  }

  /** Resolves once the merges asked for so far are done (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  /** Moves the versions of `file` to another file holding the same bytes; true when `file` went. */
  merge(file: HashedContent): Promise<boolean> {
    const never = new AbortController().signal;
    return this.sameContent.acquire([`${file.library_id}/${file.sha256}`], never).then(async (release) => {
      try {
        return await this.mergeLocked(file);
      } finally {
        release();
      }
    });
  }

  /**
   * The pass of the content index job: files with the same bytes still apart (a stop before
   * their merge, videos whose copies were not settled yet); how many were merged.
   */
  async mergeLeftovers(signal: AbortSignal): Promise<number> {
    if (!this.leftovers) return 0;
    this.leftovers = false;
    let merged = 0;
    const tried = new Set<string>();
    for (const group of this.deps.store.versions.duplicates(BATCH)) {
      if (signal.aborted) break;
      if (tried.has(group.blob) || !this.content.isOnline(group.library_id)) continue;
      tried.add(group.blob);
      if (await this.merge(group)) merged++;
    }
    if (merged > 0) this.deps.log.info('merged files with the same bytes', { count: merged });
    return merged;
  }

  private async mergeLocked(file: HashedContent): Promise<boolean> {
    const { store } = this.deps;
    const other = store.versions.blobWithContent(file.library_id, file.sha256, file.size, file.blob);
    if (other === undefined) return false;
    if (!this.mayMerge(file.library_id, file.blob, other)) {
      this.leftovers = true;
      return false;
    }
    const same = await this.content
      .of(file.library_id)
      .sha256Of(other)
      .then(
        (found) => found === file.sha256,
        () => false,
      );
    if (!same) {
      this.deps.log.warn('a stored content file no longer matches its checksum: not shared', { blob: other });
      return false;
    }
    const released = store.transaction(() => {
      // Decided again where it is done: a delete may have let go of either meanwhile, and a
      // backup that starts after this commit copies a database that names only `other`.
      const kept = (blob: string) => store.versions.hasBlob(file.library_id, blob) && !store.garbage.get(file.library_id, blob);
      if (!kept(file.blob) || !kept(other)) return [];
      if (!this.mayMerge(file.library_id, file.blob, other)) {
        this.leftovers = true;
        return [];
      }
      store.versions.repoint(file.library_id, file.blob, other);
      return this.refs.letGo([{ library_id: file.library_id, blob: file.blob }]);
    });
    await this.refs.remove(released);
    if (released.length > 0) this.around.merged();
    return released.length > 0;
  }

  private mayMerge(libraryId: string, a: string, b: string): boolean {
    return !this.around.filesInUse() && this.copiesAlike(libraryId, a, b);
  }

  /** Whether merging the two files changes nothing a viewer of either sees of its playback copy. */
  private copiesAlike(libraryId: string, a: string, b: string): boolean {
    const first = this.deps.store.playback.get(libraryId, a);
    const second = this.deps.store.playback.get(libraryId, b);
    if (!first && !second) return !this.isVideo(libraryId, a) && !this.isVideo(libraryId, b);
    return first !== undefined && second !== undefined && SETTLED.has(first.state) && first.state === second.state;
  }

  private isVideo(libraryId: string, blob: string): boolean {
    return this.deps.store.playback.holders(libraryId, blob).some((node) => node.mime_type?.startsWith('video/'));
  }
}
