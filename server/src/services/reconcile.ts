import type { ContentStores } from '../store/content-stores.ts';
import type { ServiceDeps } from './context.ts';

/**
 * Startup pass that makes files and rows agree. Content files no row points to (left by a
 * crash between a delete's commit and the unlink, or between an upload's move and its
 * commit) are removed; temp files of uploads that no longer exist are removed; rows whose
 * content is missing are reported, never silently dropped.
 */
export async function reconcileContent(deps: ServiceDeps, content: ContentStores): Promise<{ orphans: number; missing: number }> {
  // Start after the server is answering: with a million files this walk takes a while, and it
  // holds no table in memory (each file is one indexed lookup).
  await new Promise((resolve) => setImmediate(resolve));
  let orphans = 0;
  let missing = 0;
  for (const [libraryId, blobs] of content.online()) {
    let referenced = 0;
    let sinceYield = 0;
    for await (const { id: blob, file } of blobs.list()) {
      if (deps.store.versions.hasBlob(libraryId, blob)) {
        referenced++;
      } else if (!deps.store.uploads.holdsBlob(blob)) {
        // Asked now, not from a list made when the walk began: the server is already taking
        // uploads, and one completing meanwhile records its blob before moving the file in.
        // By where it is, not by its name: a stray file in the wrong shard is not at pathOf(id).
        await blobs.removeListed(file);
        orphans++;
      }
      if (++sinceYield === 1000) {
        sinceYield = 0;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    for (const name of await blobs.listTemp()) {
      const uploadId = name.endsWith('.upload') ? name.slice(0, -'.upload'.length) : null;
      if (uploadId === null || !deps.store.uploads.byId(uploadId)) {
        await blobs.removeTemp(name).catch(() => {});
        orphans++;
      }
    }
    // Every version has its own content file, so fewer referenced files than versions means some are gone.
    const libraryMissing = deps.store.versions.countOnLibrary(libraryId) - referenced;
    if (libraryMissing > 0) {
      missing += libraryMissing;
      deps.log.error('content files missing for stored versions', { library_id: libraryId, missing: libraryMissing });
    }
  }
  if (orphans > 0) deps.log.info('removed orphaned content files', { count: orphans });
  return { orphans, missing };
}
