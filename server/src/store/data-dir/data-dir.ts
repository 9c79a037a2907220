import fs from 'node:fs';
import type { Logger } from '../../log.ts';
import { openGuardedDatabase } from './content-guard.ts';
import { lockDataDir } from './data-dir-lock.ts';
import type { Db, EngineChoice } from '../database/db.ts';
import { finishRestore } from './restore-swap.ts';

/** Files the process creates are its user's alone: 600 for files, 700 for folders. */
const PRIVATE_UMASK = 0o077;

/**
 * Makes the data folder private before anything is written to it. On a family PC with several
 * logins, the database, every family file and the thumbnails would otherwise be readable by
 * every local account (755 folders, 644 files under the usual umask). The umask covers every
 * file the server and its workers create later, on any library; a data folder that already
 * exists open to others is left as its owner set it, and the log says so and how to close it.
 */
export function preparePrivateDataDir(dataDir: string, log: Logger): void {
  if (process.platform !== 'win32') process.umask(PRIVATE_UMASK);
  const existed = fs.existsSync(dataDir);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (!existed || process.platform === 'win32') return;
  const mode = fs.statSync(dataDir).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    log.warn('the data folder is open to other accounts on this computer', {
      path: dataDir,
      mode: mode.toString(8).padStart(4, '0'),
      fix: `chmod -R go-rwx ${dataDir}`,
    });
  }
}

/** The data folder taken for this process: its lock held and its database open. */
export interface OpenDataDir {
  db: Db;
  /** Whether a restore from a backup, made ready before the last stop, was put in place by this open. */
  restored: boolean;
  /** Closes the database, then lets the folder go. Safe to call more than once. */
  close(): void;
}

/**
 * Takes the data folder (its lock first, before anything in it is read or written), then opens
 * its database only if it is the one that has seen the files there. Either refusal is a
 * StartRefused whose message tells the owner what is wrong and what to do. `open` opens the
 * database once it is judged the right one (the server's opener copes with a full disk).
 */
export function openDataDir(
  dataDir: string,
  engine: EngineChoice,
  log: Pick<Logger, 'warn'>,
  mintId: () => string,
  open?: (file: string) => Db,
): OpenDataDir {
  const lock = lockDataDir(dataDir, engine, log);
  let db: Db;
  let restored: boolean;
  try {
    // Under the lock: a second server started meanwhile must not move the same files.
    restored = finishRestore(dataDir);
    db = openGuardedDatabase(dataDir, engine, mintId, open);
  } catch (error) {
    lock.release();
    throw error;
  }
  return {
    db,
    restored,
    close: () => {
      if (db.open) db.close();
      lock.release();
    },
  };
}
