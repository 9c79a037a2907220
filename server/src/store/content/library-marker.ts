import fs from 'node:fs';
import path from 'node:path';
import { contentFileNames } from './content-files.ts';
import { writeFileDurably } from '../common/durable-file.ts';

/** The file that names the library a folder is: every library has one, the internal one included. */
export const LIBRARY_MARKER = '.hearth-library';

/**
 * What a marker says. Its first line is the library's id (on its own, the whole marker of a
 * library added to this day); the internal library's marker, the seal, adds a line
 * `database <server id>` naming the database it belongs to (see content-guard.ts). Other lines
 * are left for later versions to add.
 */
export interface Marker {
  id: string;
  database: string | null;
}

/** What a library folder's marker says: a library id, nothing readable, or that the drive cannot be read. */
export type MarkerState =
  | ({ kind: 'names' } & Marker)
  /** No marker file at all. */
  | { kind: 'missing' }
  /** A marker that is empty or not an id (zeros, garbage): what a power cut leaves of a marker not fsynced. */
  | { kind: 'damaged' }
  /** The folder cannot be read (a drive gone, an I/O error): nothing can be judged now. */
  | { kind: 'unreadable' };

const ID = /^[0-9A-Za-z_-]{1,80}$/;
const DATABASE_LINE = /^database ([0-9A-Za-z_-]{1,80})$/;

/** The one reading of a marker's text; null when its first line is no id. */
export function parseMarker(text: string): Marker | null {
  const [first = '', ...rest] = text.split('\n');
  const id = first.trim();
  if (!ID.test(id)) return null;
  let database: string | null = null;
  for (const line of rest) database ??= DATABASE_LINE.exec(line.trim())?.[1] ?? null;
  return { id, database };
}

export function markerState(folder: string): MarkerState {
  let text: string;
  try {
    text = fs.readFileSync(path.join(folder, LIBRARY_MARKER), 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? { kind: 'missing' } : { kind: 'unreadable' };
  }
  const marker = parseMarker(text);
  return marker === null ? { kind: 'damaged' } : { kind: 'names', ...marker };
}

/** What a folder's marker says, or null when it has none that can be read. */
export function readMarker(folder: string): Marker | null {
  const state = markerState(folder);
  return state.kind === 'names' ? { id: state.id, database: state.database } : null;
}

/** A library folder carries a marker with its id: an empty mount point is not the library. */
export function hasMarker(library: { id: string; path: string }): boolean {
  return readMarker(library.path)?.id === library.id;
}

/**
 * Marks a folder as a library's, durably (see writeFileDurably): the marker is how the library
 * is known again. `database` is the seal's line, for the internal library.
 */
export function writeMarker(folder: string, libraryId: string, database?: string): void {
  writeFileDurably(path.join(folder, LIBRARY_MARKER), database === undefined ? libraryId : `${libraryId}\ndatabase ${database}\n`);
}

/** What the database records of one library, to recognise its folder by the files in it. */
export interface LibraryRecord {
  /** A content file (blob id) the database records on this library: a version, garbage, or an upload completing into it. */
  knowsBlob(blob: string): boolean;
  /** An upload to this library under way, by its id. */
  knowsUpload(uploadId: string): boolean;
}

/**
 * Whether a folder holds files that only this library can hold: a content file or an upload's
 * temp file whose id the database records on it. Ids are random 128-bit values made by this
 * server, so one match proves the folder is the library's (or a faithful copy of it), where
 * an empty mount point, a fresh drive or another library's folder has none. At most
 * `scanLimit` content files are looked up (each one a query).
 */
export function holdsFilesOf(folder: string, record: LibraryRecord, scanLimit: number): boolean {
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
