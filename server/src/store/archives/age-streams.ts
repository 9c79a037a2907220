import { Readable } from 'node:stream';
import type { ReadableStream as NodeWebStream } from 'node:stream/web';
import { Decrypter, Encrypter } from 'age-encryption';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';

/** age's stream encryption over Node chunks: 64 KiB chunks, each authenticated (docs/backup-format.md). */
export async function encrypted(plain: AsyncIterable<Buffer>, recipient: string): Promise<AsyncIterable<Uint8Array>> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  const out = await encrypter.encrypt(Readable.toWeb(Readable.from(plain)) as unknown as ReadableStream<Uint8Array>);
  return Readable.fromWeb(out as unknown as NodeWebStream<Uint8Array>);
}

/** A small text (keys.json of a plain backup) encrypted to `recipient`: an age file `age -d` opens. */
export async function sealed(text: string, recipient: string): Promise<Buffer> {
  const encrypter = new Encrypter();
  encrypter.addRecipient(recipient);
  return Buffer.from(await encrypter.encrypt(text));
}

/** Whether bytes are an age file (its first line). */
export function isAgeFile(bytes: Buffer): boolean {
  return bytes.subarray(0, AGE_HEADER.length).equals(AGE_HEADER);
}
const AGE_HEADER = Buffer.from('age-encryption.org/v1\n');

export async function* decrypted(stream: AsyncIterable<Buffer> & { destroy(): void }, decrypter: Decrypter): AsyncGenerator<Buffer> {
  let plain;
  try {
    plain = await decrypter.decrypt(
      Readable.toWeb(stream instanceof Readable ? stream : Readable.from(stream)) as unknown as ReadableStream<Uint8Array>,
    );
  } catch (error) {
    stream.destroy();
    throw new ArchiveFileDamaged(error);
  }
  try {
    for await (const chunk of Readable.fromWeb(plain as unknown as NodeWebStream<Uint8Array>)) yield Buffer.from(chunk as Uint8Array);
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ArchiveFileDamaged(error);
  } finally {
    // A reader that stops at a padded file's true size leaves the rest unread: the file is closed all the same.
    stream.destroy();
  }
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
