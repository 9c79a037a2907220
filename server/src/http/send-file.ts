import type Koa from 'koa';
import type { FileContent } from '../services/files.ts';
import { AppError } from '../errors.ts';
import { contentDisposition, ifRangeAllows, inlineSafe, parseRange } from './range.ts';

/**
 * Streams a file: validators, conditional requests, one Range, and a disposition that never
 * lets uploaded content run as a page on the server's origin.
 */
export function sendFile(ctx: Koa.Context, file: FileContent, options: { inline: boolean }): void {
  ctx.state.responded = true;
  const size = file.version.size;
  const mime = file.version.mime_type ?? file.node.mime_type ?? 'application/octet-stream';
  const inline = options.inline && inlineSafe(mime);
  ctx.set({
    ETag: file.etag,
    'Last-Modified': new Date(file.lastModified).toUTCString(),
    'Accept-Ranges': 'bytes',
    'Cache-Control': 'private, no-cache',
    'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', file.node.name),
    // Even if a browser were talked into rendering it, the content runs in a sandbox.
    'Content-Security-Policy': "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'",
  });
  ctx.type = inline ? mime : mime.startsWith('text/html') || mime.includes('xml') ? 'application/octet-stream' : mime;

  if (ctx.get('If-None-Match') && ctx.get('If-None-Match').split(',').map((s) => s.trim()).includes(file.etag)) {
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
    if (ctx.method !== 'HEAD') ctx.body = file.open({ start, end });
    ctx.length = end - start + 1;
    return;
  }
  ctx.status = 200;
  if (ctx.method !== 'HEAD') ctx.body = size === 0 ? Buffer.alloc(0) : file.open();
  ctx.length = size;
}
