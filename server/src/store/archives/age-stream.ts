import { aead } from './age-aead.ts';

/**
 * age's payload (https://age-encryption.org/v1, "Payload"): STREAM over ChaCha20-Poly1305, the
 * plaintext cut in 64 KiB chunks, each sealed under a nonce of an 11-byte big-endian counter and
 * a last-chunk flag. Only the last chunk may be short; it may be empty only when the whole
 * plaintext is. Each chunk is one call into the cipher (age-aead.ts; natively about a twentieth of
 * a millisecond).
 *
 * A chunk goes on as the cipher gave it (ciphertext, then tag; or plaintext), and the writers join
 * them 256 KiB at a time with writev (store/common/batched-writes.ts): joining them here, or
 * writing them one by one, cost an encrypted backup about twice the CPU of the cipher itself. Only
 * the chunk held back to learn whether it is the last is copied.
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
 * Bytes arriving in pieces of any size, cut into `size`-byte chunks, each told whether it is the
 * last: that needs one byte of look-ahead, so a full chunk is held until the next byte or the end
 * shows. Whole chunks are handed on as views of the caller's bytes; what is held is copied, so the
 * caller may fill the same buffer again (a read loop's) once `push` returns.
 */
class Chunker {
  private readonly held: Buffer;
  private heldBytes = 0;
  private pushed = false;

  constructor(private readonly size: number) {
    this.held = Buffer.allocUnsafe(size);
  }

  push(bytes: Buffer, each: (chunk: Buffer, last: boolean) => void): void {
    if (bytes.length === 0) return;
    this.pushed = true;
    let at = 0;
    if (this.heldBytes === this.size) {
      each(this.held, false);
      this.heldBytes = 0;
    }
    if (this.heldBytes > 0) {
      at = bytes.copy(this.held, this.heldBytes, 0, this.size - this.heldBytes);
      this.heldBytes += at;
      if (this.heldBytes < this.size || at === bytes.length) return;
      each(this.held, false);
      this.heldBytes = 0;
    }
    // Strictly more than a chunk left: then this one is not the last.
    for (; bytes.length - at > this.size; at += this.size) each(bytes.subarray(at, at + this.size), false);
    this.heldBytes = bytes.copy(this.held, 0, at);
  }

  /** The last chunk: empty only when nothing at all was pushed. */
  end(each: (chunk: Buffer, last: boolean) => void): void {
    if (this.pushed && this.heldBytes === 0) throw new Error('chunker ended twice');
    each(this.held.subarray(0, this.heldBytes), true);
    this.heldBytes = 0;
  }
}

/**
 * age's payload sealed as its plaintext arrives: each call gives the sealed chunks known so far
 * (each chunk's ciphertext, then its tag), `end` the last. Synchronous, so a worker thread's read
 * loop and an async stream drive the same code.
 */
export class PayloadSealer {
  private readonly chunks = new Chunker(CHUNK);
  private counter = 0;

  constructor(private readonly key: Buffer) {}

  push(plain: Buffer): Buffer[] {
    const out: Buffer[] = [];
    this.chunks.push(plain, (chunk, last) => out.push(...aead.sealParts(this.key, nonce(this.counter++, last), chunk)));
    return out;
  }

  end(): Buffer[] {
    const out: Buffer[] = [];
    this.chunks.end((chunk, last) => out.push(...aead.sealParts(this.key, nonce(this.counter++, last), chunk)));
    return out;
  }
}

/**
 * age's payload opened as its bytes arrive: each call gives the plaintext of the chunks proved so
 * far, `end` the last one's. Throws at the first chunk that does not decrypt, and at the end when
 * the payload was cut or grown (its last chunk is not the one sealed as last).
 */
export class PayloadOpener {
  private readonly chunks = new Chunker(SEALED_CHUNK);
  private counter = 0;

  constructor(private readonly key: Buffer) {}

  push(sealed: Buffer): Buffer[] {
    const out: Buffer[] = [];
    this.chunks.push(sealed, (chunk, last) => this.open(chunk, last, out));
    return out;
  }

  end(): Buffer[] {
    const out: Buffer[] = [];
    this.chunks.end((chunk, last) => this.open(chunk, last, out));
    return out;
  }

  private open(chunk: Buffer, last: boolean, out: Buffer[]): void {
    if (last && chunk.length === 0) throw new Error('age file cut before its payload');
    const plain = openChunk(this.key, this.counter++, last, chunk);
    if (plain.length > 0) out.push(plain);
  }
}
