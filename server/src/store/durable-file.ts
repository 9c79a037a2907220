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
  syncFolder(path.dirname(file));
}

/** Makes a folder's entries (a file created, renamed or removed in it) durable. */
export function syncFolder(folder: string): void {
  // Windows cannot open a folder as a file; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const fd = fs.openSync(folder, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
