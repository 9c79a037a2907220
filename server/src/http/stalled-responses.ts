import type { ServerResponse } from 'node:http';
import { pipeline, Stream, Transform, type Readable } from 'node:stream';
import type Koa from 'koa';
import type { Logger } from '../log.ts';
import { routeOf } from './middleware/error-envelope.ts';
import { FileSpan } from './file-span.ts';

/**
 * The most one write to a socket carries. Node reports a write done only once all of it is in
 * the kernel's buffer, and that is the only progress the server can see; so a reader is seen to
 * move whenever it has taken this much. Content is read 1 MiB at a time (file-span.ts, store/content/blobs.ts), which
 * a phone on bad Wi-Fi at 10 KB/s takes 100 s to take: in pieces of 64 KiB it is seen moving
 * every few seconds, and only a reader that takes nothing at all is stalled.
 */
const PIECE_BYTES = 64 * 1024;

/**
 * Closes a streamed answer (a download, a zip, a playback copy, a thumbnail, a file of the web
 * app) whose reader has taken nothing for `stallMs`, and with it the file it was reading. The
 * attack it ends: a client that asks for a large download and never reads holds an open file
 * and megabytes of buffers for ever (400 stalled link downloads took the server from 145 MB
 * to 859 MB); ten thousand of them hold every file descriptor. A slow reader keeps moving and
 * is never closed: the rule is about no progress at all, never about speed or total time.
 */
export function closeStalledResponses(stallMs: number, log: Logger): Koa.Middleware {
  const watch = new StallWatch(stallMs, (res, route) => {
    log.debug('closed a response its reader stopped taking', { route, stall_ms: stallMs });
    res.destroy();
  });
  return async (ctx, next) => {
    await next();
    const body: unknown = ctx.body;
    if (body instanceof FileSpan) {
      // A file's span writes itself in pieces, without a stream around it (the CPU a download costs).
      ctx.respond = false;
      watch.add(ctx.res, routeOf(ctx));
      void body.sendTo(ctx.res, PIECE_BYTES);
      return;
    }
    if (!(body instanceof Stream) || !('read' in body)) return;
    // Setting another stream drops Content-Length: a download keeps its length (and its progress bar).
    const length = ctx.response.length;
    ctx.body = inPieces(body as Readable);
    if (length !== undefined) ctx.length = length;
    watch.add(ctx.res, routeOf(ctx));
  };
}

/** `source` cut into writes of PIECE_BYTES at most; closing either closes the other (and the file). */
function inPieces(source: Readable): Readable {
  const pieces = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      for (let at = 0; at < bytes.length; at += PIECE_BYTES) this.push(bytes.subarray(at, at + PIECE_BYTES));
      done();
    },
  });
  // Koa answers a failure of the body (a drive pulled mid-download) through the stream it pipes.
  return pipeline(source, pieces, () => {});
}

/**
 * The answers being sent, each with the bytes its socket had taken when last looked at. One
 * timer for all of them, looking a few times per `stallMs`: a reader that moved since is left
 * alone, one that has not moved for `stallMs` is closed.
 */
class StallWatch {
  private readonly watched = new Map<ServerResponse, { route: string; bytes: number; movedAt: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly stallMs: number,
    private readonly onStall: (res: ServerResponse, route: string) => void,
  ) {}

  add(res: ServerResponse, route: string): void {
    this.watched.set(res, { route, bytes: sent(res), movedAt: performance.now() });
    const forget = () => this.forget(res);
    // Finished: every byte is in the kernel's hands, nothing of ours is held any more.
    res.once('finish', forget);
    res.once('close', forget);
    this.timer ??= setInterval(() => this.look(), Math.max(50, Math.min(this.stallMs / 4, 5_000))).unref();
  }

  private forget(res: ServerResponse): void {
    this.watched.delete(res);
    if (this.watched.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private look(): void {
    const now = performance.now();
    for (const [res, seen] of this.watched) {
      const bytes = sent(res);
      // Nothing waits for the reader while the server itself has nothing to send yet (a zip
      // reading its next file, a drive waking up): only the reader's stall counts.
      if (bytes !== seen.bytes || !waitingForReader(res)) {
        seen.bytes = bytes;
        seen.movedAt = now;
      } else if (now - seen.movedAt >= this.stallMs) {
        this.forget(res);
        this.onStall(res, seen.route);
      }
    }
  }
}

/**
 * What the response's socket has been given. A write is given to it only once the one before
 * is in the kernel's buffer (the pipe waits for 'drain'), so this moves exactly when the reader
 * makes room by reading.
 */
function sent(res: ServerResponse): number {
  return res.socket?.bytesWritten ?? -1;
}

/** Bytes are queued for the reader: held in the socket's buffer, or the response waits for its 'drain'. */
function waitingForReader(res: ServerResponse): boolean {
  return res.writableNeedDrain || (res.socket?.writableLength ?? 0) > 0;
}
