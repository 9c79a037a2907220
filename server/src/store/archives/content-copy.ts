import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { decrypted } from './age-streams.ts';
import { firstBytes, type Filler } from './backup-padding.ts';
import { writeBatched } from '../common/batched-writes.ts';

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
  /**
   * In an encrypted archive, the header MAC the signed manifest records for the file (hex), or
   * null: a file with another header is damaged, and one with this header is proved by opening it
   * (age-file.ts's AgeFileOpener), so it is not hashed.
   */
  headerMac: string | null;
}

export interface CopyResult {
  size: number;
  /** Of the content; null when the file was proved by its header MAC instead (CopyOrder.headerMac). */
  sha256: string | null;
  /** In an encrypted archive: the MAC of the file's age header (hex). */
  headerMac?: string;
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

export interface StoreResult {
  size: number;
  sha256: string;
  /** The bytes written into the archive (the content, or its encrypted and padded form). */
  storedSize: number;
  /** In an encrypted archive: the MAC of the new file's age header (hex), for the manifest. */
  headerMac?: string;
}

/** How often progress is told, in bytes: often enough for a progress bar, rarely enough to cost nothing. */
export const PROGRESS_EVERY = 4 * 1024 * 1024;
/** How often a paced copy waits its turn: about as often as the event loop's copy did (a chunk of a megabyte). */
export const PACE_EVERY = 1024 * 1024;

/**
 * One archive file's content (decrypted in an encrypted archive, without its padding) hashed and
 * written to `order.target`, on the event loop: a bucket's bytes come over the network (and a
 * folder's where no thread could start; content-copy-thread.ts's copyOut does this on a thread).
 * A file that does not decrypt throws ArchiveFileDamaged; the SHA-256 is the caller's to compare.
 */
export async function copyContent(
  stored: AsyncIterable<Buffer> & { destroy?(): void },
  order: CopyOrder,
  signal: AbortSignal,
  onBytes: (n: number) => void,
): Promise<CopyResult> {
  let headerMac: string | undefined;
  const content = measured(
    order.identity === null
      ? stored
      : firstBytes(
          decrypted(stored, order.identity, { expectedMac: order.headerMac, opened: (mac) => (headerMac = mac) }),
          order.size,
          order.drain,
        ),
    onBytes,
    order.identity === null || order.headerMac === null,
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
  return { ...content.result(), ...(headerMac && { headerMac }) };
}

/**
 * A copy's content hashed and counted as it goes by, progress told every PROGRESS_EVERY bytes and
 * the rest by `result` (content-copy-thread.ts's loops and the stream below share it).
 */
export class Tally {
  private readonly hash: crypto.Hash | null;
  private size = 0;
  private untold = 0;

  /** `hashed`: false where the content is proved otherwise (CopyOrder.headerMac). */
  constructor(
    private readonly onBytes: (n: number) => void,
    hashed = true,
  ) {
    this.hash = hashed ? crypto.createHash('sha256') : null;
  }

  add(chunk: Uint8Array): void {
    this.hash?.update(chunk);
    this.size += chunk.length;
    this.untold += chunk.length;
    if (this.untold >= PROGRESS_EVERY) this.tell();
  }

  /** Tells what progress is still untold (the end of the content). */
  tell(): void {
    if (this.untold > 0) this.onBytes(this.untold);
    this.untold = 0;
  }

  result(): { size: number; sha256: string | null } {
    this.tell();
    return { size: this.size, sha256: this.hash?.digest('hex') ?? null };
  }
}

/** `source`'s chunks passed on as they are, tallied on the way; `result` once they are all through. */
function measured(
  source: AsyncIterable<Buffer>,
  onBytes: (n: number) => void,
  hashed: boolean,
): { chunks: AsyncGenerator<Buffer>; result(): CopyResult } {
  const tally = new Tally(onBytes, hashed);
  const chunks = (async function* () {
    for await (const chunk of source) {
      tally.add(chunk);
      yield chunk;
    }
    tally.tell();
  })();
  return { chunks, result: () => tally.result() };
}
