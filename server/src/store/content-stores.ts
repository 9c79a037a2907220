import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../errors.ts';
import { BlobStore } from './blobs.ts';
import { HOLDING_FOLDER } from './holding.ts';
import type { LibrariesRepo, LibraryRow } from './libraries.repo.ts';

export const INTERNAL_LIBRARY_ID = 'internal';

/**
 * The blob store of each library. Content on a library that is not online answers 503
 * `library_offline`: nothing is deleted or forgotten, it waits for the drive to return.
 */
export class ContentStores {
  private readonly stores = new Map<string, BlobStore>();

  private constructor(private readonly libraries: LibrariesRepo) {}

  /** Makes sure the internal library (under the data dir) exists and opens every online library. */
  static async open(libraries: LibrariesRepo, dataDir: string, now: number): Promise<ContentStores> {
    const internalPath = path.join(dataDir, 'files');
    const internal = libraries.internal();
    if (!internal) {
      libraries.insert({
        id: INTERNAL_LIBRARY_ID,
        name: 'This computer',
        kind: 'internal',
        path: internalPath,
        is_default: 1,
        status: 'online',
        created_at: now,
        mount_spec: null,
      });
    } else if (internal.path !== internalPath) {
      // The data dir was moved: the internal library moves with it.
      libraries.setPath(internal.id, internalPath);
    }
    const stores = new ContentStores(libraries);
    for (const library of libraries.all()) {
      if (library.kind === 'internal') {
        stores.stores.set(library.id, await BlobStore.open(library.path));
      } else if (library.status !== 'ejected') {
        // A drive that is not there (or not the one registered) is offline: nothing is forgotten.
        const present = hasMarker(library);
        libraries.setStatus(library.id, present ? 'online' : 'offline');
        if (present) stores.stores.set(library.id, await BlobStore.open(library.path));
      }
    }
    return stores;
  }

  /** Where new content goes. */
  defaultLibrary(): { library: LibraryRow; blobs: BlobStore } {
    const library = this.libraries.defaultLibrary();
    const blobs = library && this.stores.get(library.id);
    if (!library || !blobs) throw new AppError('library_offline');
    return { library, blobs };
  }

  of(libraryId: string): BlobStore {
    const blobs = this.stores.get(libraryId);
    if (!blobs) throw new AppError('library_offline');
    return blobs;
  }

  online(): [string, BlobStore][] {
    return [...this.stores];
  }

  isOnline(libraryId: string): boolean {
    return this.stores.has(libraryId);
  }

  async attach(library: LibraryRow): Promise<void> {
    this.stores.set(library.id, await BlobStore.open(library.path));
  }

  detach(libraryId: string): void {
    this.stores.delete(libraryId);
  }
}

export const LIBRARY_MARKER = '.hearth-library';

/** The library id a folder's marker names, or null when it has none. */
export function readMarker(folder: string): string | null {
  try {
    return fs.readFileSync(path.join(folder, LIBRARY_MARKER), 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** A library folder carries a marker with its id: an empty mount point is not the library. */
export function hasMarker(library: Pick<LibraryRow, 'id' | 'path'>): boolean {
  try {
    return fs.readFileSync(path.join(library.path, LIBRARY_MARKER), 'utf8').trim() === library.id;
  } catch {
    return false;
  }
}

/** What a file system or a desktop puts in a folder by itself: not the owner's files. */
function isHousekeeping(name: string): boolean {
  return ['lost+found', 'System Volume Information', '$RECYCLE.BIN', '.DS_Store', '.Spotlight-V100', '.fseventsd', '.Trashes'].includes(name) || name.startsWith('.Trash-');
}

/** The folders a library owns outright: content files, and uploads under way. */
const OWNED_FOLDERS = ['blobs', 'tmp'];

export type FolderContents = { kind: 'empty' } | { kind: 'library'; id: string } | { kind: 'other' };

/**
 * What a folder holds before it becomes a library: nothing (housekeeping aside), a library
 * folder (whose marker names an id), or someone's files. A library owns everything under its
 * blobs/ and tmp/, so a folder with files of its own must never become one: a user's "tmp"
 * folder would be taken away (to the holding folder) at the next start.
 */
export function inspectFolder(folder: string): FolderContents {
  const id = readMarker(folder);
  if (id !== null) return { kind: 'library', id };
  return fs.readdirSync(folder).every(isHousekeeping) ? { kind: 'empty' } : { kind: 'other' };
}

/** Whether any content file, referenced or not, is left in a library folder (stops at the first). */
export function holdsContent(folder: string): boolean {
  return OWNED_FOLDERS.some((name) => holdsFile(path.join(folder, name)));
}

/**
 * File names under `blobs/<shard>/`, one at a time, without listing a million files at once.
 * Entry types are not trusted (a file system may not report them): a shard is whatever opens
 * as a folder, a file whatever is not one.
 */
export function* contentFileNames(blobsDir: string): Generator<string> {
  let shards: fs.Dir;
  try {
    shards = fs.opendirSync(blobsDir);
  } catch {
    return;
  }
  try {
    for (let shard = shards.readSync(); shard !== null; shard = shards.readSync()) {
      let files: fs.Dir;
      try {
        files = fs.opendirSync(path.join(blobsDir, shard.name));
      } catch {
        continue;
      }
      try {
        for (let entry = files.readSync(); entry !== null; entry = files.readSync()) if (!entry.isDirectory()) yield entry.name;
      } finally {
        files.closeSync();
      }
    }
  } finally {
    shards.closeSync();
  }
}

function holdsFile(dir: string): boolean {
  let handle: fs.Dir;
  try {
    handle = fs.opendirSync(dir);
  } catch {
    return false;
  }
  try {
    for (let entry = handle.readSync(); entry !== null; entry = handle.readSync()) {
      if (!entry.isDirectory() || holdsFile(path.join(dir, entry.name))) return true;
    }
    return false;
  } finally {
    handle.closeSync();
  }
}

/**
 * Takes a library's own things out of its folder (the marker, blobs/ and tmp/, which hold no
 * referenced content by then, and the holding folder) so the folder is what it was before;
 * the folder itself stays.
 */
export function clearLibraryFolder(folder: string): void {
  fs.rmSync(path.join(folder, LIBRARY_MARKER), { force: true });
  for (const name of [...OWNED_FOLDERS, HOLDING_FOLDER]) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
}
