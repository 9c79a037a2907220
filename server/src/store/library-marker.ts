import fs from 'node:fs';
import path from 'node:path';
import { contentFileNames, LIBRARY_MARKER } from './content-stores.ts';
import { writeFileDurably } from './durable-file.ts';

/** What a library folder's marker says: a library id, nothing readable, or that the drive cannot be read. */
export type MarkerState =
  | { kind: 'names'; id: string }
  /** No marker file at all. */
  | { kind: 'missing' }
  /** A marker that is empty or not an id (zeros, garbage): what a power cut leaves of a marker not fsynced. */
  | { kind: 'damaged' }
  /** The folder cannot be read (a drive gone, an I/O error): nothing can be judged now. */
  | { kind: 'unreadable' };

const ID = /^[0-9A-Za-z_-]{1,80}$/;

export function markerState(folder: string): MarkerState {
  let text: string;
  try {
    text = fs.readFileSync(path.join(folder, LIBRARY_MARKER), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable' };
  }
  const id = text.trim();
  return ID.test(id) ? { kind: 'names', id } : { kind: 'damaged' };
}

/** Marks a folder as a library's, durably (see writeFileDurably): the marker is how the library is known again. */
export function writeMarker(folder: string, libraryId: string): void {
  writeFileDurably(path.join(folder, LIBRARY_MARKER), libraryId);
}

/** What the database records of one library, to recognise its folder by the files in it. */
export interface LibraryRecord {
  /** A content file (blob id) the database records on this library: a version, or garbage. */
  knowsBlob(blob: string): boolean;
  /** An upload to this library under way, by its id. */
  knowsUpload(uploadId: string): boolean;
}

/**
 * Whether a folder holds files that only this library can hold: a content file or an upload's
 * temp file whose id the database records on it. Ids are random 128-bit values made by this
 * server, so one match proves the folder is the library's (or a faithful copy of it), where
 * an empty mount point, a fresh drive or another library's folder has none.
 */
export function holdsFilesOf(folder: string, record: LibraryRecord, scanLimit = 1000): boolean {
  let scanned = 0;
  for (const blob of contentFileNames(path.join(folder, 'blobs'))) {
    if (record.knowsBlob(blob)) return true;
    if (++scanned >= scanLimit) return false;
  }
  let temps: string[];
  try {
    temps = fs.readdirSync(path.join(folder, 'tmp'));
  } catch {
    return false;
  }
  return temps.some((name) => name.endsWith('.upload') && record.knowsUpload(name.slice(0, -'.upload'.length)));
}
