import fs from 'node:fs';
import { identityBytes } from '../data-dir/age-keys.ts';
import { writeAllSync } from '../common/batched-writes.ts';
import { AgeFileOpener, AgeFileSealer } from './age-file.ts';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';
import { paddedSize, type Filler } from './backup-padding.ts';
import { PACE_EVERY, Tally, type CopyOrder, type CopyResult, type StoreOrder, type StoreResult } from './content-copy.ts';

/**
 * A copying thread's two jobs (content-copy-worker.ts), as plain loops of blocking reads and
 * writes into one reused buffer: the thread has nothing else to do while a file is copied, and
 * on a 2-core PC the promises, async generators and thread-pool hand-offs of a streamed copy
 * cost more CPU than the decryption (measured: a restore of 1 GiB spent 0.8 CPU s in them, and
 * 1.4 more in the thread pool's reads and writes with their wake-ups).
 */
export interface ThreadJob {
  /** Throws an AbortError once the server cancelled the job. */
  throwIfCancelled(): void;
  /** Blocks until the family's requests let the run go on (or the job is cancelled). */
  waitTurn(): void;
  onBytes(n: number): void;
}

/**
 * An archive file's content (decrypted in an encrypted archive, without its padding) hashed and
 * written to the new file `order.target`, as content-copy.ts's copyContent does on the event loop.
 * An encrypted file is read until its content is proved (at least one chunk, so a file that does
 * not decrypt says so), or whole with `drain`; a plain one whole.
 */
export function copyOut(fd: number, order: CopyOrder, job: ThreadJob, buffer: Buffer): CopyResult {
  const opener = order.identity === null ? null : new AgeFileOpener(identityBytes(order.identity), order.headerMac);
  const tally = new Tally(job.onBytes, opener === null || order.headerMac === null);
  // As the streamed copy did: in an encrypted archive, whatever stops the file decrypting (a failed read too) is its damage.
  const damage = (error: unknown) => (opener === null || (error as Error).name === 'AbortError' ? error : new ArchiveFileDamaged(error));
  const out = order.target === null ? null : fs.openSync(order.target, 'wx', 0o600);
  try {
    let left = opener === null ? Number.POSITIVE_INFINITY : order.size;
    let proved = false;
    for (;;) {
      job.throwIfCancelled();
      let chunks: Buffer[];
      let n: number;
      try {
        n = fs.readSync(fd, buffer, 0, buffer.length, null);
        const read = buffer.subarray(0, n);
        chunks = opener === null ? (n === 0 ? [] : [read]) : n === 0 ? opener.end() : opener.push(read);
      } catch (error) {
        throw damage(error);
      }
      const content: Buffer[] = [];
      for (const chunk of chunks) {
        proved = true;
        if (left === 0) continue;
        const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
        left -= piece.length;
        tally.add(piece);
        content.push(piece);
      }
      // Written before the next read: a plain archive's chunks are the read buffer itself.
      if (out !== null && content.length > 0) writeAllSync(out, content);
      if (n === 0 || (left === 0 && proved && !order.drain)) break;
    }
    if (out !== null && order.durable) fs.fsyncSync(out);
  } finally {
    if (out !== null) fs.closeSync(out);
  }
  return { ...tally.result(), ...(opener?.headerMac && { headerMac: opener.headerMac }) };
}

/**
 * A file being backed up (`source`) hashed and written to the new archive file `target` (padded
 * and encrypted in an encrypted archive), waiting its turn every megabyte when paced. A failure
 * to read the source is SourceUnreadable.
 */
export function storeIn(source: number, target: number, order: StoreOrder, job: ThreadJob, buffer: Buffer): StoreResult {
  const tally = new Tally(job.onBytes);
  const sealer = order.recipient === null ? null : new AgeFileSealer(order.recipient);
  let storedSize = 0;
  let pending: Buffer[] = sealer === null ? [] : [sealer.head];
  const write = (parts: Buffer[]) => {
    if (parts.length > 0) storedSize += writeAllSync(target, parts);
  };
  let sinceTurn = 0;
  for (;;) {
    job.throwIfCancelled();
    if (order.paced && sinceTurn >= PACE_EVERY) {
      sinceTurn = 0;
      job.waitTurn();
      job.throwIfCancelled();
    }
    let n: number;
    try {
      n = fs.readSync(source, buffer, 0, buffer.length, null);
    } catch (error) {
      throw new SourceUnreadable(error);
    }
    if (n === 0) break;
    const read = buffer.subarray(0, n);
    tally.add(read);
    sinceTurn += n;
    // Written before the next read: a plain archive's chunk is the read buffer itself.
    write(sealer === null ? [read] : [...pending, ...sealer.push(read)]);
    pending = [];
  }
  const { size, sha256 } = tally.result();
  if (sealer !== null) {
    const filler = fillers[order.filler];
    for (let left = paddedSize(size) - size; left > 0; left -= filler.length) {
      write([...pending, ...sealer.push(left >= filler.length ? filler : filler.subarray(0, left))]);
      pending = [];
    }
    write([...pending, ...sealer.end()]);
  }
  return { size, sha256: sha256!, storedSize, ...(sealer !== null && { headerMac: sealer.headerMac }) };
}

/** What padding is cut from (backup-padding.ts: a JSON file's is spaces, a binary's zeros). */
const fillers: Record<Filler, Buffer> = { zeros: Buffer.alloc(256 * 1024), spaces: Buffer.alloc(256 * 1024, 0x20) };
