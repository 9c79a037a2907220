import type Koa from 'koa';
import type { ThumbnailFile } from '../services/media.ts';

/**
 * A thumbnail with a validator. When the client names the version it has (`?v=`), the URL
 * is unique to that content and may be cached for good; otherwise it revalidates (a 304 is
 * a few bytes).
 */
export function sendThumbnail(ctx: Koa.Context, thumbnail: ThumbnailFile, askedVersion: number | undefined): void {
  ctx.state.responded = true;
  ctx.set('ETag', thumbnail.etag);
  ctx.set('Cache-Control', askedVersion === thumbnail.version ? 'private, max-age=31536000, immutable' : 'private, no-cache');
  if (ctx.get('If-None-Match').split(',').map((s) => s.trim()).includes(thumbnail.etag)) {
    ctx.status = 304;
    return;
  }
  ctx.status = 200;
  ctx.type = 'image/webp';
  if (ctx.method !== 'HEAD') ctx.body = thumbnail.open();
}
