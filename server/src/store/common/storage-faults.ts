/**
 * Whether an error means the disk refused a write for lack of space, or because the system
 * made it read-only, as both SQLite engines and Node's file system calls report it. Those are
 * the disk's state, not a bug: the caller answers 507 or 503 and waits, never 500 or a retry
 * loop.
 *
 * - `full`: ENOSPC, EDQUOT (a user quota), SQLITE_FULL.
 * - `read_only`: EROFS (the kernel remounted the drive read-only after an error).
 * - `io`: SQLite's "disk I/O error" family (SQLITE_IOERR_*): SQLite does not say which errno
 *   lay below, and on this machine a full tmpfs answers SQLITE_IOERR_SHMSIZE at open and a
 *   read-only ext4 SQLITE_IOERR_WRITE. Only a look at the disk tells whether it is one of the
 *   two above or a real fault (StorageHealth.classify does that look).
 */
export type StorageFault = 'full' | 'read_only';

const FULL_ERRNO = new Set(['ENOSPC', 'EDQUOT']);
const SQLITE_FULL = 13;
const SQLITE_IOERR = 10;
const SQLITE_READONLY = 8;

export function storageFaultOf(error: unknown): StorageFault | 'io' | null {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, errcode } = e as { code?: unknown; errcode?: unknown };
    if (typeof code === 'string') {
      if (FULL_ERRNO.has(code) || code === 'SQLITE_FULL') return 'full';
      if (code === 'EROFS') return 'read_only';
      // better-sqlite3: the extended code by name (SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED...).
      if (code.startsWith('SQLITE_IOERR') || code.startsWith('SQLITE_READONLY')) return 'io';
    }
    // node:sqlite: the extended result code as a number, the primary one in its low byte.
    if (typeof errcode === 'number') {
      const primary = errcode & 0xff;
      if (primary === SQLITE_FULL) return 'full';
      if (primary === SQLITE_IOERR || primary === SQLITE_READONLY) return 'io';
    }
  }
  return null;
}
