import fs from 'node:fs';
import path from 'node:path';
import { syncFolderNow, writeFileDurably } from '../common/durable-file.ts';

/**
 * A whole-server restore is built in `DATA_DIR/restore/data/` (the same disk, so moving it in is
 * a rename) while the fresh install keeps running untouched. Only once every file is there,
 * checked and fsynced, is `restore/ready` written; then the server stops, and finishRestore moves
 * the restored database, keys and files in place of the fresh ones before the data folder is
 * opened again. A kill -9 before `ready` leaves a fresh install (the half-built folder is thrown
 * away at the next start); one after it is completed at the next start. Every step is a rename
 * or a removal that can be done again, so a cut completion completes the next time.
 */
export const RESTORE_FOLDER = 'restore';
const READY = 'ready';

export function restoreStaging(dataDir: string): string {
  return path.join(dataDir, RESTORE_FOLDER, 'data');
}

/** Marks the staged data complete: from here the restore goes through, even after a crash. */
export function markRestoreReady(dataDir: string): void {
  writeFileDurably(path.join(dataDir, RESTORE_FOLDER, READY), 'ready\n');
}

/** Throws away a staged restore that never became ready (a failed or cut one). */
export function discardRestore(dataDir: string): void {
  if (!fs.existsSync(path.join(dataDir, RESTORE_FOLDER, READY)))
    fs.rmSync(path.join(dataDir, RESTORE_FOLDER), { recursive: true, force: true });
}

/**
 * Called before the data folder is opened. Without `ready`: removes the half-built restore.
 * With it: replaces the fresh install's database (its -wal and -shm first: they belong to the
 * database being replaced), keys and files with the restored ones. Returns whether it restored.
 */
export function finishRestore(dataDir: string): boolean {
  const base = path.join(dataDir, RESTORE_FOLDER);
  if (!fs.existsSync(path.join(base, READY))) {
    fs.rmSync(base, { recursive: true, force: true });
    return false;
  }
  const staged = path.join(base, 'data');
  if (fs.existsSync(path.join(staged, 'hearth.db'))) {
    for (const name of ['hearth.db-wal', 'hearth.db-shm', 'hearth.db-journal']) fs.rmSync(path.join(dataDir, name), { force: true });
  }
  // Thumbnails of the fresh install are of nothing now; the restored server makes its own again.
  fs.rmSync(path.join(dataDir, 'thumbs'), { recursive: true, force: true });
  for (const name of fs.existsSync(staged) ? fs.readdirSync(staged) : []) {
    fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    fs.renameSync(path.join(staged, name), path.join(dataDir, name));
  }
  syncFolderNow(dataDir);
  fs.rmSync(path.join(base, READY));
  syncFolderNow(base);
  fs.rmSync(base, { recursive: true, force: true });
  return true;
}
