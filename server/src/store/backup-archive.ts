import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createReadStream, createWriteStream } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Decrypter, Encrypter } from 'age-encryption';
import type { BackupKey } from './backup-key.ts';
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
/** The same layout, every file but the recipient file encrypted with age (docs/backup-format.md). */
export const ENCRYPTED_FORMAT = 'hearth-backup/1+age';
/** In an encrypted archive, in clear: the public key (`age1…`) every file is encrypted to. Its presence marks the archive encrypted. */
export const RECIPIENT_FILE = 'age-recipient.txt';
export const MANIFEST = 'manifest.json';
export const DATABASE_COPY = 'hearth.db';
export const KEYS_COPY = 'keys.json';

export interface ManifestFile {
  /** Relative to the hearth-backup folder, with forward slashes. */
  path: string;
  /** Of the file's content (decrypted, in an encrypted archive). */
  size: number;
  sha256: string;
  /** In an encrypted archive: the bytes the encrypted file takes on the destination. */
  stored_size?: number;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT | typeof ENCRYPTED_FORMAT;
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

/** An encrypted archive opened without the key that opens it, or with another one. */
export class ArchiveKeyProblem extends Error {
  constructor(readonly reason: 'required' | 'wrong') {
    super(`backup key ${reason}`);
  }
}

/** A file of an encrypted archive that does not decrypt: changed or cut on the destination. */
export class ArchiveFileDamaged extends Error {
  constructor(cause: unknown) {
    super(`backup file does not decrypt: ${(cause as Error).message}`, { cause });
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
    /** The public key an encrypted archive is encrypted to; null for a plain one. */
    readonly encryptedFor: string | null,
    private readonly key: BackupKey | null,
  ) {}

  get encrypted(): boolean {
    return this.encryptedFor !== null;
  }

  /**
   * The archive in a destination folder. `create` makes it (when the owner adds the destination);
   * a run never does: an unplugged USB disk often leaves its mount point behind as an empty
   * folder on the system disk, and a backup written there would look fine and be lost with the
   * PC. Without its hearth-backup folder, the destination is "not there".
   */
  static async open(
    destination: string,
    options: { create: boolean; encryptTo?: string | null; key?: BackupKey | null },
  ): Promise<BackupArchive> {
    const root = path.join(destination, ARCHIVE_FOLDER);
    let encryptedFor: string | null = null;
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
      encryptedFor = await readRecipient(root);
      // Only a new (empty) archive becomes encrypted: one already holding a plain backup stays plain, and is refused for it.
      const empty = (await fs.readdir(path.join(root, 'snapshots'))).length === 0;
      if (options.create && options.encryptTo && encryptedFor === null && empty) {
        await writeSmallFile(root, RECIPIENT_FILE, `${options.encryptTo}\n`);
        encryptedFor = options.encryptTo;
      }
    });
    const key = options.key ?? null;
    if (encryptedFor !== null && key !== null && key.recipient !== encryptedFor) throw new ArchiveKeyProblem('wrong');
    return new BackupArchive(destination, root, encryptedFor, key);
  }

  /** The key, when the archive is encrypted; throws when it was opened without it. */
  private decrypter(): Decrypter | null {
    if (this.encryptedFor === null) return null;
    if (this.key === null) throw new ArchiveKeyProblem('required');
    const decrypter = new Decrypter();
    decrypter.addIdentity(this.key.identity);
    return decrypter;
  }

  /** Finished snapshot ids, read from the folder names alone (no key needed): their order, not their content. */
  async finishedSnapshotIds(): Promise<string[]> {
    const out: string[] = [];
    for (const id of await this.snapshotFolders()) if ((await this.sizeOf(snapshotFile(id, MANIFEST))) !== null) out.push(id);
    return out.sort();
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
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(this.full(snapshotFile(id, MANIFEST)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw unreachable(error);
    }
    const decrypter = this.decrypter();
    let text: string;
    try {
      text = decrypter ? await decrypter.decrypt(bytes, 'text') : bytes.toString('utf8');
    } catch (error) {
      throw new ArchiveFileDamaged(error);
    }
    const manifest = JSON.parse(text) as Manifest;
    const format = this.encrypted ? ENCRYPTED_FORMAT : ARCHIVE_FORMAT;
    if (manifest.format !== format || !Array.isArray(manifest.files)) throw new Error(`snapshot ${id}: not a ${format} manifest`);
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
    options: {
      signal: AbortSignal;
      onBytes?: (n: number) => void;
      /** Awaited before each chunk goes on: the run's turn behind the family's requests. */
      pace?: () => Promise<void>;
    },
  ): Promise<{ size: number; sha256: string; stored_size?: number }> {
    const hash = crypto.createHash('sha256');
    let size = 0;
    let storedSize = 0;
    const encryptTo = this.encryptedFor;
    const temp = path.join(this.root, 'tmp', `${crypto.randomBytes(8).toString('hex')}.part`);
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        hash.update(chunk);
        options.onBytes?.(chunk.length);
        if (options.pace === undefined) callback(null, chunk);
        else
          options.pace().then(
            () => callback(null, chunk),
            (error: unknown) => callback(error as Error),
          );
      },
    });
    // Which end failed first: once one fails, pipeline() destroys the others with the same error,
    // so a full destination would otherwise read as a source that cannot be read.
    let failedFirst: 'source' | 'destination' | null = null;
    source.once('error', () => (failedFirst ??= 'source'));
    try {
      const file = createWriteStream(temp, { flags: 'wx', mode: 0o600 });
      file.once('error', () => (failedFirst ??= 'destination'));
      if (encryptTo === null) await pipeline(source, counter, file, { signal: options.signal });
      else
        await pipeline(
          source,
          counter,
          async function* (plain: AsyncIterable<Buffer>) {
            for await (const chunk of await encrypted(plain, encryptTo)) {
              storedSize += chunk.length;
              yield chunk;
            }
          },
          file,
          { signal: options.signal },
        );
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
      if (failedFirst === 'source') throw new SourceUnreadable(error);
      throw unreachable(error);
    }
    return { size, sha256: hash.digest('hex'), ...(encryptTo !== null && { stored_size: storedSize }) };
  }

  /** The manifest, last: from this moment the snapshot exists. */
  async writeManifest(manifest: Manifest, signal: AbortSignal): Promise<void> {
    await this.write(Readable.from([JSON.stringify(manifest, null, 1)]), snapshotFile(manifest.snapshot, MANIFEST), { signal });
  }

  /**
   * A file's SHA-256 and size, read back from the archive: of its content, decrypted on the way
   * in an encrypted archive (a file that does not decrypt throws ArchiveFileDamaged).
   */
  async hash(relative: string, signal: AbortSignal): Promise<{ size: number; sha256: string }> {
    const hash = crypto.createHash('sha256');
    let size = 0;
    for await (const chunk of await this.read(relative, signal)) {
      size += chunk.length;
      hash.update(chunk);
    }
    return { size, sha256: hash.digest('hex') };
  }

  /** A file's content as a stream of chunks, decrypted in an encrypted archive. */
  async read(relative: string, signal: AbortSignal): Promise<AsyncIterable<Buffer>> {
    const stream = createReadStream(this.full(relative), { highWaterMark: 1024 * 1024, signal });
    const decrypter = this.decrypter();
    if (decrypter === null) return stream as AsyncIterable<Buffer>;
    await new Promise<void>((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    return decrypted(stream, decrypter);
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

/** age's stream encryption over Node chunks: 64 KiB chunks, each authenticated (docs/backup-format.md). */
async function encrypted(plain: AsyncIterable<Buffer>, recipient: string): Promise<AsyncIterable<Uint8Array>> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const out = await encrypter.encrypt(Readable.toWeb(Readable.from(plain)) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(out as unknown as import('node:stream/web').ReadableStream<Uint8Array>);
}

async function* decrypted(stream: Readable, decrypter: Decrypter): AsyncGenerator<Buffer> {
  let plain;
  try {
    plain = await decrypter.decrypt(Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>);
  } catch (error) {
    stream.destroy();
    throw new ArchiveFileDamaged(error);
  }
  try {
    for await (const chunk of Readable.fromWeb(plain as unknown as import('node:stream/web').ReadableStream<Uint8Array>))
      yield Buffer.from(chunk as Uint8Array);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ArchiveFileDamaged(error);
  }
}

async function readRecipient(root: string): Promise<string | null> {
  try {
    return (await fs.readFile(path.join(root, RECIPIENT_FILE), 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function writeSmallFile(folder: string, name: string, text: string): Promise<void> {
  const temp = path.join(folder, `.${name}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  await fs.writeFile(temp, text, { mode: 0o644, flush: true });
  await fs.rename(temp, path.join(folder, name));
  await syncFolder(folder);
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
