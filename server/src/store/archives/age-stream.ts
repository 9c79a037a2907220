import { aead } from './age-aead.ts';

/**
 * age's payload (https://age-encryption.org/v1, "Payload"): STREAM over ChaCha20-Poly1305, the
 * plaintext cut in 64 KiB chunks, each sealed under a nonce of an 11-byte big-endian counter and
 * a last-chunk flag. Only the last chunk may be short; it may be empty only when the whole
 * plaintext is. Each chunk is one call into the cipher (age-aead.ts; natively about a twentieth of
 * a millisecond), so the event loop is never held for long and no worker thread is worth its copies.
 *
 * The chunks go on in batches of about a megabyte (BATCH), as the plain copy reads and writes:
 * one 64 KiB chunk at a time through every stage (a write, a hash update, a few awaits each)
 * cost an encrypted backup about twice the CPU of the cipher itself.
 */
export const CHUNK = 64 * 1024;
const TAG = 16;
export const SEALED_CHUNK = CHUNK + TAG;
/** How many bytes of sealed (or opened) chunks are joined before they go on: 16 chunks, the size the backup reads its files in. */
export const BATCH = 16 * CHUNK;

function nonce(counter: number, last: boolean): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeUIntBE(counter, 5, 6);
  bytes[11] = last ? 1 : 0;
  return bytes;
}

export function sealChunk(key: Buffer, counter: number, last: boolean, plain: Buffer): Buffer {
  return aead.seal(key, nonce(counter, last), plain);
}

/** Collects buffers and hands them on joined, once they reach BATCH bytes (or at the end). */
class Batch {
  private parts: Buffer[] = [];
  private bytes = 0;

  add(parts: Buffer[]): void {
    for (const part of parts) {
      this.parts.push(part);
      this.bytes += part.length;
    }
  }

  get full(): boolean {
    return this.bytes >= BATCH;
  }

  get empty(): boolean {
    return this.bytes === 0;
  }

  take(): Buffer {
    const joined = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.bytes);
    this.parts = [];
    this.bytes = 0;
    return joined;
  }
}

/** A chunk's plaintext; throws when it was changed, moved, or is not the chunk `last` says. */
export function openChunk(key: Buffer, counter: number, last: boolean, sealed: Buffer): Buffer {
  if (sealed.length < TAG || sealed.length > SEALED_CHUNK) throw new Error('bad chunk size');
  if (last && sealed.length === TAG && counter > 0) throw new Error('empty last chunk after a full one');
  try {
    return aead.open(key, nonce(counter, last), sealed);
  } catch {
    throw new Error(last ? 'a chunk does not decrypt (changed, or the file was cut or grown)' : 'a chunk does not decrypt');
  }
}

/**
 * Cuts a byte stream into pieces of exactly `size` bytes, the last shorter (or empty, when the
 * stream was), each told whether it is the last: that needs one byte of look-ahead, so a full
 * piece is held until the next byte or the end shows.
 */
export async function* pieces(source: AsyncIterable<Buffer>, size: number): AsyncGenerator<{ bytes: Buffer; last: boolean }> {
  const queued: Buffer[] = [];
  let queuedBytes = 0;
  const take = (): Buffer => {
    const first = queued[0]!;
    if (first.length >= size) {
      const out = first.subarray(0, size);
      if (first.length === size) queued.shift();
      else queued[0] = first.subarray(size);
      queuedBytes -= size;
      return out;
    }
    const out = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const head = queued[0]!;
      const n = Math.min(head.length, size - filled);
      head.copy(out, filled, 0, n);
      filled += n;
      if (n === head.length) queued.shift();
      else queued[0] = head.subarray(n);
    }
    queuedBytes -= size;
    return out;
  };
  for await (const chunk of source) {
    if (chunk.length === 0) continue;
    queued.push(chunk);
    queuedBytes += chunk.length;
    // Strictly more than a piece: then the piece is not the last.
    while (queuedBytes > size) yield { bytes: take(), last: false };
  }
  yield { bytes: queuedBytes === 0 ? Buffer.alloc(0) : queuedBytes === size ? take() : Buffer.concat(queued, queuedBytes), last: true };
}

/** The payload's sealed chunks, as one ciphertext stream, in batches of about BATCH bytes. */
export async function* sealStream(plain: AsyncIterable<Buffer>, key: Buffer): AsyncGenerator<Buffer> {
  let counter = 0;
  const batch = new Batch();
  for await (const { bytes, last } of pieces(plain, CHUNK)) {
    batch.add(aead.sealParts(key, nonce(counter++, last), bytes));
    if (batch.full || last) yield batch.take();
  }
}

/**
 * The plaintext of a payload, in batches of about BATCH bytes, each only of proved chunks;
 * throws at the first chunk that does not decrypt, and when the payload was cut or grown.
 */
export async function* openStream(sealed: AsyncIterable<Buffer>, key: Buffer): AsyncGenerator<Buffer> {
  let counter = 0;
  const batch = new Batch();
  for await (const { bytes, last } of pieces(sealed, SEALED_CHUNK)) {
    let plain: Buffer;
    try {
      plain = openChunk(key, counter++, last, bytes);
    } catch (error) {
      // What was proved before the damage still goes on (the one-item restore streams it), then the damage shows.
      if (!batch.empty) yield batch.take();
      throw error;
    }
    if (plain.length > 0) batch.add([plain]);
    if ((batch.full || last) && !batch.empty) yield batch.take();
  }
}
