import { createReadStream, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { syncFolder } from '../common/durable-file.ts';

/** The library's folder of playback copies, beside blobs/ and tmp/. */
export const PLAYBACK_FOLDER = 'playback';
/** Copies being made: only ever a file of this process's (a leftover is a copy a crash cut short). */
const MAKING_FOLDER = '.making';

/**
 * Playback copies on a library: `playback/<shard>/<content file>.mp4`, beside the content they
 * were made from, so they are on the same drive (away together, there together) and counted
 * with it. They are derived data, made again when lost: backups take content by the database's
 * versions and never read this folder, and a library's removal takes it along. A copy is made
 * under `playback/.making/` and renamed into place only once ffmpeg has written all of it and
 * it is on disk: a file at `pathOf` is always a whole copy.
 */
export class PlaybackFiles {
  constructor(readonly libraryRoot: string) {}

  get root(): string {
    return path.join(this.libraryRoot, PLAYBACK_FOLDER);
  }

  pathOf(blob: string): string {
    assertBlobId(blob);
    return path.join(this.root, blob.slice(-2), `${blob}.mp4`);
  }

  tempPathOf(blob: string): string {
    assertBlobId(blob);
    return path.join(this.root, MAKING_FOLDER, `${blob}.mp4`);
  }

  /** Where the pid of the ffmpeg making a copy is written, so that a restart after a crash can stop it. */
  private pidFileOf(blob: string): string {
    return `${this.tempPathOf(blob)}.pid`;
  }

  /** A fresh temp path for a copy, with nothing at it. */
  async prepare(blob: string): Promise<string> {
    const temp = this.tempPathOf(blob);
    await fs.mkdir(path.dirname(temp), { recursive: true });
    await fs.rm(temp, { force: true });
    return temp;
  }

  async notePid(blob: string, pid: number): Promise<void> {
    await fs.writeFile(this.pidFileOf(blob), String(pid));
  }

  /** Makes a finished temp file the copy: fsync, rename, fsync the folder. Returns its size. */
  async commit(blob: string): Promise<number> {
    const temp = this.tempPathOf(blob);
    const handle = await fs.open(temp, 'r+');
    let size: number;
    try {
      await handle.sync();
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    const final = this.pathOf(blob);
    await fs.mkdir(path.dirname(final), { recursive: true });
    await fs.rename(temp, final);
    await syncFolder(path.dirname(final));
    await fs.rm(this.pidFileOf(blob), { force: true });
    return size;
  }

  /** Bytes ffmpeg wrote of a copy under way. */
  async tempSize(blob: string): Promise<number> {
    return (await fs.stat(this.tempPathOf(blob))).size;
  }

  /** Takes away a copy under way (it failed, or was stopped). */
  async discardTemp(blob: string): Promise<void> {
    await fs.rm(this.tempPathOf(blob), { force: true });
    await fs.rm(this.pidFileOf(blob), { force: true });
  }

  async remove(blob: string): Promise<void> {
    await fs.rm(this.pathOf(blob), { force: true });
  }

  /** The copy's size, or null when there is no copy. */
  async size(blob: string): Promise<number | null> {
    try {
      return (await fs.stat(this.pathOf(blob))).size;
    } catch {
      return null;
    }
  }

  read(blob: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.pathOf(blob), { ...range, highWaterMark: 1024 * 1024 });
  }

  /**
   * At start: what a crash left under way is taken away, and the ffmpeg it ran is stopped if it
   * still runs (a process killed with -9 takes no child with it). A pid is trusted only when that
   * process's command line names the copy's temp file: pids are reused.
   */
  async clearUnfinished(): Promise<number> {
    const dir = path.join(this.root, MAKING_FOLDER);
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    let cleared = 0;
    for (const name of names) {
      const file = path.join(dir, name);
      if (name.endsWith('.pid')) {
        const pid = Number(await fs.readFile(file, 'utf8').catch(() => ''));
        const temp = file.slice(0, -'.pid'.length);
        if (Number.isSafeInteger(pid) && pid > 1 && (await commandLineOf(pid))?.includes(temp)) {
          try {
            process.kill(pid, 'SIGKILL');
          } catch {
            // Gone meanwhile.
          }
        }
      } else cleared++;
      await fs.rm(file, { force: true });
    }
    return cleared;
  }

  /** The content files that have a copy here, by name. */
  async *list(): AsyncGenerator<string> {
    for (const shard of await fs.readdir(this.root).catch(() => [] as string[])) {
      if (shard === MAKING_FOLDER) continue;
      for (const name of await fs.readdir(path.join(this.root, shard)).catch(() => [] as string[])) {
        if (name.endsWith('.mp4')) yield name.slice(0, -'.mp4'.length);
      }
    }
  }
}

/** A process's command line (Linux /proc), NUL-separated; null where there is no /proc or no such process. */
async function commandLineOf(pid: number): Promise<string | null> {
  try {
    return await fs.readFile(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return null;
  }
}

/** Content file ids are the server's own; anything else reaching here is a bug, not a path. */
function assertBlobId(id: string): void {
  if (!/^[A-Za-z0-9._-]{10,80}$/.test(id) || id.includes('..')) throw new Error(`invalid blob id: ${JSON.stringify(id)}`);
}
