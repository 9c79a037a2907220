import type { FileHandle } from 'node:fs/promises';
/**
 * Where a backup archive's files live: a folder (folder-storage.ts) or an S3-compatible bucket
 * (s3-storage.ts). BackupArchive keeps the format (docs/backup-format.md: content once, each
 * snapshot's files, the manifest last, age encryption) and asks its storage only to keep whole
 * files under relative names: a file is either absent or whole once `put` returns (a folder
 * renames a fsynced temp file into place; a bucket shows an object only once its upload is
 * complete).
 */
export interface ArchiveStorage {
  /** The place in words, for the owner: a folder's path, or s3://bucket/prefix. */
  readonly place: string;
  /**
   * Checks the place answers. `create` (when the owner adds the destination) makes the archive's
   * home; without it, an archive that is not there throws ArchiveUnreachable('missing').
   */
  prepare(create: boolean): Promise<void>;
  /** A small file's bytes; null when it is not there. */
  readSmall(relative: string): Promise<Buffer | null>;
  /** A small file in clear (the public-key marker), readable by anyone holding the archive. */
  writeSmall(relative: string, text: string): Promise<void>;
  /** The bytes a file takes there; null when it is not there. */
  sizeOf(relative: string): Promise<number | null>;
  /**
   * Every content file there with the bytes it takes, by relative name, in one listing: a bucket
   * answers a thousand names a request, where asking file by file costs a round trip each. Absent
   * where asking is as cheap (a folder: one stat a file, with its safety checks).
   */
  contentSizes?(): Promise<Map<string, number>>;
  /** The snapshot ids present (finished or not). */
  snapshotIds(): Promise<string[]>;
  startSnapshot(id: string): Promise<void>;
  /** Stores the bytes under `relative`; the file appears whole, or not at all. */
  put(body: AsyncIterable<Uint8Array>, relative: string, signal: AbortSignal): Promise<void>;
  /**
   * As put, with the bytes written by `fill` into the new file's handle (a worker thread writes
   * them by its descriptor, content-copiers.ts): it appears whole once fill and put are done.
   * Absent for a bucket.
   */
  putWith?(relative: string, fill: (handle: FileHandle) => Promise<void>): Promise<void>;
  /** A file's bytes as they are stored; a file that is not there throws an error whose code is ENOENT. */
  openRead(relative: string, signal: AbortSignal): Promise<AsyncIterable<Buffer> & { destroy(): void }>;
  /**
   * A file opened for reading, with the same checks as openRead, where the place is a folder on
   * this PC: a worker thread reads it by its descriptor (content-copiers.ts). Absent for a bucket.
   */
  openFile?(relative: string): Promise<FileHandle>;
  /** The manifest first (the snapshot stops counting at once), then the rest of the snapshot. */
  removeSnapshot(id: string, manifest: string): Promise<void>;
  /** Removes content files no kept snapshot lists. */
  removeContentExcept(kept: ReadonlySet<string>): Promise<void>;
  /** What a cut run left outside the snapshots: temp files, unfinished uploads. */
  clearUnfinished(): Promise<void>;
}

/**
 * The destination itself is gone or refuses: said in words by the service. `words`, when given,
 * is the reason as the owner reads it (a bucket's answer), and `field` the input it points at.
 */
export class ArchiveUnreachable extends Error {
  constructor(
    readonly reason: 'missing' | 'full' | 'read_only' | 'denied' | 'unreachable' | 'unsafe' | 'other',
    cause: unknown,
    readonly words?: string,
    readonly field?: string,
  ) {
    super(`backup destination unreachable: ${reason}${words ? `: ${words}` : ''}`, { cause });
  }
}

/**
 * The destination holds, where Hearth looks, something Hearth did not make: a link (to a home
 * folder, to another backup), a pipe or a device where its file goes, a folder that became a
 * link, or a name that leads out of the archive. Hearth does not follow it, read it, write
 * through it or remove it: the run stops, and `words` tell the owner what and where.
 */
export class ArchiveUnsafe extends ArchiveUnreachable {
  constructor(
    /** Relative to the destination, as shownName gives it. */
    readonly where: string,
    words: string,
  ) {
    super('unsafe', null, words);
  }
}

/** A file the archive does not hold, with the code a folder's would have. */
export function notThere(relative: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`not in the backup: ${relative}`), { code: 'ENOENT' });
}
