import fs from 'node:fs';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** Bytes read from the file at once: large reads keep the calls per GiB few. */
const CHUNK_BYTES = 1024 * 1024;
/**
 * What a reader that takes this much a second or more gets read at once instead (a browser on
 * the LAN, a sync client). Each read and write costs about the same whatever its size (a trip
 * through the thread pool, a promise, a write through the HTTP and TLS layers): measured here
 * on 1 GiB, 4 MiB reads cost 0.80-0.88 CPU s/GiB over HTTPS and 0.43-0.49 over HTTP where 1 MiB
 * reads cost 0.86-0.91 and 0.61. Only a fast reader gets them, so a slow or stalled one still
 * holds no more than two 1 MiB buffers.
 */
const FAST_CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * A span of a file on this machine's disk as a response body (a download's content file, whole
 * or one Range; `end` inclusive). Read as a stream it is an ordinary file stream; a response
 * that hands it its socket (`sendTo`, see stalled-responses.ts) gets it for about half the CPU:
 * two buffers read into again and again (their memory stays in the CPU's caches between the
 * read, the TLS encryption and the socket's copy, where a fresh buffer per read costs a trip to
 * memory each time) and no stream between the file and the response. Profiled: a fs.ReadStream
 * piped through a Transform spent 0.9 to 1.5 CPU s per GiB, most of it copying cold memory.
 */
export class FileSpan extends Readable {
  private opened: Promise<number> | null = null;
  /** The read the thread pool is doing now: the file is closed only once it is done. */
  private reading: Promise<unknown> = Promise.resolve();
  private position: number;
  private sending = false;

  constructor(
    readonly path: string,
    readonly start: number,
    readonly end: number,
  ) {
    super({ highWaterMark: CHUNK_BYTES });
    this.position = start;
  }

  /**
   * Writes the span to `res` and ends it, each write handed over only once the one before is
   * taken (the reader's progress, as stalled-responses.ts watches it): `pieceBytes` to a slow
   * reader, up to 4 MiB to a fast one (Pace). A failure (the drive pulled) cuts the response, as a failed pipe does. Resolves when done.
   */
  async sendTo(res: ServerResponse, pieceBytes: number): Promise<void> {
    this.sending = true;
    try {
      await this.pump(res, pieceBytes);
      if (!this.destroyed && !res.destroyed) res.end();
    } catch (error) {
      res.destroy(error as Error);
    } finally {
      this.destroy();
    }
  }

  private async pump(res: ServerResponse, pieceBytes: number): Promise<void> {
    const fd = await this.open();
    const stopped = () => this.destroyed || res.destroyed;
    const gone = closed(res);
    const pace = new Pace(pieceBytes, FAST_CHUNK_BYTES);
    const size = Math.min(CHUNK_BYTES, this.end - this.start + 1);
    const buffers: [Buffer, Buffer] = [Buffer.allocUnsafeSlow(size), Buffer.allocUnsafeSlow(size)];
    const buffer = (i: number) => (i === 0 ? buffers[0] : buffers[1]);
    // A free buffer is replaced by a larger one once the reader has shown it takes that much a second.
    const grow = (i: number) => {
      const rest = this.end - this.position + 1;
      if (pace.bytes < FAST_CHUNK_BYTES || buffer(i).length >= FAST_CHUNK_BYTES || rest <= buffer(i).length) return;
      const larger = Buffer.allocUnsafeSlow(Math.min(FAST_CHUNK_BYTES, rest));
      if (i === 0) buffers[0] = larger;
      else buffers[1] = larger;
    };
    // A buffer is read into again only once the response has let go of all of it.
    const released: [Promise<void>, Promise<void>] = [Promise.resolve(), Promise.resolve()];
    let next: Promise<number> | null = this.readAt(fd, buffers[0], this.position);
    for (let i = 0; next !== null && !stopped(); i = 1 - i) {
      const bytes = await next;
      if (bytes === 0) throw new Error('the content file is shorter than its recorded size');
      this.position += bytes;
      next = null;
      if (this.position <= this.end) {
        await (i === 0 ? released[1] : released[0]);
        if (stopped()) return;
        grow(1 - i);
        next = this.readAt(fd, buffer(1 - i), this.position);
      }
      released[i === 0 ? 0 : 1] = Promise.race([await writePieces(res, buffer(i).subarray(0, bytes), pace), gone]);
    }
  }

  private readAt(fd: number, buffer: Buffer, position: number): Promise<number> {
    const length = Math.min(buffer.length, this.end - position + 1);
    const read = new Promise<number>((resolve, reject) => {
      fs.read(fd, buffer, 0, length, position, (error, bytes) => (error ? reject(error) : resolve(bytes)));
    });
    this.reading = read.catch(() => undefined);
    return read;
  }

  private open(): Promise<number> {
    this.opened ??= new Promise((resolve, reject) => fs.open(this.path, 'r', (error, fd) => (error ? reject(error) : resolve(fd))));
    return this.opened;
  }

  /** Read as a stream (anything but `sendTo`): fresh buffers, as the stream's reader may keep each. */
  override _read(): void {
    if (this.sending) return;
    void (async () => {
      const fd = await this.open();
      if (this.position > this.end) return this.push(null);
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, this.end - this.position + 1));
      const bytes = await this.readAt(fd, buffer, this.position);
      if (bytes === 0) throw new Error('the content file is shorter than its recorded size');
      this.position += bytes;
      this.push(bytes === buffer.length ? buffer : buffer.subarray(0, bytes));
    })().catch((error: Error) => this.destroy(error));
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const opened = this.opened;
    void this.reading
      .then(() => opened)
      .then(
        (fd) => (fd === null ? undefined : new Promise<void>((resolve) => fs.close(fd, () => resolve()))),
        () => undefined,
      )
      .then(() => callback(error));
  }
}

/**
 * How much one write hands the response: `minBytes` (the stall watch's promise to a slow reader:
 * a piece it takes within the stall time is progress) up to a whole buffer for a reader that
 * takes a second's worth of bytes at a time. The pieces follow the reader's pace, measured over
 * the last piece: small writes cost CPU per byte (64 KiB writes throughout cost as much as
 * everything else). A piece is what the reader took in one second at its last pace, so only a
 * reader that slows down at once by more than the stall time in seconds (60-fold at the default
 * 60 s) and stays that slow could be taken for stalled; one slow from the start gets 64 KiB pieces.
 */
class Pace {
  bytes: number;
  private handedAt = 0;
  private handed = 0;

  constructor(
    private readonly minBytes: number,
    private readonly maxBytes: number,
  ) {
    this.bytes = minBytes;
  }

  /** A piece of `bytes` is being handed over now: the one before has been taken. */
  hand(bytes: number): void {
    const now = performance.now();
    if (this.handed > 0) {
      const perSecond = (this.handed * 1000) / Math.max(1, now - this.handedAt);
      this.bytes = Math.max(this.minBytes, Math.min(this.maxBytes, Math.floor(perSecond)));
    }
    this.handedAt = now;
    this.handed = bytes;
  }
}

/**
 * Writes `bytes` in pieces as `pace` sizes them, each once the response has room again. Resolves
 * once the last piece is handed over, with a promise of the moment the response lets go of them
 * all (writes finish in order, so the last one's callback says it).
 */
async function writePieces(res: ServerResponse, bytes: Buffer, pace: Pace): Promise<Promise<void>> {
  let released: Promise<void> = Promise.resolve();
  for (let at = 0; at < bytes.length && !res.destroyed;) {
    if (res.writableNeedDrain) await drained(res);
    if (res.destroyed) break;
    const piece = bytes.subarray(at, Math.min(bytes.length, at + pace.bytes));
    pace.hand(piece.length);
    at += piece.length;
    if (at < bytes.length) res.write(piece);
    else released = new Promise<void>((resolve) => res.write(piece, () => resolve()));
  }
  return released;
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

function closed(res: ServerResponse): Promise<void> {
  return res.destroyed ? Promise.resolve() : new Promise((resolve) => res.once('close', () => resolve()));
}
