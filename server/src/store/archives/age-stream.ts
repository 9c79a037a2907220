import { aead } from './age-aead.ts';

/**
 * age's payload (https://age-encryption.org/v1, "Payload"): STREAM over ChaCha20-Poly1305, the
 * plaintext cut in 64 KiB chunks, each sealed under a nonce of an 11-byte big-endian counter and
 * a last-chunk flag. Only the last chunk may be short; it may be empty only when the whole
 * plaintext is. Each chunk is one call into the cipher (age-aead.ts; natively about a twentieth of
 * a millisecond), so the event loop is never held for long and no worker thread is worth its copies.
 *
 * Nothing here copies a chunk: a sealed chunk goes on as the cipher gave it (ciphertext, then
 * tag) and an opened one likewise, and the writers join them a megabyte at a time with writev
 * (store/common/batched-writes.ts). Joining them here, or writing them one by one (a syscall
 * and a few awaits each), cost an encrypted backup about twice the CPU of the cipher itself.
 */
export const CHUNK = 64 * 1024;
const TAG = 16;
export const SEALED_CHUNK = CHUNK + TAG;

function nonce(counter: number, last: boolean): Buffer {
  const bytes = Buffer.alloc(12);
  bytes.writeUIntBE(counter, 5, 6);
  bytes[11] = last ? 1 : 0;
  return bytes;
}

export function sealChunk(key: Buffer, counter: number, last: boolean, plain: Buffer): Buffer {
  return aead.seal(key, nonce(counter, last), plain);
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

/** The payload's sealed chunks, as one ciphertext stream (each chunk's ciphertext, then its tag). */
export async function* sealStream(plain: AsyncIterable<Buffer>, key: Buffer): AsyncGenerator<Buffer> {
  let counter = 0;
  for await (const { bytes, last } of pieces(plain, CHUNK)) yield* aead.sealParts(key, nonce(counter++, last), bytes);
}

/** The plaintext of a payload, chunk by chunk; throws at the first chunk that does not decrypt, and when the payload was cut or grown. */
export async function* openStream(sealed: AsyncIterable<Buffer>, key: Buffer): AsyncGenerator<Buffer> {
  let counter = 0;
  for await (const { bytes, last } of pieces(sealed, SEALED_CHUNK)) {
    const plain = openChunk(key, counter++, last, bytes);
    if (plain.length > 0) yield plain;
  }
}
