import type Koa from 'koa';
import type { ThumbnailFile } from '../services/photos/media.ts';

/**
 * A thumbnail with a validator. It is someone's photo: a browser may keep it, but must ask
 * again before each use (`no-cache`), so a copy kept for one account is never shown to the
 * next one on the same browser, nor after access was taken away. The caller has checked
 * access before this runs, so a 304 (a few bytes, no thumbnail read or made) goes only to
 * someone who may see the picture.
 */
export async function sendThumbnail(ctx: Koa.Context, thumbnail: ThumbnailFile): Promise<void> {
  // The validator names node, version and size, so a 304 needs no thumbnail read or made.
  const notModified = ctx
    .get('If-None-Match')
    .split(',')
    .map((s) => s.trim())
    .includes(thumbnail.etag);
  // Opened (or made) before any header is set: a size that cannot be made answers a plain error.
  const body = notModified ? null : await thumbnail.open();
  ctx.state.responded = true;
  ctx.set('ETag', thumbnail.etag);
  ctx.set('Cache-Control', 'private, no-cache');
  if (body === null) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'image/webp';
  if (ctx.method === 'HEAD') body.destroy();
  else ctx.body = body;
}
