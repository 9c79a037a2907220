import type { Readable } from 'node:stream';
import type Koa from 'koa';
import type { FileContent } from '../services/files/files.ts';
import { AppError } from '../app-error.ts';
import { FileSpan } from './file-span.ts';
import { contentDisposition, ifRangeAllows, parseRange } from './range.ts';
import { servedAs, USER_CONTENT_CSP } from './served-type.ts';

/**
 * Streams a file: validators, conditional requests, one Range, and a type and disposition that
 * never let uploaded content run on the server's origin, as a page or as a script
 * (served-type.ts).
 */
export function sendFile(ctx: Koa.Context, file: FileContent, options: { inline: boolean }): void {
  sendContent(
    ctx,
    {
      etag: file.etag,
      lastModified: file.lastModified,
      size: file.version.size,
      mime: file.version.mime_type ?? file.node.mime_type ?? 'application/octet-stream',
      filename: file.node.name,
      open: file.open,
      path: file.path,
    },
    options,
  );
}

/** Bytes to send whole or by range: a file's content, or what is made from it (a video's playback copy). */
export interface SendableContent {
  /** Strong validator. */
  etag: string;
  lastModified: number;
  size: number;
  /** What the bytes are; what the browser is told follows served-type.ts. */
  mime: string;
  filename: string;
  open(range?: { start: number; end: number }): Readable;
  /** Where the bytes are on this machine's disk, when they are a file there: sent without a stream (file-span.ts). */
  path?: string;
}

export function sendContent(ctx: Koa.Context, file: SendableContent, options: { inline: boolean }): void {
  ctx.state.responded = true;
  const size = file.size;
  const served = servedAs(file.mime, options.inline);
  ctx.set({
    ETag: file.etag,
    'Last-Modified': new Date(file.lastModified).toUTCString(),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    'Content-Disposition': contentDisposition(served.disposition, file.filename),
    'Content-Security-Policy': USER_CONTENT_CSP,
  });
  ctx.type = served.type;

  if (
    ctx.get('If-None-Match') &&
    ctx
      .get('If-None-Match')
      .split(',')
      .map((s) => s.trim())
      .includes(file.etag)
  ) {
    ctx.status = 304;
    return;
  }
  const request = ifRangeAllows(ctx.get('If-Range') || undefined, file.etag, file.lastModified)
    ? parseRange(ctx.get('Range') || undefined, size)
    : ({ kind: 'none' } as const);
  if (request.kind === 'unsatisfiable') {
    throw new AppError('invalid_range', undefined, { headers: { 'Content-Range': `bytes */${size}` } });
  }
  if (request.kind === 'range') {
    const { start, end } = request.range;
    ctx.status = 206;
    ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
    if (ctx.method !== 'HEAD') ctx.body = file.path === undefined ? file.open({ start, end }) : new FileSpan(file.path, start, end);
    ctx.length = end - start + 1;
    return;
  }
  ctx.status = 200;
  if (ctx.method !== 'HEAD') {
    ctx.body = size === 0 ? Buffer.alloc(0) : file.path === undefined ? file.open() : new FileSpan(file.path, 0, size - 1);
  }
  ctx.length = size;
}
