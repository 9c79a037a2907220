import crypto from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Decrypter, Encrypter } from 'age-encryption';
import type { ArchiveStorage } from './archive-storage.ts';
import type { BackupKey } from './backup-key.ts';
import { FolderStorage } from './folder-storage.ts';

export { ArchiveUnreachable, type ArchiveStorage } from './archive-storage.ts';
export { ARCHIVE_FOLDER } from './folder-storage.ts';

/**
 * A backup archive, in the format docs/backup-format.md describes for a person restoring by
 * hand, on a folder or in a bucket (ArchiveStorage). Content files are kept once under
 * `content/`, shared by every snapshot; each snapshot is a folder under `snapshots/` with the
 * database, keys.json and, written last, manifest.json. A snapshot without its manifest is
 * unfinished (a cut run) and never counts. A file appears whole or not at all.
 */
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
    readonly storage: ArchiveStorage,
    /** The public key an encrypted archive is encrypted to; null for a plain one. */
    readonly encryptedFor: string | null,
    private readonly key: BackupKey | null,
  ) {}

  /** Where it is, in words: the folder, or s3://bucket/prefix. */
  get destination(): string {
    return this.storage.place;
  }

  get encrypted(): boolean {
    return this.encryptedFor !== null;
  }

  /**
   * The archive at a destination: a folder's path, or a storage (a bucket). `create` makes it
   * (when the owner adds the destination); a run never does (FolderStorage.prepare says why).
   */
  static async open(
    destination: string | ArchiveStorage,
    options: { create: boolean; encryptTo?: string | null; key?: BackupKey | null },
  ): Promise<BackupArchive> {
    const storage = typeof destination === 'string' ? new FolderStorage(destination) : destination;
    await storage.prepare(options.create);
    let encryptedFor = (await storage.readSmall(RECIPIENT_FILE))?.toString('utf8').trim() ?? null;
    // Only a new (empty) archive becomes encrypted: one already holding a plain backup stays plain, and is refused for it.
    if (options.create && options.encryptTo && encryptedFor === null && (await storage.snapshotIds()).length === 0) {
      await storage.writeSmall(RECIPIENT_FILE, `${options.encryptTo}\n`);
      encryptedFor = options.encryptTo;
    }
    const key = options.key ?? null;
    if (encryptedFor !== null && key !== null && key.recipient !== encryptedFor) throw new ArchiveKeyProblem('wrong');
    return new BackupArchive(storage, encryptedFor, key);
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
    for (const id of await this.storage.snapshotIds()) if ((await this.sizeOf(snapshotFile(id, MANIFEST))) !== null) out.push(id);
    return out.sort();
  }

  /** Finished snapshots, oldest first. */
  async snapshots(): Promise<SnapshotSummary[]> {
    const out: SnapshotSummary[] = [];
    for (const id of await this.storage.snapshotIds()) {
      const manifest = await this.manifest(id);
      if (manifest)
        out.push({ id, at: manifest.at, files: manifest.files.length, bytes: manifest.files.reduce((sum, f) => sum + f.size, 0) });
    }
    return out.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  }

  /** A snapshot's manifest; null when it has none (unfinished). Throws when one is there but unreadable. */
  async manifest(id: string): Promise<Manifest | null> {
    const bytes = await this.storage.readSmall(snapshotFile(id, MANIFEST));
    if (bytes === null) return null;
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

  /** What a cut run left: snapshots without a manifest, temp files and unfinished uploads. */
  async removeUnfinished(): Promise<void> {
    for (const id of await this.storage.snapshotIds()) {
      if ((await this.sizeOf(snapshotFile(id, MANIFEST))) === null) await this.storage.removeSnapshot(id, MANIFEST);
    }
    await this.storage.clearUnfinished();
  }

  async startSnapshot(id: string): Promise<void> {
    await this.storage.startSnapshot(id);
  }

  /** The size of a file already in the archive; null when it is not there. */
  sizeOf(relative: string): Promise<number | null> {
    return this.storage.sizeOf(relative);
  }

  /**
   * Streams `source` into the archive at `relative`, hashing (and, encrypted, encrypting) on the
   * way; the file appears whole once this returns. Never more than a chunk (a bucket: a few
   * upload parts) in memory.
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
    // The first failure tells why: a stage torn down by another's failure says only "aborted".
    let failure: unknown = null;
    const store = (body: AsyncIterable<Uint8Array>) =>
      this.storage.put(body, relative, options.signal).catch((error: unknown) => {
        failure ??= error;
        throw error;
      });
    const reading = readSource(source, (error) => (failure ??= error));
    try {
      if (encryptTo === null) await pipeline(reading, counter, store, { signal: options.signal });
      else
        await pipeline(
          reading,
          counter,
          async function* (plain: AsyncIterable<Buffer>) {
            for await (const chunk of await encrypted(plain, encryptTo)) {
              storedSize += chunk.length;
              yield chunk;
            }
          },
          store,
          { signal: options.signal },
        );
    } catch (error) {
      if (options.signal.aborted || failure === null) throw error;
      throw failure;
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
    const decrypter = this.decrypter();
    const stream = await this.storage.openRead(relative, signal);
    if (decrypter === null) return stream;
    return decrypted(stream, decrypter);
  }

  /** The manifest goes first: a prune cut short leaves an unfinished snapshot, which the next run clears. */
  async removeSnapshot(id: string): Promise<void> {
    await this.storage.removeSnapshot(id, MANIFEST);
  }

  /** Removes content files that no kept snapshot lists. */
  async removeContentExcept(kept: ReadonlySet<string>): Promise<void> {
    await this.storage.removeContentExcept(kept);
  }
}

/**
 * The file being backed up, read so that its own failure (a library's drive) is told apart from
 * the destination's: only an error reading it becomes SourceUnreadable.
 */
async function* readSource(source: Readable, failed: (error: unknown) => void): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk as Buffer;
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    const unreadable = new SourceUnreadable(error);
    failed(unreadable);
    throw unreadable;
  } finally {
    source.destroy();
  }
}

/** age's stream encryption over Node chunks: 64 KiB chunks, each authenticated (docs/backup-format.md). */
async function encrypted(plain: AsyncIterable<Buffer>, recipient: string): Promise<AsyncIterable<Uint8Array>> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const out = await encrypter.encrypt(Readable.toWeb(Readable.from(plain)) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(out as unknown as import('node:stream/web').ReadableStream<Uint8Array>);
}

async function* decrypted(stream: AsyncIterable<Buffer> & { destroy(): void }, decrypter: Decrypter): AsyncGenerator<Buffer> {
  let plain;
  try {
    plain = await decrypter.decrypt(
      Readable.toWeb(stream instanceof Readable ? stream : Readable.from(stream)) as unknown as ReadableStream<Uint8Array>,
    );
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
