import fs from 'node:fs';
import path from 'node:path';
import { holdsContent } from '../../store/content/content-stores.ts';
import { holdsFilesOf, LIBRARY_MARKER, markerState, writeMarker } from '../../store/content/library-marker.ts';
import type { LibraryRow } from '../../store/database/libraries.repo.ts';
import type { ServiceDeps } from '../common/context.ts';

/** How many content files a folder may show before it is judged not to be a library's (each one a lookup). */
const MARKER_PROOF_SCAN_LIMIT = 1000;

/**
 * A library whose marker a power cut or a pulled drive left empty or garbled (or took away)
 * is recognised by its files: when its folder holds a content file or an upload that the
 * database records on this library, the marker is written again and the library comes back.
 * A marker naming another library is never overwritten, and an empty folder is never taken
 * for the library (an empty mount point is not the drive), unless its marker is there but
 * damaged and the library holds nothing the folder should have.
 */
export class MarkerRepair {
  /** Per library, how its folder looked when its files last failed to prove it. */
  private readonly unproven = new Map<string, string>();

  constructor(private readonly deps: ServiceDeps) {}

  forget(libraryId: string): void {
    this.unproven.delete(libraryId);
  }

  repair(library: LibraryRow): boolean {
    const state = markerState(library.path);
    if (state.kind === 'names' || state.kind === 'unreadable') return false;
    // An offline library is looked at every few seconds: its folder is walked again only once
    // something there changed since the walk that did not prove it (a drive mounted on it,
    // files or a marker written), not a thousand lookups each time.
    const look = folderLook(library.path, state.kind);
    if (this.unproven.get(library.id) === look) return false;
    const { store } = this.deps;
    const proven = holdsFilesOf(
      library.path,
      {
        knowsBlob: (blob) => store.versions.hasBlob(library.id, blob) || store.garbage.get(library.id, blob) !== undefined,
        knowsUpload: (uploadId) => store.uploads.byId(uploadId)?.library_id === library.id,
      },
      MARKER_PROOF_SCAN_LIMIT,
    );
    const emptyLibrary =
      state.kind === 'damaged' &&
      !holdsContent(library.path) &&
      store.versions.countOnLibrary(library.id) === 0 &&
      store.uploads.countOnLibrary(library.id) === 0;
    if (!proven && !emptyLibrary) {
      this.unproven.set(library.id, look);
      return false;
    }
    this.unproven.delete(library.id);
    try {
      writeMarker(library.path, library.id);
    } catch (error) {
      this.deps.log.warn('a library marker could not be written again', { library_id: library.id, error: String(error) });
      return false;
    }
    this.deps.log.warn("wrote a library marker again: it was damaged or missing, and the folder holds this library's files", {
      library_id: library.id,
      marker: state.kind,
    });
    return true;
  }
}

/**
 * How a library folder looks, cheaply: its marker's state and the identity and times of the
 * folder, its marker, blobs/ and tmp/. A drive mounted on the folder, a file added to tmp/ or
 * a new shard in blobs/, a marker written or damaged: each changes it.
 */
function folderLook(folder: string, marker: string): string {
  const parts = [marker];
  for (const entry of [folder, path.join(folder, LIBRARY_MARKER), path.join(folder, 'blobs'), path.join(folder, 'tmp')]) {
    try {
      const stat = fs.statSync(entry, { throwIfNoEntry: false, bigint: true });
      parts.push(stat === undefined ? '-' : `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.size}`);
    } catch (error) {
      parts.push(String((error as NodeJS.ErrnoException).code));
    }
  }
  return parts.join('|');
}
