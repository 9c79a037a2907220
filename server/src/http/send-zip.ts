import type Koa from 'koa';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { SendingZip, ZipPlan } from '../services/files/zip-downloads.ts';
import { contentDisposition } from './range.ts';
import { USER_CONTENT_CSP } from './served-type.ts';
import { useNativeCrc32ForYazl } from './zip-crc.ts';

useNativeCrc32ForYazl();

/** A zip being made: its bytes as they come, how many there will be, and a way to stop reading. */
export interface ZipStream {
  stream: NodeJS.ReadableStream;
  length: number;
  /** Closes the file being read (the client went away). */
  stop(): void;
}

/**
 * A zip made with yazl as it is read: each file is opened only when the zip reaches it and flows
 * through at the pace its reader takes it (pipe's backpressure), so memory stays flat whatever
 * the size. Files are stored, not deflated: photos and videos are compressed already, and with
 * every size known ahead yazl tells the zip's exact length before its first byte. Past 4 GiB
 * (or 65,535 entries) yazl writes ZIP64.
 *
 * yazl rather than archiver (or zip-stream, its core): archiver 8 brings nine packages
 * (readable-stream, readdir-glob, tar-stream...) for what is not used here and cannot tell the length
 * ahead, so a browser could show no progress on a 2 GiB zip; yazl depends on buffer-crc32 alone,
 * opens each file lazily, and its reader, yauzl, checks our zips in the tests. Their CRC-32 is
 * the same JavaScript speed; see zip-crc.ts.
 */
export function makeZip(plan: Pick<ZipPlan, 'entries'>): ZipStream {
  const zip = new yazl.ZipFile();
  let reading: Readable | null = null;
  for (const entry of plan.entries) {
    const mtime = new Date(entry.modifiedAt);
    if (entry.kind === 'folder') {
      zip.addEmptyDirectory(entry.path, { mtime });
      continue;
    }
    zip.addReadStreamLazy(entry.path, { mtime, size: entry.size, compress: false }, (done) => {
      try {
        reading = entry.open();
        done(null, reading);
      } catch (error) {
        done(error, null as never);
      }
    });
  }
  let length = -1;
  // Called during end(): every entry's size was given, and nothing is deflated.
  (zip.end as (options: object, sized: (bytes: number) => void) => void)({}, (bytes) => (length = bytes));
  return { stream: zip.outputStream, length, stop: () => reading?.destroy() };
}

/** Answers with the zip of `plan`, an attachment under its name, with its Content-Length. */
export function sendZip(ctx: Koa.Context, plan: SendingZip): void {
  ctx.state.responded = true;
  let zip: ZipStream | null = null;
  // Listened to first, so that a zip that could not even start is over too.
  ctx.res.once('close', () => {
    // A download cancelled halfway: the file being read is closed, not left paused and open.
    zip?.stop();
    plan.done();
  });
  zip = makeZip(plan);
  ctx.status = 200;
  ctx.type = 'application/zip';
  ctx.set({
    'Content-Disposition': contentDisposition('attachment', plan.name),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': USER_CONTENT_CSP,
  });
  ctx.body = zip.stream;
  if (zip.length >= 0) ctx.length = zip.length;
}
