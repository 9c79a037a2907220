import crypto from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { decrypted, isAgeFile, opened, sealed } from './age-streams.ts';
import type { ArchiveStorage } from './archive-storage.ts';
import { ArchiveFileDamaged, ArchiveKeyProblem, SnapshotUnproved } from './archive-errors.ts';
import { archiveKeys, hiddenContentPath, manifestMac, type ArchiveKeys } from './backup-auth.ts';
import type { BackupKey } from '../data-dir/backup-key.ts';
import {
  ARCHIVE_FORMAT,
  ENCRYPTED_FORMAT,
  KEYS_COPY,
  MANIFEST,
  parseManifest,
  type Manifest,
  type ManifestFile,
  type ManifestTrust,
} from './backup-manifest.ts';
import { firstBytes, type Filler } from './backup-padding.ts';
import { FolderStorage } from './folder-storage.ts';
import { contentCopiers, CopiersUnavailable } from './content-copiers.ts';
import { writeToArchive, type WrittenFile } from './archive-writes.ts';
import { copyContent, type CopyOrder, type CopyResult } from './content-copy.ts';
import { restoredKeys } from '../data-dir/keys.ts';

export { ArchiveUnreachable, type ArchiveStorage } from './archive-storage.ts';
export { ArchiveFileDamaged, ArchiveKeyProblem, SnapshotUnproved, SourceUnreadable } from './archive-errors.ts';
export * from './backup-manifest.ts';
export { ARCHIVE_FOLDER } from './folder-storage.ts';

/**
 * A backup archive, in the format docs/backup-format.md describes for a person restoring by
 * hand, on a folder or in a bucket (ArchiveStorage). Content files are kept once under
 * `content/`, shared by every snapshot; each snapshot is a folder under `snapshots/` with the
 * database, keys.json and, written last, manifest.json. A snapshot without its manifest is
 * unfinished (a cut run) and never counts. A file appears whole or not at all. Every manifest
 * is signed with a key derived from the backup key, plain or encrypted: a snapshot whose
 * signature does not check is someone else's and is never used (backup-manifest.ts).
 */
/** In an encrypted archive, in clear: the public key (`age1…`) every file is encrypted to. Its presence marks the archive encrypted. */
export const RECIPIENT_FILE = 'age-recipient.txt';

export interface SnapshotSummary {
  id: string;
  at: number;
  files: number;
  bytes: number;
  /** false: made before snapshots were signed (format 1); only a whole restore the owner accepts uses it. */
  signed: boolean;
}

/** A file of the archive as its manifest lists it: where, and how many bytes of it are the content. */
export type ArchiveFile = Pick<ManifestFile, 'path' | 'size' | 'header_mac'>;

export function snapshotFile(snapshot: string, name: string): string {
  return `snapshots/${snapshot}/${name}`;
}

export class BackupArchive {
  /** Manifests read by this archive object (each is decrypted once), by snapshot id. */
  private readonly read_ = new Map<string, { manifest: Manifest; trust: ManifestTrust }>();
  private readonly keys: ArchiveKeys | null;

  private constructor(
    readonly storage: ArchiveStorage,
    /** The public key an encrypted archive is encrypted to; null for a plain one. */
    readonly encryptedFor: string | null,
    /** The backup key (the kit): signs and checks every snapshot, and decrypts an encrypted archive. */
    private readonly key: BackupKey | null,
    private readonly now: () => number,
  ) {
    this.keys = key ? archiveKeys(key) : null;
  }

  /** Where it is, in words: the folder, or s3://bucket/prefix. */
  get destination(): string {
    return this.storage.place;
  }

  get encrypted(): boolean {
    return this.encryptedFor !== null;
  }

  /** Whether a backup key was given: without it nothing can be signed or proved. */
  get hasKey(): boolean {
    return this.key !== null;
  }

  /**
   * The archive at a destination: a folder's path, or a storage (a bucket). `create` makes it
   * (when the owner adds the destination); a run never does (FolderStorage.prepare says why).
   */
  static async open(
    destination: string | ArchiveStorage,
    options: { create: boolean; encryptTo?: string | null; key?: BackupKey | null; now?: () => number },
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
    return new BackupArchive(storage, encryptedFor, key, options.now ?? Date.now);
  }

  /** The identity that opens the archive's files when it is encrypted; throws when it was opened without it. */
  private openingIdentity(): string | null {
    if (this.encryptedFor === null) return null;
    return this.kitIdentity();
  }

  private kitIdentity(): string {
    if (this.key === null) throw new ArchiveKeyProblem('required');
    return this.key.identity;
  }

  /**
   * Every finished snapshot with what its manifest proves, oldest first. Throws when a manifest
   * is there but cannot be read (ArchiveFileDamaged, ManifestUnreadable).
   */
  async listSnapshots(): Promise<(SnapshotSummary & { trust: ManifestTrust })[]> {
    const out: (SnapshotSummary & { trust: ManifestTrust })[] = [];
    for (const id of await this.storage.snapshotIds()) {
      const read = await this.readManifest(id);
      if (!read) continue;
      const { manifest, trust } = read;
      const bytes = manifest.files.reduce((sum, f) => sum + f.size, 0);
      out.push({ id, at: manifest.at, files: manifest.files.length, bytes, signed: trust === 'signed', trust });
    }
    return out.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
  }

  /** Starts the copying threads ahead of a run's first file where this archive's files are copied on them (a folder's). */
  prepareCopies(): void {
    if (this.storage.openFile) contentCopiers.warm();
  }

  /** Finished snapshots this backup key signed, oldest first: the only ones a run, the console or a restore of one file uses. */
  async snapshots(): Promise<SnapshotSummary[]> {
    return (await this.listSnapshots()).filter((s) => s.trust === 'signed').map(({ trust: _trust, ...summary }) => summary);
  }

  /**
   * A snapshot's manifest; null when it has none (unfinished). Throws SnapshotUnproved when this
   * key did not sign it (`unsigned: 'accept'` takes one from before signatures), and when one is
   * there but unreadable.
   */
  async manifest(id: string, options: { unsigned?: 'accept' } = {}): Promise<Manifest | null> {
    const read = await this.readManifest(id);
    if (!read) return null;
    if (read.trust === 'signed' || (read.trust === 'unsigned' && options.unsigned === 'accept')) return read.manifest;
    throw new SnapshotUnproved(id, read.trust === 'unsigned');
  }

  /** The manifest as written, with what it proves; null when there is none. */
  async readManifest(id: string): Promise<{ manifest: Manifest; trust: ManifestTrust } | null> {
    const known = this.read_.get(id);
    if (known) return known;
    const bytes = await this.storage.readSmall(snapshotFile(id, MANIFEST));
    if (bytes === null) return null;
    const identity = this.openingIdentity();
    const text = identity ? await opened(bytes, identity) : bytes.toString('utf8');
    const read = parseManifest(text, { snapshot: id, encrypted: this.encrypted, keys: this.keys, now: this.now() });
    this.read_.set(id, read);
    return read;
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

  /** Every content file's stored size from one listing, where the storage lists cheaper than it answers file by file (a bucket); else null. */
  async contentSizes(): Promise<Map<string, number> | null> {
    return (await this.storage.contentSizes?.()) ?? null;
  }

  /**
   * Where a content file goes: by its library and id in a plain archive (a person copies
   * `content/internal/` back by hand), under a keyed hash of them in an encrypted one (the names
   * would tell when each file was uploaded).
   */
  contentPath(libraryId: string, blob: string): string {
    if (!this.encrypted) return `content/${libraryId}/${blob.slice(-2)}/${blob}`;
    if (this.keys === null) throw new ArchiveKeyProblem('required');
    return hiddenContentPath(libraryId, blob, this.keys);
  }

  /**
   * Streams `source` into the archive at `relative`, hashing (and, encrypted, padding and
   * encrypting) on the way; the file appears whole once this returns. Never more than a chunk
   * (a bucket: a few upload parts) in memory.
   */
  async write(
    source: Readable | FileHandle,
    relative: string,
    options: {
      signal: AbortSignal;
      onBytes?: (n: number) => void;
      /** Awaited before each chunk goes on: the run's turn behind the family's requests. */
      pace?: () => Promise<void>;
      /** What an encrypted file is padded with: spaces keep a JSON file JSON. */
      filler?: Filler;
    },
  ): Promise<WrittenFile> {
    return writeToArchive(this.storage, this.encryptedFor, source, relative, options);
  }

  /**
   * A snapshot's keys.json (keys.ts keysForBackup: never the token key). Encrypted to the kit in
   * a plain archive too: whoever finds a plain backup reads the family's files, but cannot make
   * links, read two-step secrets, or pass for the home's certificate authority.
   */
  async writeKeys(
    snapshot: string,
    keysText: string,
    options: { signal: AbortSignal; onBytes?: (n: number) => void },
  ): Promise<ManifestFile> {
    if (this.key === null) throw new ArchiveKeyProblem('required');
    const relative = snapshotFile(snapshot, KEYS_COPY);
    const body = this.encrypted ? keysText : await sealed(keysText, this.key.recipient);
    return { path: relative, ...(await this.write(Readable.from([Buffer.from(body)]), relative, { ...options, filler: 'spaces' })) };
  }

  /** A snapshot's keys.json, proved against its manifest entry and opened with the kit, as restoredKeys gives it back. */
  async readKeys(entry: ManifestFile, signal: AbortSignal): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.read(entry, signal)) chunks.push(chunk);
    const bytes = Buffer.concat(chunks);
    if (bytes.length !== entry.size || crypto.createHash('sha256').update(bytes).digest('hex') !== entry.sha256)
      throw new ArchiveFileDamaged(new Error(`${entry.path} does not match its SHA-256`));
    let text: string;
    try {
      text = isAgeFile(bytes) ? await opened(bytes, this.kitIdentity()) : bytes.toString('utf8');
    } catch (error) {
      if (error instanceof ArchiveKeyProblem) throw error;
      throw new ArchiveFileDamaged(error);
    }
    try {
      return restoredKeys(text);
    } catch (error) {
      throw new ArchiveFileDamaged(error);
    }
  }

  /** The manifest, signed with the kit's key, last: from this moment the snapshot exists. */
  async writeManifest(manifest: Omit<Manifest, 'format' | 'mac'>, signal: AbortSignal): Promise<void> {
    if (this.keys === null) throw new ArchiveKeyProblem('required');
    const body = { format: this.encrypted ? ENCRYPTED_FORMAT : ARCHIVE_FORMAT, ...manifest } as Manifest;
    const signed = { ...body, mac: manifestMac(body, this.keys) };
    await this.write(Readable.from([JSON.stringify(signed, null, 1)]), snapshotFile(manifest.snapshot, MANIFEST), {
      signal,
      filler: 'spaces',
    });
  }

  /**
   * A file's SHA-256 and size, read back from the archive: of its content, decrypted on the way
   * in an encrypted archive (a file that does not decrypt throws ArchiveFileDamaged). The SHA-256
   * is null where the file's `header_mac` proved it instead.
   */
  async hash(file: ArchiveFile, signal: AbortSignal): Promise<CopyResult> {
    return this.copyOut(file, null, signal, { drain: true });
  }

  /**
   * A file's content (decrypted in an encrypted archive, without its padding) written to the new
   * file `target`, or only hashed when `target` is null; its SHA-256 and size are the caller's to
   * prove against the manifest. From a folder the work is done on a worker thread
   * (content-copiers.ts); a bucket's bytes arrive on the event loop and are copied there.
   */
  async copyOut(
    file: ArchiveFile,
    target: string | null,
    signal: AbortSignal,
    options: { drain?: boolean; durable?: boolean; onBytes?: (n: number) => void } = {},
  ): Promise<CopyResult> {
    const order: CopyOrder = {
      identity: this.openingIdentity(),
      size: file.size,
      drain: options.drain ?? false,
      target,
      durable: options.durable ?? false,
      // The manifest's record proves as much as its SHA-256 would: as much as the manifest's signature.
      headerMac: this.encrypted ? (file.header_mac ?? null) : null,
    };
    const onBytes = options.onBytes ?? (() => {});
    const onTheEventLoop = async () => copyContent(await this.storage.openRead(file.path, signal), order, signal, onBytes);
    if (!this.storage.openFile) return onTheEventLoop();
    const handle = await this.storage.openFile(file.path);
    try {
      return await contentCopiers.copy(handle, order, signal, onBytes);
    } catch (error) {
      // The thread never started, so nothing of the file was read or written: the same copy, here.
      if (error instanceof CopiersUnavailable) return onTheEventLoop();
      throw error;
    } finally {
      await handle.close();
    }
  }

  /**
   * A file's content as a stream of chunks: decrypted in an encrypted archive, and without the
   * padding after its `size` bytes (`drain` decrypts the padding too, so a damaged byte there is
   * found). A plain archive's file is read whole, so one grown on the destination shows as another size.
   */
  async read(file: ArchiveFile, signal: AbortSignal, options: { drain?: boolean } = {}): Promise<AsyncIterable<Buffer>> {
    const identity = this.openingIdentity();
    const stream = await this.storage.openRead(file.path, signal);
    if (identity === null) return stream;
    return firstBytes(decrypted(stream, identity), file.size, options.drain);
  }

  /** The manifest goes first: a prune cut short leaves an unfinished snapshot, which the next run clears. */
  async removeSnapshot(id: string): Promise<void> {
    this.read_.delete(id);
    await this.storage.removeSnapshot(id, MANIFEST);
  }

  /** Removes content files that no kept snapshot lists. */
  async removeContentExcept(kept: ReadonlySet<string>): Promise<void> {
    await this.storage.removeContentExcept(kept);
  }
}
