import crypto from 'node:crypto';
import { recipientBytes } from '../data-dir/age-keys.ts';
import { encodeHeader, headerLength, hkdf, macHolds, parseHeader } from './age-header.ts';
import { PayloadOpener, PayloadSealer } from './age-stream.ts';
import { unwrapFileKey, wrapFileKey } from './age-x25519.ts';

/**
 * A whole age v1 file (docs/backup-format.md: `age -d -i kit.txt` opens it) as its bytes go by:
 * one X25519 recipient, the header and its MAC (age-header.ts), a 16-byte nonce, then the payload
 * in authenticated 64 KiB chunks (age-stream.ts). Synchronous and fed in pieces of any size, so
 * the streams of age-streams.ts and a copying thread's read loop (content-copy-thread.ts) share
 * it; never more than a chunk of a file is held.
 */
const NONCE = 16;

export class AgeFileSealer {
  /** The header and the nonce: the file's first bytes. */
  readonly head: Buffer;
  /** The header's MAC (hex): which file this is, for a manifest to record (AgeFileOpener's `expectedMac`). */
  readonly headerMac: string;
  private readonly payload: PayloadSealer;

  constructor(recipient: string) {
    const fileKey = crypto.randomBytes(16);
    const header = encodeHeader([wrapFileKey(fileKey, recipientBytes(recipient))], fileKey);
    const nonce = crypto.randomBytes(NONCE);
    this.head = Buffer.concat([header, nonce]);
    this.headerMac = parseHeader(header).mac.toString('hex');
    this.payload = new PayloadSealer(hkdf(fileKey, nonce, 'payload'));
  }

  /** The sealed chunks `plain` completes (the caller may reuse `plain` once this returns). */
  push(plain: Buffer): Buffer[] {
    return this.payload.push(plain);
  }

  end(): Buffer[] {
    return this.payload.end();
  }
}

/**
 * The plaintext of an age file encrypted to `identity` (its 32 bytes), each chunk given only once
 * it is proved. A file that is not one, is for another key, or was changed, cut or grown throws
 * a plain Error (at the chunk where that shows); the caller says what that means.
 *
 * With `expectedMac` (a signed manifest's record of the file's header MAC), a file with another
 * header throws too. Then the plaintext is the one the backup encrypted, with no need to hash it:
 * the header MAC is keyed by the file key, which only the backup and the kit's holder know, and
 * every chunk is sealed under a key derived from it (the public key beside an encrypted backup
 * lets anyone write an age file there, but not one with this header and a payload that opens).
 */
export class AgeFileOpener {
  private start: Buffer | null = Buffer.alloc(0);
  private payload: PayloadOpener | null = null;
  /** The header's MAC (hex), once the header was read. */
  headerMac: string | null = null;

  constructor(
    private readonly identity: Buffer,
    private readonly expectedMac: string | null = null,
  ) {}

  /** The plaintext `bytes` prove (the caller may reuse `bytes` once this returns). */
  push(bytes: Buffer): Buffer[] {
    if (this.payload) return this.payload.push(bytes);
    // Until the header and nonce are whole: they are rarely longer than a few hundred bytes.
    this.start = Buffer.concat([this.start!, bytes]);
    const length = headerLength(this.start);
    if (length === null || this.start.length < length + NONCE) return [];
    const header = parseHeader(this.start.subarray(0, length));
    const fileKey = unwrapFileKey(header.stanzas, this.identity);
    if (fileKey === null) throw new Error('not encrypted to this backup key');
    if (!macHolds(header, fileKey)) throw new Error('the age header was changed');
    this.headerMac = header.mac.toString('hex');
    if (this.expectedMac !== null && this.headerMac !== this.expectedMac) throw new Error('not the file the snapshot lists');
    const nonce = this.start.subarray(length, length + NONCE);
    const rest = this.start.subarray(length + NONCE);
    this.start = null;
    this.payload = new PayloadOpener(hkdf(fileKey, nonce, 'payload'));
    return this.payload.push(rest);
  }

  end(): Buffer[] {
    if (this.payload) return this.payload.end();
    const bytes = this.start!;
    throw new Error(
      bytes.length === 0 ? 'empty file' : headerLength(bytes) === null ? 'truncated age header' : 'age file cut before its payload',
    );
  }
}
