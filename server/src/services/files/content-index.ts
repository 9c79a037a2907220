import crypto from 'node:crypto';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { VersionRow } from '../../store/database/versions.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FamilyFirst } from '../common/family-first.ts';
import type { ContentMerge } from './content-merge.ts';

/** Versions looked up at a time: one indexed query each, whatever the library's size. */
const BATCH = 200;

export interface FillResult {
  /** Content files whose SHA-256 was computed and recorded. */
  hashed: number;
  /** Of those, files whose bytes another content file already held: their versions now share it. */
  shared: number;
}

/**
 * The SHA-256 of every stored version, computed from its content file: what a phone's backup
 * asks about (check-hashes) and what lets an upload share a file with the same bytes. Uploads
 * record it as they arrive; versions stored by an older release have none, and get it here, in
 * the background, reading at the family's pace (FamilyFirst). A file whose bytes another content
 * file on its library already holds is merged into that one, so an existing server gets the
 * space of its duplicates back too.
 */
export class ContentIndexService {
  /** Files that could not be read (damaged, vanished): tried again by the next process, not in a loop. */
  private readonly unreadable = new Set<string>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly familyFirst: FamilyFirst,
    private readonly merge: ContentMerge,
  ) {}

  /** One pass over the versions with no SHA-256 yet, on the libraries that are online. */
  async fill(signal: AbortSignal): Promise<FillResult> {
    const result: FillResult = { hashed: 0, shared: 0 };
    let after = '';
    for (
      let batch = this.deps.store.versions.unhashed(after, BATCH);
      batch.length > 0;
      batch = this.deps.store.versions.unhashed(after, BATCH)
    ) {
      for (const version of batch) {
        after = version.id;
        if (signal.aborted) return result;
        const key = `${version.library_id}/${version.blob}`;
        if (!this.content.isOnline(version.library_id) || this.unreadable.has(key)) continue;
        const sha256 = await this.hash(version, signal).catch((error: unknown) => {
          if (signal.aborted) return null;
          this.unreadable.add(key);
          this.deps.log.warn('content file not indexed: it could not be read whole', { blob: version.blob, error: String(error) });
          return null;
        });
        if (sha256 === null) continue;
        result.hashed++;
        if (await this.record(version, sha256)) result.shared++;
      }
    }
    if (result.hashed > 0) this.deps.log.info('indexed stored files by content', { ...result });
    if (!signal.aborted) result.shared += await this.merge.mergeLeftovers(signal);
    return result;
  }

  /** Reads the content file chunk by chunk, each chunk after the family's requests. */
  private async hash(version: VersionRow, signal: AbortSignal): Promise<string> {
    const hash = crypto.createHash('sha256');
    let size = 0;
    const stream = this.content.of(version.library_id).read(version.blob);
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        if (signal.aborted) throw new Error('stopped');
        hash.update(chunk);
        size += chunk.length;
        await this.familyFirst.turn(signal);
      }
    } finally {
      stream.destroy();
    }
    // A file of another size than its versions say is damaged: its hash names bytes nobody stored.
    if (size !== version.size) throw new Error(`the file holds ${size} bytes, its version says ${version.size}`);
    return hash.digest('hex');
  }

  /**
   * Records the hash on every version of the file; where another file on the library holds the
   * same bytes, its versions move to that one and this file goes (ContentMerge). True when it went.
   */
  private async record(version: VersionRow, sha256: string): Promise<boolean> {
    this.deps.store.transaction(() => this.deps.store.versions.setSha256(version.library_id, version.blob, sha256));
    return this.merge.merge({ library_id: version.library_id, blob: version.blob, sha256, size: version.size });
  }
}
