import fs from 'node:fs';
import path from 'node:path';

export interface TopLevelEntry {
  name: string;
  kind: 'folder' | 'file';
}

/** What a look at a file system found: what the erase dialog shows before anything is destroyed. */
export interface FolderSummary {
  /** Bytes in use on the file system, as the OS counts them (metadata included). */
  used: number;
  top_level: TopLevelEntry[];
  files: number;
  /** Files whose name says photo or video (by extension: the look opens no file). */
  photos: number;
  /** False when the walk stopped at its time or entry limit: the counts are then at least these. */
  complete: boolean;
}

const PHOTO_EXTENSIONS = new Set([
  '.jpg',
  '.jpeg',
  '.png',
  '.gif',
  '.webp',
  '.avif',
  '.heic',
  '.heif',
  '.tif',
  '.tiff',
  '.bmp',
  '.dng',
  '.cr2',
  '.cr3',
  '.nef',
  '.arw',
  '.raf',
  '.orf',
  '.rw2',
  '.mp4',
  '.m4v',
  '.mov',
  '.webm',
  '.mkv',
  '.avi',
  '.3gp',
  '.mts',
]);
/** Made by mkfs on every ext file system; not the owner's. */
const FILESYSTEM_OWN = new Set(['lost+found']);
const TOP_LEVEL_SHOWN = 50;

export interface WalkLimits {
  /** Stop walking at this time (ms since the epoch). */
  deadline: number;
  maxEntries: number;
}

/**
 * Looks at a mounted file system without changing anything: it lists folders (no file is
 * opened, no symlink followed, no other mount entered) and counts what it finds, within a
 * time and entry budget so a huge disk cannot stall the dialog.
 */
export async function summarizeFolder(root: string, limits: WalkLimits): Promise<FolderSummary> {
  const stats = await fs.promises.statfs(root);
  const used = Math.max(0, (stats.blocks - stats.bfree) * stats.bsize);
  const rootDevice = (await fs.promises.lstat(root)).dev;
  const top = (await fs.promises.readdir(root, { withFileTypes: true })).filter((e) => !FILESYSTEM_OWN.has(e.name));
  const top_level: TopLevelEntry[] = top
    .filter((e) => e.isDirectory() || e.isFile())
    .map((e): TopLevelEntry => ({ name: e.name, kind: e.isDirectory() ? 'folder' : 'file' }))
    .sort((a, b) => (a.kind === b.kind ? a.name.localeCompare(b.name) : a.kind === 'folder' ? -1 : 1))
    .slice(0, TOP_LEVEL_SHOWN);

  let files = 0;
  let photos = 0;
  let seen = 0;
  let complete = true;
  const queue: string[] = [];
  const count = (dir: string, entry: fs.Dirent) => {
    seen++;
    if (entry.isFile()) {
      files++;
      if (PHOTO_EXTENSIONS.has(path.extname(entry.name).toLowerCase())) photos++;
    } else if (entry.isDirectory()) {
      queue.push(path.join(dir, entry.name));
    }
  };
  for (const entry of top) count(root, entry);
  while (queue.length > 0) {
    if (Date.now() > limits.deadline || seen > limits.maxEntries) {
      complete = false;
      break;
    }
    const dir = queue.pop()!;
    try {
      // Another file system mounted inside this one is not what the dialog is about.
      if ((await fs.promises.lstat(dir)).dev !== rootDevice) continue;
      for (const entry of await fs.promises.readdir(dir, { withFileTypes: true })) count(dir, entry);
    } catch {
      // A folder we may not read: its files stay uncounted, and the answer says so.
      complete = false;
    }
  }
  return { used, top_level, files, photos, complete };
}
