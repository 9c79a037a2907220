import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import { BlobStore } from './blobs.ts';
import { HOLDING_FOLDER } from './holding.ts';
import { hasMarker, LIBRARY_MARKER, readMarker } from './library-marker.ts';
import type { LibrariesRepo, LibraryRow } from '../database/libraries.repo.ts';
import { PLAYBACK_FOLDER } from './playback-files.ts';

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

/** What a file system or a desktop puts in a folder by itself: not the owner's files. */
function isHousekeeping(name: string): boolean {
  return (
    ['lost+found', 'System Volume Information', '$RECYCLE.BIN', '.DS_Store', '.Spotlight-V100', '.fseventsd', '.Trashes'].includes(name) ||
    name.startsWith('.Trash-')
  );
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
  const marker = readMarker(folder);
  if (marker !== null) return { kind: 'library', id: marker.id };
  return fs.readdirSync(folder).every(isHousekeeping) ? { kind: 'empty' } : { kind: 'other' };
}

/** Whether any content file, referenced or not, is left in a library folder (stops at the first). */
export function holdsContent(folder: string): boolean {
  return OWNED_FOLDERS.some((name) => holdsFile(path.join(folder, name)));
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
 * referenced content by then, and the playback copies made from it) so the folder is what it
 * was before; the folder itself stays.
 * The holding folder goes only once it is empty: its days are emptied by their own rule
 * (holding.ts), and what is not a day's folder is not the server's.
 */
export function clearLibraryFolder(folder: string): void {
  fs.rmSync(path.join(folder, LIBRARY_MARKER), { force: true });
  for (const name of [...OWNED_FOLDERS, PLAYBACK_FOLDER]) fs.rmSync(path.join(folder, name), { recursive: true, force: true });
  try {
    fs.rmdirSync(path.join(folder, HOLDING_FOLDER));
  } catch (error) {
    if (!['ENOENT', 'ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
  }
}
