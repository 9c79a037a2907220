import type Koa from 'koa';
import type { ThumbnailFile } from '../services/media.ts';

/**
 * A thumbnail with a validator. When the client names the version it has (`?v=`), the URL
 * is unique to that content and may be cached for good; otherwise it revalidates (a 304 is
 * a few bytes).
 */
export async function sendThumbnail(ctx: Koa.Context, thumbnail: ThumbnailFile, askedVersion: number | undefined): Promise<void> {
  // The validator names node, version and size, so a 304 needs no thumbnail read or made.
  const notModified = ctx.get('If-None-Match').split(',').map((s) => s.trim()).includes(thumbnail.etag);
  // Opened (or made) before any header is set: a size that cannot be made answers a plain error.
  const body = notModified ? null : await thumbnail.open();
  ctx.state.responded = true;
  ctx.set('ETag', thumbnail.etag);
  ctx.set('Cache-Control', askedVersion === thumbnail.version ? 'private, max-age=31536000, immutable' : 'private, no-cache');
  if (body === null) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'image/webp';
  if (ctx.method === 'HEAD') body.destroy();
  else ctx.body = body;
}
