import type { Readable } from 'node:stream';
import { identityBytes } from '../data-dir/age-keys.ts';
import { AgeFileOpener, AgeFileSealer } from './age-file.ts';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';

/**
 * age v1 files as streams (docs/backup-format.md: `age -d -i kit.txt` opens them), written and
 * read with Node's own crypto by age-file.ts. Never more than a chunk or two of a file in memory.
 */

/**
 * age's stream encryption over Node chunks: 64 KiB chunks, each authenticated (docs/backup-format.md),
 * to a recipient (`age1…`), or by a sealer the caller made to learn its header's MAC.
 */
export async function* encrypted(plain: AsyncIterable<Buffer>, to: string | AgeFileSealer): AsyncGenerator<Buffer> {
  const sealer = typeof to === 'string' ? new AgeFileSealer(to) : to;
  yield sealer.head;
  for await (const chunk of plain) yield* sealer.push(chunk);
  yield* sealer.end();
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
 * ArchiveFileDamaged (at the chunk where that shows). `header`: the MAC the file's header must
 * have (age-file.ts), and who is told the MAC it has.
 */
export async function* decrypted(
  stream: AsyncIterable<Uint8Array> & { destroy?(): void },
  identity: string,
  header: { expectedMac?: string | null; opened?: (mac: string) => void } = {},
): AsyncGenerator<Buffer> {
  const opener = new AgeFileOpener(identityBytes(identity), header.expectedMac ?? null);
  try {
    let told = false;
    for await (const chunk of asBuffers(stream)) {
      const plain = opener.push(chunk);
      if (!told && opener.headerMac !== null) header.opened?.(opener.headerMac);
      told = opener.headerMac !== null;
      yield* plain;
    }
    yield* opener.end();
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ArchiveFileDamaged(error);
  } finally {
    // A reader that stops at a padded file's true size leaves the rest unread: the file is closed all the same.
    stream.destroy?.();
  }
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
