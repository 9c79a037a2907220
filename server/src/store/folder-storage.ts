import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ArchiveUnreachable, type ArchiveStorage } from './archive-storage.ts';
import { syncFolder } from './durable-file.ts';

export const ARCHIVE_FOLDER = 'hearth-backup';

/**
 * An archive in `<destination>/hearth-backup/`. Every file arrives under `tmp/` first and is
 * renamed into place only once whole and fsynced, its folder fsynced after.
 */
export class FolderStorage implements ArchiveStorage {
  readonly root: string;

  constructor(readonly destination: string) {
    this.root = path.join(destination, ARCHIVE_FOLDER);
  }

  get place(): string {
    return this.destination;
  }

  /**
   * `create` makes hearth-backup/ (when the owner adds the destination); a run never does: an
   * unplugged USB disk often leaves its mount point behind as an empty folder on the system
   * disk, and a backup written there would look fine and be lost with the PC. Without its
   * hearth-backup folder, the destination is "not there".
   */
  async prepare(create: boolean): Promise<void> {
    await guard(async () => {
      const stat = await fs.stat(create ? this.destination : this.root);
      if (!stat.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      let made = false;
      for (const sub of ['', 'content', 'snapshots', 'tmp']) {
        if ((await fs.mkdir(path.join(this.root, sub), { recursive: true })) !== undefined) made = true;
      }
      if (made) {
        await syncFolder(this.destination);
        await syncFolder(this.root);
      }
    });
  }

  full(relative: string): string {
    return path.join(this.root, ...relative.split('/'));
  }

  async readSmall(relative: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.full(relative));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw unreachable(error);
    }
  }

  async writeSmall(relative: string, text: string): Promise<void> {
    await guard(async () => {
      const target = this.full(relative);
      const temp = path.join(path.dirname(target), `.${path.basename(target)}.${crypto.randomBytes(4).toString('hex')}.tmp`);
      await fs.writeFile(temp, text, { mode: 0o644, flush: true });
      await fs.rename(temp, target);
      await syncFolder(path.dirname(target));
    });
  }

  async sizeOf(relative: string): Promise<number | null> {
    try {
      return (await fs.stat(this.full(relative))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw unreachable(error);
    }
  }

  async snapshotIds(): Promise<string[]> {
    try {
      return (await fs.readdir(path.join(this.root, 'snapshots'), { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch (error) {
      throw unreachable(error);
    }
  }

  async startSnapshot(id: string): Promise<void> {
    await guard(async () => {
      await fs.mkdir(path.join(this.root, 'snapshots', id));
      await syncFolder(path.join(this.root, 'snapshots'));
    });
  }

  /** Into tmp/, fsynced, then renamed into place and the folder fsynced. Never more than a chunk in memory. */
  async put(body: AsyncIterable<Uint8Array>, relative: string, signal: AbortSignal): Promise<void> {
    const temp = path.join(this.root, 'tmp', `${crypto.randomBytes(8).toString('hex')}.part`);
    try {
      await pipeline(Readable.from(body), createWriteStream(temp, { flags: 'wx', mode: 0o600 }), { signal });
      const handle = await fs.open(temp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      const target = this.full(relative);
      const made = await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(temp, target);
      await syncFolder(path.dirname(target));
      if (made !== undefined) await syncFolder(path.dirname(path.dirname(target)));
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => {});
      throw unreachable(error);
    }
  }

  async openRead(relative: string, signal: AbortSignal): Promise<Readable> {
    const stream = createReadStream(this.full(relative), { highWaterMark: 1024 * 1024, signal });
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    return stream;
  }

  async removeSnapshot(id: string, manifest: string): Promise<void> {
    await guard(async () => {
      const folder = path.join(this.root, 'snapshots', id);
      await fs.rm(path.join(folder, manifest), { force: true });
      await syncFolder(folder).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      });
      await fs.rm(folder, { recursive: true, force: true });
      await syncFolder(path.join(this.root, 'snapshots'));
    });
  }

  async removeContentExcept(kept: ReadonlySet<string>): Promise<void> {
    await guard(async () => {
      const base = path.join(this.root, 'content');
      for (const library of await fs.readdir(base)) {
        for (const shard of await fs.readdir(path.join(base, library)).catch(() => [] as string[])) {
          const folder = path.join(base, library, shard);
          let removed = false;
          for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
            if (kept.has(`content/${library}/${shard}/${name}`)) continue;
            await fs.rm(path.join(folder, name), { force: true });
            removed = true;
          }
          if (removed) await syncFolder(folder);
        }
      }
    });
  }

  async clearUnfinished(): Promise<void> {
    await guard(async () => {
      for (const name of await fs.readdir(path.join(this.root, 'tmp')))
        await fs.rm(path.join(this.root, 'tmp', name), { recursive: true, force: true });
    });
  }
}

async function guard(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    throw unreachable(error);
  }
}

function unreachable(error: unknown): Error {
  if (error instanceof ArchiveUnreachable) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EIO' || code === 'ENODEV' || code === 'ENXIO')
    return new ArchiveUnreachable('missing', error);
  if (code === 'ENOSPC' || code === 'EDQUOT') return new ArchiveUnreachable('full', error);
  if (code === 'EROFS') return new ArchiveUnreachable('read_only', error);
  if (code === 'EACCES' || code === 'EPERM') return new ArchiveUnreachable('denied', error);
  return error instanceof Error ? error : new Error(String(error));
}
