import type { Hash } from 'node:crypto';
import fs from 'node:fs/promises';
import { Writable } from 'node:stream';

/** Tries in a row that write nothing before the writer gives up (as Node's own streams do). */
const MAX_EMPTY_WRITES = 5;

/**
 * Writes a stream into an existing file from `start`, each byte at its place. Node's
 * fs.WriteStream retries a short write (what a disk that fills up mid-write gives back) at the
 * position where the whole batch would have ended, not where the write stopped (its
 * `writevAll` reads `this.pos`, already moved on: Node 20 to 24): the rest lands further on,
 * leaving a gap, and the file ends up longer than what arrived. On a full disk that is an
 * upload whose offset passes its length and whose bytes are wrong. This writer keeps its own
 * position and continues a short write exactly where it stopped.
 *
 * `hash`, when given, takes exactly the bytes that landed, in file order, once they have: it
 * always covers the file up to `position`, whatever error stops the stream, so an upload's
 * running SHA-256 can be carried over a dropped connection instead of the file read again.
 */
export class PositionedFileWriter extends Writable {
  private handle: fs.FileHandle | null = null;
  private position: number;
  private readonly hash: Hash | null;
  private readonly flushEvery: number | null;
  /** Where the last early flush reached (see `flushEvery`). */
  private flushedTo: number;
  private flushing: Promise<void> | null = null;
  private flushFailure: Error | null = null;

  /**
   * `flushEvery`: after that many bytes landed past the last flush, an fdatasync starts in the
   * background while the writing goes on, so the disk takes the bytes while more arrive and the
   * caller's own fsync at the end (the one a tus offset waits for) has only the last of them left
   * to write. Without it, the whole request's bytes reach the disk in that one fsync, after
   * the last byte arrived, and the client waits for all of it.
   */
  constructor(
    private readonly file: string,
    start: number,
    options: { highWaterMark: number; hash?: Hash | null; flushEvery?: number | null },
  ) {
    super({ highWaterMark: options.highWaterMark });
    this.position = start;
    this.flushedTo = start;
    this.hash = options.hash ?? null;
    this.flushEvery = options.flushEvery ?? null;
  }

  /** Where the next byte goes: the start plus every byte that landed. */
  get landedTo(): number {
    return this.position;
  }

  /**
   * Waits for an early flush still under way, and throws if any failed. An fsync reports a
   * write-back error only once (Linux), so an error an early flush saw would not come again
   * from the caller's own fsync on another descriptor: the caller must not take the bytes as
   * kept without asking here too.
   */
  async flushed(): Promise<void> {
    await this.flushing;
    if (this.flushFailure) throw this.flushFailure;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    fs.open(this.file, 'r+').then(
      (handle) => {
        this.handle = handle;
        callback();
      },
      (error: Error) => callback(error),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeBuffers([chunk], callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.writeBuffers(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    if (!handle) return callback(error);
    // Not closed under an early flush still running on it.
    Promise.resolve(this.flushing)
      .then(() => handle.close())
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }

  private flushEarly(): void {
    if (this.flushEvery === null || this.flushing || this.flushFailure || this.position - this.flushedTo < this.flushEvery) return;
    const to = this.position;
    this.flushing = this.handle!.datasync().then(
      () => {
        this.flushedTo = to;
        this.flushing = null;
      },
      (error: Error) => {
        this.flushFailure = error;
        this.flushing = null;
      },
    );
  }

  /** Answers as soon as the bytes landed: the next write starts while these are hashed. */
  private writeBuffers(buffers: Buffer[], callback: (error?: Error | null) => void): void {
    let called = false;
    const once = (error?: Error | null) => {
      if (called) return;
      called = true;
      callback(error);
    };
    this.writeAll(buffers, () => once()).catch(once);
  }

  /** `written`: told once every byte landed, before the last of them are hashed. */
  private async writeAll(buffers: Buffer[], written: () => void): Promise<void> {
    let rest = buffers;
    let size = rest.reduce((sum, b) => sum + b.length, 0);
    let empty = 0;
    while (size > 0) {
      const { bytesWritten } = await this.handle!.writev(rest, this.position);
      this.position += bytesWritten;
      size -= bytesWritten;
      this.flushEarly();
      if (size === 0) written();
      if (this.hash) hashLanded(this.hash, rest, bytesWritten);
      if (bytesWritten === 0 && ++empty >= MAX_EMPTY_WRITES) throw new Error('the file took no bytes');
      if (bytesWritten > 0) empty = 0;
      // A short write: the rest, from the first byte that did not land.
      if (size > 0) rest = [Buffer.concat(rest).subarray(bytesWritten)];
    }
  }
}

/** Feeds `hash` the first `bytes` of `buffers`. */
function hashLanded(hash: Hash, buffers: Buffer[], bytes: number): void {
  for (const buffer of buffers) {
    if (bytes <= 0) return;
    hash.update(bytes >= buffer.length ? buffer : buffer.subarray(0, bytes));
    bytes -= buffer.length;
  }
}
