import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { identityBytes, recipientBytes } from '../data-dir/age-keys.ts';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';
import { encodeHeader, hkdf, macHolds, readHeader } from './age-header.ts';
import { openStream, sealStream } from './age-stream.ts';
import { unwrapFileKey, wrapFileKey } from './age-x25519.ts';

/**
 * age v1 files (docs/backup-format.md: `age -d -i kit.txt` opens them) written and read with
 * Node's own crypto: one X25519 recipient, the header and its MAC (age-header.ts), a 16-byte
 * nonce, then the payload in authenticated 64 KiB chunks (age-stream.ts). Streamed: never more
 * than a chunk or two of a file in memory.
 */
const NONCE = 16;

function start(recipient: string): { head: Buffer; payloadKey: Buffer } {
  const fileKey = crypto.randomBytes(16);
  const header = encodeHeader([wrapFileKey(fileKey, recipientBytes(recipient))], fileKey);
  const nonce = crypto.randomBytes(NONCE);
  return { head: Buffer.concat([header, nonce]), payloadKey: hkdf(fileKey, nonce, 'payload') };
}

/** age's stream encryption over Node chunks: 64 KiB chunks, each authenticated (docs/backup-format.md). */
export async function* encrypted(plain: AsyncIterable<Buffer>, recipient: string): AsyncGenerator<Buffer> {
  const { head, payloadKey } = start(recipient);
  yield head;
  yield* sealStream(plain, payloadKey);
}

/** A small text (keys.json of a plain backup) encrypted to `recipient`: an age file `age -d` opens. */
export async function sealed(text: string, recipient: string): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of encrypted(oneChunk(Buffer.from(text, 'utf8')), recipient)) out.push(chunk);
  return Buffer.concat(out);
}

/** A small age file (a manifest, a sealed keys.json) opened with the identity (`AGE-SECRET-KEY-1…`), as text. Throws ArchiveFileDamaged. */
export async function opened(bytes: Buffer, identity: string): Promise<string> {
  const out: Buffer[] = [];
  for await (const chunk of decrypted(oneChunk(bytes), identity)) out.push(chunk);
  return Buffer.concat(out).toString('utf8');
}

/** Whether bytes are an age file (its first line). */
export function isAgeFile(bytes: Buffer): boolean {
  return bytes.subarray(0, AGE_HEADER.length).equals(AGE_HEADER);
}
const AGE_HEADER = Buffer.from('age-encryption.org/v1\n');

/**
 * The plaintext of an age file encrypted to `identity`, chunk by chunk, each yielded only once
 * it is proved. A file that is not one, is for another key, or was changed, cut or grown throws
 * ArchiveFileDamaged (at the chunk where that shows).
 */
export async function* decrypted(stream: AsyncIterable<Uint8Array> & { destroy?(): void }, identity: string): AsyncGenerator<Buffer> {
  const source = asBuffers(stream);
  try {
    let payloadKey: Buffer;
    let rest: Buffer;
    try {
      ({ payloadKey, rest } = await payloadStart(source, identityBytes(identity)));
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ArchiveFileDamaged(error);
    }
    const payload = (async function* () {
      if (rest.length > 0) yield rest;
      for (let next = await source.next(); !next.done; next = await source.next()) yield next.value;
    })();
    try {
      yield* openStream(payload, payloadKey);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      throw new ArchiveFileDamaged(error);
    }
  } finally {
    // A reader that stops at a padded file's true size leaves the rest unread: the file is closed all the same.
    stream.destroy?.();
  }
}

async function payloadStart(source: AsyncIterator<Buffer>, identity: Buffer): Promise<{ payloadKey: Buffer; rest: Buffer }> {
  const { header, rest: afterHeader } = await readHeader(source);
  const fileKey = unwrapFileKey(header.stanzas, identity);
  if (fileKey === null) throw new Error('not encrypted to this backup key');
  if (!macHolds(header, fileKey)) throw new Error('the age header was changed');
  let rest = afterHeader;
  while (rest.length < NONCE) {
    const next = await source.next();
    if (next.done) throw new Error('age file cut before its payload');
    rest = Buffer.concat([rest, next.value]);
  }
  return { payloadKey: hkdf(fileKey, rest.subarray(0, NONCE), 'payload'), rest: rest.subarray(NONCE) };
}

/** A storage's chunks as Buffers (a bucket's SDK may give plain Uint8Arrays), without copying. */
async function* asBuffers(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Buffer> {
  for await (const chunk of chunks) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

async function* oneChunk(bytes: Buffer): AsyncGenerator<Buffer> {
  yield bytes;
}

/**
 * The file being backed up, read so that its own failure (a library's drive) is told apart from
 * the destination's: only an error reading it becomes SourceUnreadable.
 */
export async function* readSource(source: Readable, failed: (error: unknown) => void): AsyncGenerator<Buffer> {
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
