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
 */
export class PositionedFileWriter extends Writable {
  private handle: fs.FileHandle | null = null;
  private position: number;

  constructor(
    private readonly file: string,
    start: number,
    highWaterMark: number,
  ) {
    super({ highWaterMark });
    this.position = start;
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
    this.writeAll([chunk]).then(() => callback(), callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: (error?: Error | null) => void): void {
    this.writeAll(chunks.map((c) => c.chunk)).then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = null;
    if (!handle) return callback(error);
    handle.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    let rest = buffers;
    let size = rest.reduce((sum, b) => sum + b.length, 0);
    let empty = 0;
    while (size > 0) {
      const { bytesWritten } = await this.handle!.writev(rest, this.position);
      this.position += bytesWritten;
      size -= bytesWritten;
      if (bytesWritten === 0 && ++empty >= MAX_EMPTY_WRITES) throw new Error('the file took no bytes');
      if (bytesWritten > 0) empty = 0;
      // A short write: the rest, from the first byte that did not land.
      if (size > 0) rest = [Buffer.concat(rest).subarray(bytesWritten)];
    }
  }
}
