import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { syncFolder } from './durable-file.ts';

/**
 * A backup on a folder, in the format docs/backup-format.md describes for a person restoring by
 * hand. Content files are kept once under `content/`, shared by every snapshot; each snapshot is a
 * folder under `snapshots/` with the database, keys.json and, written last, manifest.json. A
 * snapshot without its manifest is unfinished (a cut run) and never counts. Every file arrives
 * under `tmp/` first and is renamed into place only once whole and fsynced.
 */
export const ARCHIVE_FOLDER = 'hearth-backup';
export const ARCHIVE_FORMAT = 'hearth-backup/1';
export const MANIFEST = 'manifest.json';
export const DATABASE_COPY = 'hearth.db';
export const KEYS_COPY = 'keys.json';

export interface ManifestFile {
  /** Relative to the hearth-backup folder, with forward slashes. */
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  snapshot: string;
  at: number;
  server_id: string;
  server_version: string;
  files: ManifestFile[];
}

export interface SnapshotSummary {
  id: string;
  at: number;
  files: number;
  bytes: number;
}

/** The destination folder itself is gone or refuses writes: said in words by the service. */
export class ArchiveUnreachable extends Error {
  constructor(
    readonly reason: 'missing' | 'full' | 'read_only' | 'denied' | 'other',
    cause: unknown,
  ) {
    super(`backup folder unreachable: ${reason}`, { cause });
  }
}

/** The file being copied in could not be read (a library's drive): not the destination's fault. */
export class SourceUnreadable extends Error {
  constructor(cause: unknown) {
    super(`cannot read the file to back up: ${(cause as Error).message}`, { cause });
  }
}

export function contentPath(libraryId: string, blob: string): string {
  return `content/${libraryId}/${blob.slice(-2)}/${blob}`;
}

export function snapshotFile(snapshot: string, name: string): string {
  return `snapshots/${snapshot}/${name}`;
}

export class BackupArchive {
  private constructor(
    readonly destination: string,
    readonly root: string,
  ) {}

  /**
   * The archive in a destination folder. `create` makes it (when the owner adds the destination);
   * a run never does: an unplugged USB disk often leaves its mount point behind as an empty
   * folder on the system disk, and a backup written there would look fine and be lost with the
   * PC. Without its hearth-backup folder, the destination is "not there".
   */
  static async open(destination: string, options: { create: boolean }): Promise<BackupArchive> {
    const root = path.join(destination, ARCHIVE_FOLDER);
    await guard(async () => {
      const stat = await fs.stat(options.create ? destination : root);
      if (!stat.isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
      let made = false;
      for (const sub of ['', 'content', 'snapshots', 'tmp']) {
        if ((await fs.mkdir(path.join(root, sub), { recursive: true })) !== undefined) made = true;
      }
      if (made) {
        await syncFolder(destination);
        await syncFolder(root);
      }
    });
    return new BackupArchive(destination, root);
  }

  full(relative: string): string {
    return path.join(this.root, ...relative.split('/'));
  }

  /** Finished snapshots, oldest first. */
  async snapshots(): Promise<SnapshotSummary[]> {
    const out: SnapshotSummary[] = [];
    for (const id of await this.snapshotFolders()) {
      const manifest = await this.manifest(id);
      if (manifest)
        out.push({ id, at: manifest.at, files: manifest.files.length, bytes: manifest.files.reduce((sum, f) => sum + f.size, 0) });
    }
    return out.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  }

  /** A snapshot's manifest; null when it has none (unfinished). Throws when one is there but unreadable. */
  async manifest(id: string): Promise<Manifest | null> {
    let text: string;
    try {
      text = await fs.readFile(this.full(snapshotFile(id, MANIFEST)), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw unreachable(error);
    }
    const manifest = JSON.parse(text) as Manifest;
    if (manifest.format !== ARCHIVE_FORMAT || !Array.isArray(manifest.files))
      throw new Error(`snapshot ${id}: not a ${ARCHIVE_FORMAT} manifest`);
    return manifest;
  }

  /** What a cut run left: snapshot folders without a manifest, and anything in tmp/. */
  async removeUnfinished(): Promise<void> {
    await guard(async () => {
      for (const id of await this.snapshotFolders()) {
        if ((await this.manifest(id)) === null) await fs.rm(path.join(this.root, 'snapshots', id), { recursive: true, force: true });
      }
      for (const name of await fs.readdir(path.join(this.root, 'tmp')))
        await fs.rm(path.join(this.root, 'tmp', name), { recursive: true, force: true });
    });
  }

  async startSnapshot(id: string): Promise<void> {
    await guard(async () => {
      await fs.mkdir(path.join(this.root, 'snapshots', id));
      await syncFolder(path.join(this.root, 'snapshots'));
    });
  }

  /** The size of a file already in the archive; null when it is not there. */
  async sizeOf(relative: string): Promise<number | null> {
    try {
      return (await fs.stat(this.full(relative))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw unreachable(error);
    }
  }

  /**
   * Streams `source` into the archive at `relative`: into tmp/ while hashing, fsynced, then renamed
   * into place and the folder fsynced. Never more than a chunk in memory.
   */
  async write(
    source: Readable,
    relative: string,
    options: { signal: AbortSignal; onBytes?: (n: number) => void },
  ): Promise<{ size: number; sha256: string }> {
    const hash = crypto.createHash('sha256');
    let size = 0;
    const temp = path.join(this.root, 'tmp', `${crypto.randomBytes(8).toString('hex')}.part`);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        hash.update(chunk);
        options.onBytes?.(chunk.length);
        callback(null, chunk);
      },
    });
    let sourceError: unknown = null;
    source.once('error', (error) => (sourceError = error));
    try {
      await pipeline(source, counter, createWriteStream(temp, { flags: 'wx', mode: 0o600 }), { signal: options.signal });
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
      if (options.signal.aborted) throw error;
      if (sourceError !== null && error === sourceError) throw new SourceUnreadable(error);
      throw unreachable(error);
    }
    return { size, sha256: hash.digest('hex') };
  }

  /** The manifest, last: from this moment the snapshot exists. */
  async writeManifest(manifest: Manifest, signal: AbortSignal): Promise<void> {
    await this.write(Readable.from([JSON.stringify(manifest, null, 1)]), snapshotFile(manifest.snapshot, MANIFEST), { signal });
  }

  /** A file's SHA-256 and size, read back from the archive. */
  async hash(relative: string, signal: AbortSignal): Promise<{ size: number; sha256: string }> {
    const hash = crypto.createHash('sha256');
    let size = 0;
    for await (const chunk of createReadStream(this.full(relative), { highWaterMark: 1024 * 1024, signal }) as AsyncIterable<Buffer>) {
      size += chunk.length;
      hash.update(chunk);
    }
    return { size, sha256: hash.digest('hex') };
  }

  /** The manifest goes first: a prune cut short leaves an unfinished folder, which the next run clears. */
  async removeSnapshot(id: string): Promise<void> {
    await guard(async () => {
      await fs.rm(this.full(snapshotFile(id, MANIFEST)), { force: true });
      await syncFolder(path.join(this.root, 'snapshots', id));
      await fs.rm(path.join(this.root, 'snapshots', id), { recursive: true, force: true });
      await syncFolder(path.join(this.root, 'snapshots'));
    });
  }

  /** Removes content files that no kept snapshot lists. */
  async removeContentExcept(kept: ReadonlySet<string>): Promise<void> {
    await guard(async () => {
      const base = path.join(this.root, 'content');
      for (const library of await fs.readdir(base)) {
        for (const shard of await fs.readdir(path.join(base, library)).catch(() => [] as string[])) {
          const folder = path.join(base, library, shard);
          let removed = false;
          for (const name of await fs.readdir(folder).catch(() => [] as string[])) {
            const relative = `content/${library}/${shard}/${name}`;
            if (kept.has(relative)) continue;
            await fs.rm(path.join(folder, name), { force: true });
            removed = true;
          }
          if (removed) await syncFolder(folder);
        }
      }
    });
  }

  private async snapshotFolders(): Promise<string[]> {
    try {
      return (await fs.readdir(path.join(this.root, 'snapshots'), { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name);
    } catch (error) {
      throw unreachable(error);
    }
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
