import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { constants, createReadStream, realpath as realpathOf, type Dirent, type Stats } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { archiveParts, CONTENT_DEPTH, ID_NAME, PART_FILE, shownName, SNAPSHOT_FILE, SNAPSHOT_ID } from './archive-names.ts';
import { ArchiveUnreachable, ArchiveUnsafe, notThere, type ArchiveStorage } from './archive-storage.ts';
import { writeBatched } from '../common/batched-writes.ts';
import { syncFolder } from '../common/durable-file.ts';

export const ARCHIVE_FOLDER = 'hearth-backup';

/** Opening never follows a link at the last step (ELOOP instead) and never waits on a pipe for its writer. */
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | NO_FOLLOW | (constants.O_NONBLOCK ?? 0);
/** A temp file is always new (O_EXCL never follows a link either): nothing planted at its name is written through. */
const NEW_FILE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
/** The same resolution as the realpathSync that chose the folder when it was added (backups.ts). */
const realpath = promisify(realpathOf);

const LINK = 'is a link to another place';
const NOT_FOLDER = 'is not a folder';
const NOT_FILE = 'is not an ordinary file (a pipe or a device)';

/**
 * An archive in `<destination>/hearth-backup/`. Every file arrives under `tmp/` first and is
 * renamed into place only once whole and fsynced, its folder fsynced after.
 *
 * The destination is someone else's disk: whoever held it may have left links, pipes or devices
 * in it, for the 03:00 run to write or delete through. So every folder Hearth enters or makes is
 * checked with lstat from the destination down (a folder, never a link), every file it reads or
 * replaces is an ordinary file opened without following a link, the destination itself must
 * still be the real folder it was when added, and clean-ups remove only names Hearth makes
 * (archive-names.ts), never entering what it did not make. Anything else where Hearth looks
 * stops the run with ArchiveUnsafe, in words. A hard link is harmless here: Hearth never writes
 * into a file that is there (it renames a new one over the name) and removing a name leaves the
 * file's other names as they were.
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
      await this.stillItself();
      if (!create && (await this.folder([])) === null) throw Object.assign(new Error('no hearth-backup folder'), { code: 'ENOENT' });
      for (const sub of ['content', 'snapshots', 'tmp']) await this.folder([sub], true);
    });
  }

  async readSmall(relative: string): Promise<Buffer | null> {
    return guarded(async () => {
      const handle = await this.openChecked(relative);
      if (handle === null) return null;
      try {
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    });
  }

  async writeSmall(relative: string, text: string): Promise<void> {
    await this.writeNew(Readable.from([Buffer.from(text, 'utf8')]), relative, 0o644, new AbortController().signal);
  }

  async sizeOf(relative: string): Promise<number | null> {
    return guarded(async () => (await this.file(relative))?.stat.size ?? null);
  }

  async snapshotIds(): Promise<string[]> {
    return guarded(async () => {
      const folder = await this.folder(['snapshots']);
      if (folder === null) throw Object.assign(new Error('no snapshots folder'), { code: 'ENOENT' });
      const ids: string[] = [];
      for (const entry of await this.entries(folder, 'snapshots')) {
        if (!SNAPSHOT_ID.test(entry.name)) continue;
        if (!entry.isDirectory()) throw this.unsafe(`snapshots/${entry.name}`, NOT_FOLDER);
        ids.push(entry.name);
      }
      return ids;
    });
  }

  async startSnapshot(id: string): Promise<void> {
    await guard(async () => {
      this.parts(id);
      const folder = (await this.folder(['snapshots'], true))!;
      await fs.mkdir(path.join(folder, id));
      await syncFolder(folder);
    });
  }

  /** Into tmp/, fsynced, then renamed into place and the folder fsynced. Never more than a chunk in memory. */
  async put(body: AsyncIterable<Uint8Array>, relative: string, signal: AbortSignal): Promise<void> {
    await this.writeNew(body, relative, 0o600, signal);
  }

  async openRead(relative: string, signal: AbortSignal): Promise<Readable> {
    return createReadStream('', { fd: await this.openFile(relative), highWaterMark: 1024 * 1024, signal });
  }

  async openFile(relative: string): Promise<fs.FileHandle> {
    const handle = await guarded(() => this.openChecked(relative));
    if (handle === null) throw notThere(path.join(this.root, relative));
    return handle;
  }

  /** Only a snapshot Hearth made (its id), and in it only its own files; someone else's things stay, and their folder with them. */
  async removeSnapshot(id: string, manifest: string): Promise<void> {
    if (!SNAPSHOT_ID.test(id)) return;
    await guard(async () => {
      const folder = await this.folder(['snapshots', id]);
      if (folder === null) return;
      // Looked at in full before anything goes: a refusal never leaves a snapshot half removed.
      const files = (await this.entries(folder, `snapshots/${id}`))
        .filter((entry) => SNAPSHOT_FILE.test(entry.name))
        .map((entry) => {
          if (!entry.isFile()) throw this.unsafe(`snapshots/${id}/${entry.name}`, NOT_FILE);
          return entry.name;
        });
      if (files.includes(manifest)) {
        await fs.rm(path.join(folder, manifest));
        await syncFolder(folder);
      }
      for (const name of files) if (name !== manifest) await fs.rm(path.join(folder, name));
      const left = await fs.rmdir(folder).then(
        () => false,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST') return true;
          throw error;
        },
      );
      await syncFolder(left ? folder : path.dirname(folder));
    });
  }

  async removeContentExcept(kept: ReadonlySet<string>): Promise<void> {
    await guard(async () => {
      const base = await this.folder(['content']);
      if (base !== null) await this.pruneContent(base, 'content', 1, kept);
    });
  }

  /** Only Hearth's own leftovers in tmp/ (its `.part` files); nothing else there is removed or entered. */
  async clearUnfinished(): Promise<void> {
    await guard(async () => {
      const tmp = await this.folder(['tmp']);
      if (tmp === null) return;
      const parts = (await this.entries(tmp, 'tmp')).filter((entry) => PART_FILE.test(entry.name));
      for (const entry of parts) if (!entry.isFile()) throw this.unsafe(`tmp/${entry.name}`, NOT_FILE);
      for (const entry of parts) await fs.rm(path.join(tmp, entry.name));
    });
  }

  /** Content files under `folder` (at `depth` below content/) that no kept snapshot lists; only id names, only id folders. */
  private async pruneContent(folder: string, relative: string, depth: number, kept: ReadonlySet<string>): Promise<void> {
    const garbage: string[] = [];
    for (const entry of await this.entries(folder, relative)) {
      const name = `${relative}/${entry.name}`;
      if (!ID_NAME.test(entry.name)) continue;
      if (entry.isDirectory()) {
        if (depth < CONTENT_DEPTH) await this.pruneContent(path.join(folder, entry.name), name, depth + 1, kept);
      } else if (!entry.isFile()) throw this.unsafe(name, NOT_FILE);
      else if (depth >= 2 && !kept.has(name)) garbage.push(entry.name);
    }
    for (const name of garbage) await fs.rm(path.join(folder, name));
    if (garbage.length > 0) await syncFolder(folder);
  }

  /** Writes `body` to a new temp file, fsyncs it and renames it over `relative`: the file appears whole or not at all. */
  async putWith(relative: string, fill: (handle: fs.FileHandle) => Promise<void>): Promise<void> {
    await this.writeNewWith(relative, 0o600, fill);
  }

  private async writeNew(body: AsyncIterable<Uint8Array>, relative: string, mode: number, signal: AbortSignal): Promise<void> {
    await this.writeNewWith(relative, mode, async (handle) => {
      await writeBatched(handle, body, signal);
    });
  }

  private async writeNewWith(relative: string, mode: number, fill: (handle: fs.FileHandle) => Promise<void>): Promise<void> {
    const parts = this.parts(relative);
    let temp: string | null = null;
    try {
      const tmp = (await this.folder(['tmp'], true))!;
      temp = path.join(tmp, `${crypto.randomBytes(8).toString('hex')}.part`);
      const handle = await fs.open(temp, NEW_FILE_FLAGS, mode);
      try {
        await fill(handle);
        // Fsynced before it closes, so the rename below never puts in place a file that a power cut would empty.
        await handle.sync();
      } finally {
        await handle.close();
      }
      const folder = (await this.folder(parts.slice(0, -1), true))!;
      const target = path.join(folder, parts.at(-1)!);
      const there = await lstatOrNull(target);
      if (there !== null) this.expectFile(there, relative);
      await fs.rename(temp, target);
      temp = null;
      await syncFolder(folder);
    } catch (error) {
      if (temp !== null) await fs.rm(temp, { force: true }).catch(() => {});
      throw unreachable(error);
    }
  }

  /**
   * The destination is still the folder the owner chose: its real path is the one stored (the
   * service resolved the owner's path when it was added). A folder that became a link since
   * (a swapped disk's folder pointing at a home folder, or at another destination's backup,
   * whose snapshots this one's retention would prune) is not followed.
   */
  private async stillItself(): Promise<void> {
    const real = await realpath(this.destination);
    if (real !== this.destination)
      throw new ArchiveUnsafe(
        '',
        `The backup folder ${this.destination} is now a link to ${real}. Hearth does not follow links on a backup drive, so it did not back up there. If you made the link on purpose, stop using this destination and add ${real} instead.`,
      );
  }

  /**
   * The folder `parts` below hearth-backup/, checked one step at a time from the destination
   * down: each a folder, never a link (lstat does not follow one). A missing step is made when
   * `make` (and fsynced into its parent), else the answer is null.
   */
  private async folder(parts: readonly string[], make = false): Promise<string | null> {
    let at = this.destination;
    this.expectFolder(await fs.lstat(at), null);
    const steps = [ARCHIVE_FOLDER, ...parts];
    for (let i = 0; i < steps.length; i++) {
      const parent = at;
      at = path.join(at, steps[i]!);
      let stat = await lstatOrNull(at);
      if (stat === null) {
        if (!make) return null;
        await fs.mkdir(at).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        });
        stat = await fs.lstat(at);
        await syncFolder(parent);
      }
      this.expectFolder(stat, steps.slice(1, i + 1).join('/'));
    }
    return at;
  }

  /** An ordinary file at `relative` (never a link, a pipe or a device); null when it or a folder on its way is not there. */
  private async file(relative: string): Promise<{ full: string; stat: Stats } | null> {
    const parts = this.parts(relative);
    const folder = await this.folder(parts.slice(0, -1));
    if (folder === null) return null;
    const full = path.join(folder, parts.at(-1)!);
    const stat = await lstatOrNull(full);
    if (stat === null) return null;
    this.expectFile(stat, relative);
    return { full, stat };
  }

  /** The checked file, opened without following a link or waiting on a pipe, and proved to be the file that was checked. */
  private async openChecked(relative: string): Promise<fs.FileHandle | null> {
    const found = await this.file(relative);
    if (found === null) return null;
    const handle = await fs.open(found.full, READ_FLAGS).catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ELOOP' ? this.unsafe(relative, LINK) : error;
    });
    try {
      const opened = await handle.stat();
      if (!opened.isFile() || opened.ino !== found.stat.ino || opened.dev !== found.stat.dev) throw this.unsafe(relative, NOT_FILE);
      return handle;
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** A folder's entries; a link among them stops everything (Hearth lists these folders to act on what is in them). */
  private async entries(folder: string, relative: string): Promise<Dirent[]> {
    const entries = await fs.readdir(folder, { withFileTypes: true });
    const link = entries.find((entry) => entry.isSymbolicLink());
    if (link) throw this.unsafe(`${relative}/${link.name}`, LINK);
    return entries;
  }

  /** The parts of a name Hearth was asked for; a name that could lead out of the archive (from a tampered manifest) is refused. */
  private parts(relative: string): string[] {
    const parts = archiveParts(relative);
    if (parts === null)
      throw new ArchiveUnsafe(
        ARCHIVE_FOLDER,
        `The backup in ${this.destination} names a file Hearth never makes (someone changed it), so Hearth did not read it.`,
      );
    return parts;
  }

  /** `relative` null: the destination folder itself. */
  private expectFolder(stat: Stats, relative: string | null): void {
    if (stat.isDirectory() && !stat.isSymbolicLink()) return;
    if (relative === null)
      throw new ArchiveUnsafe(
        '',
        `The backup folder ${this.destination} ${stat.isSymbolicLink() ? LINK : NOT_FOLDER} now. Hearth did not back up there.`,
      );
    throw this.unsafe(relative, stat.isSymbolicLink() ? LINK : NOT_FOLDER);
  }

  private expectFile(stat: Stats, relative: string): void {
    if (stat.isSymbolicLink()) throw this.unsafe(relative, LINK);
    if (!stat.isFile()) throw this.unsafe(relative, NOT_FILE);
  }

  private unsafe(relative: string, what: string): ArchiveUnsafe {
    const where = shownName(relative === '' ? ARCHIVE_FOLDER : `${ARCHIVE_FOLDER}/${relative}`);
    return new ArchiveUnsafe(
      where,
      `In the backup folder ${this.destination}, ${where} ${what}. Hearth did not put it there and did not follow it: nothing outside the backup folder was read, written or deleted. Remove it, or choose another folder.`,
    );
  }
}

async function lstatOrNull(file: string): Promise<Stats | null> {
  try {
    return await fs.lstat(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function guard(work: () => Promise<void>): Promise<void> {
  await guarded(work);
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
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
