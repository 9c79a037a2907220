import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a small file so that after a power cut or a pulled drive it holds either its old
 * content or all of the new, never nothing: the text goes to a temp file that is fsynced,
 * renamed over the file, and the folder is fsynced so the rename itself is on disk. A plain
 * write is only in the page cache; ext4 then brings the file back empty (its size is
 * committed before its data), which is how a library's marker came back blank.
 *
 * A write that fails (a full disk) takes its temp file away again: each start on a full disk
 * would otherwise leave one more `.<pid>.tmp` beside the file.
 */
export function writeFileDurably(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      fs.writeSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  syncFolderNow(path.dirname(file));
}

/**
 * Whether a folder can be fsynced here. Node on Windows cannot: opening a folder as a file
 * fails there (EISDIR or EPERM), and NTFS journals a rename or a new entry by itself. Elsewhere
 * an entry (a file created, renamed or removed in the folder) is durable only once its folder
 * is fsynced.
 */
function foldersSync(): boolean {
  return process.platform !== 'win32';
}

/** A file's data on the disk: opened to write (Windows flushes only such a handle), fsynced, closed. */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.promises.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes a folder's entries (a file created, renamed or removed in it) durable. */
export async function syncFolder(folder: string): Promise<void> {
  if (!foldersSync()) return;
  const handle = await fs.promises.open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** syncFolder for the few callers that must finish before returning (a marker written at start-up). */
export function syncFolderNow(folder: string): void {
  if (!foldersSync()) return;
  const fd = fs.openSync(folder, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
