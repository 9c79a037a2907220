import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { decrypted, encrypted } from './age-streams.ts';
import { SourceUnreadable } from './archive-errors.ts';
import { firstBytes, padded, type Filler } from './backup-padding.ts';
import { writeBatched, type Writev } from '../common/batched-writes.ts';

/** What a copy out of the archive is asked to do with one file (content-copiers.ts carries it to a worker thread). */
export interface CopyOrder {
  /** The kit's identity (`AGE-SECRET-KEY-1…`) in an encrypted archive; null in a plain one. */
  identity: string | null;
  /** The file's content size (its manifest's `size`): what follows in an encrypted file is padding. */
  size: number;
  /** Decrypt the padding too, so a damaged byte there is found (the check); otherwise it is never read. */
  drain: boolean;
  /** A new file to write the content into (made here, never over one that is there); null: only hashed. */
  target: string | null;
  /** The target fsynced before the answer (a restore's staged file); otherwise the caller makes it durable. */
  durable: boolean;
}

export interface CopyResult {
  size: number;
  sha256: string;
}

/** What a copy into the archive is asked to do with one file being backed up (content-copiers.ts). */
export interface StoreOrder {
  /** The archive's public key (`age1…`) in an encrypted archive; null in a plain one. */
  recipient: string | null;
  /** What an encrypted file is padded with. */
  filler: Filler;
  /** Whether the run waits its turn behind the family's requests (pace) as it goes. */
  paced?: boolean;
}

export interface StoreResult extends CopyResult {
  /** The bytes written into the archive (the content, or its encrypted and padded form). */
  storedSize: number;
}

/** How often progress is told, in bytes: often enough for a progress bar, rarely enough to cost nothing. */
export const PROGRESS_EVERY = 4 * 1024 * 1024;
/** How often a paced copy asks for its turn: about as often as the event loop's copy did (a chunk of a megabyte). */
const PACE_EVERY = 1024 * 1024;

/**
 * A file being backed up, hashed as it is read and written to `out` (encrypted and padded in an
 * encrypted archive). The thread's side of content-copiers.ts's store; archive-writes.ts does
 * the same on the event loop for a bucket. A failure to read the file is SourceUnreadable.
 */
export async function storeContent(
  source: AsyncIterable<Buffer>,
  out: Writev,
  order: StoreOrder,
  signal: AbortSignal,
  onBytes: (n: number) => void,
  pace: () => Promise<void>,
): Promise<StoreResult> {
  const read = async function* () {
    try {
      yield* source;
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new SourceUnreadable(error);
    }
  };
  let sinceTurn = 0;
  const turns = async (n: number) => {
    sinceTurn += n;
    if (sinceTurn < PACE_EVERY) return;
    sinceTurn = 0;
    await pace();
  };
  const plain = measured(read(), onBytes, order.paced ? turns : undefined);
  const body = order.recipient === null ? plain.chunks : encrypted(padded(plain.chunks, order.filler), order.recipient);
  const storedSize = await writeBatched(out, body, signal);
  return { ...plain.result(), storedSize };
}

/**
 * One archive file's content (decrypted in an encrypted archive, without its padding) hashed and
 * written to `order.target`. The same code runs in a worker thread for a folder archive
 * (content-copy-worker.ts) and on the event loop for a bucket, whose bytes come over the network.
 * A file that does not decrypt throws ArchiveFileDamaged; the SHA-256 is the caller's to compare.
 */
export async function copyContent(
  stored: AsyncIterable<Buffer> & { destroy?(): void },
  order: CopyOrder,
  signal: AbortSignal,
  onBytes: (n: number) => void,
): Promise<CopyResult> {
  const content = measured(
    order.identity === null ? stored : firstBytes(decrypted(stored, order.identity), order.size, order.drain),
    onBytes,
  );
  try {
    if (order.target === null) {
      for await (const chunk of content.chunks) void chunk;
    } else {
      const out = await fs.open(order.target, 'wx', 0o600);
      try {
        await writeBatched(out, content.chunks, signal);
        if (order.durable) await out.sync();
      } finally {
        await out.close();
      }
    }
  } finally {
    stored.destroy?.();
  }
  return content.result();
}

/**
 * `source`'s chunks passed on as they are, hashed and counted on the way: progress told every
 * PROGRESS_EVERY bytes and the rest at the end, and `each` awaited after every chunk (a paced
 * copy's turns). `result` once the chunks are all through.
 */
function measured(
  source: AsyncIterable<Buffer>,
  onBytes: (n: number) => void,
  each?: (n: number) => Promise<void>,
): { chunks: AsyncGenerator<Buffer>; result(): CopyResult } {
  const hash = crypto.createHash('sha256');
  let size = 0;
  let untold = 0;
  const chunks = (async function* () {
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
      untold += chunk.length;
      if (untold >= PROGRESS_EVERY) {
        onBytes(untold);
        untold = 0;
      }
      if (each) await each(chunk.length);
      yield chunk;
    }
    if (untold > 0) onBytes(untold);
  })();
  return { chunks, result: () => ({ size, sha256: hash.digest('hex') }) };
}
