import crypto from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AgeFileSealer } from './age-file.ts';
import { encrypted, readSource } from './age-streams.ts';
import type { ArchiveStorage } from './archive-storage.ts';
import { padded, type Filler } from './backup-padding.ts';
import { contentCopiers, CopiersUnavailable } from './content-copiers.ts';
import type { StoreResult } from './content-copy.ts';

export interface WriteOptions {
  signal: AbortSignal;
  onBytes?: (n: number) => void;
  /** Awaited before each chunk goes on: the run's turn behind the family's requests. */
  pace?: () => Promise<void>;
  /** What an encrypted file is padded with: spaces keep a JSON file JSON. */
  filler?: Filler;
}

export interface WrittenFile {
  size: number;
  sha256: string;
  stored_size?: number;
  /** Encrypted: the new file's age header MAC (backup-manifest.ts). */
  header_mac?: string;
}

/** What a file being backed up is read in where it goes through the event loop (a bucket). */
const READ_SIZE = 256 * 1024;

/**
 * BackupArchive.write: `source` into the archive at `relative`, hashed (and, encrypted to
 * `encryptTo`, padded and encrypted) on the way. An open file going to a folder archive is copied
 * on a worker thread (content-copiers.ts); a stream, or a file going to a bucket, on the event loop.
 */
export async function writeToArchive(
  storage: ArchiveStorage,
  encryptTo: string | null,
  source: Readable | FileHandle,
  relative: string,
  options: WriteOptions,
): Promise<WrittenFile> {
  if (!(source instanceof Readable)) {
    const stored = await writeOnThread(storage, encryptTo, source, relative, options);
    if (stored) return stored;
    // No thread here, or a bucket: the same bytes through the event loop. The stream closes the handle; the caller's close then does nothing.
    source = source.createReadStream({ highWaterMark: READ_SIZE });
  }
  return writeOnTheEventLoop(storage, encryptTo, source, relative, options);
}

/** Null where the file cannot go through a thread (a bucket, or no thread could start): nothing of it was read yet. */
async function writeOnThread(
  storage: ArchiveStorage,
  encryptTo: string | null,
  source: FileHandle,
  relative: string,
  options: WriteOptions,
): Promise<WrittenFile | null> {
  if (!storage.putWith) return null;
  const order = { recipient: encryptTo, filler: options.filler ?? 'zeros' };
  let stored: StoreResult | null = null;
  try {
    await storage.putWith(relative, async (target) => {
      stored = await contentCopiers.store(source, target, order, options.signal, options.onBytes ?? (() => {}), options.pace);
    });
  } catch (error) {
    if (error instanceof CopiersUnavailable) return null;
    throw error;
  }
  const { size, sha256, storedSize, headerMac } = stored!;
  return { size, sha256, ...(encryptTo !== null && { stored_size: storedSize }), ...(headerMac && { header_mac: headerMac }) };
}

async function writeOnTheEventLoop(
  storage: ArchiveStorage,
  encryptTo: string | null,
  source: Readable,
  relative: string,
  options: WriteOptions,
): Promise<WrittenFile> {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let storedSize = 0;
  const filler = options.filler ?? 'zeros';
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
    storage.put(body, relative, options.signal).catch((error: unknown) => {
      failure ??= error;
      throw error;
    });
  const reading = readSource(source, (error) => (failure ??= error));
  const sealer = encryptTo === null ? null : new AgeFileSealer(encryptTo);
  try {
    if (sealer === null) await pipeline(reading, counter, store, { signal: options.signal });
    else
      await pipeline(
        reading,
        counter,
        async function* (plain: AsyncIterable<Buffer>) {
          for await (const chunk of encrypted(padded(plain, filler), sealer)) {
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
  return {
    size,
    sha256: hash.digest('hex'),
    ...(sealer !== null && { stored_size: storedSize, header_mac: sealer.headerMac }),
  };
}
