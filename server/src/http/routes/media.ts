import type * as S from '../schemas.ts';
import type { Handler } from '../route-def.ts';
import { sendThumbnail } from '../send-thumbnail.ts';
import { API_PREFIX } from '../paths.ts';

export const thumbnail: Handler<undefined, typeof S.ThumbnailQuery, typeof S.IdParam> = ({ services, actor, params, query, koa }) => {
  const size = query.size === '1024' ? 1024 : 512;
  return sendThumbnail(koa, services.media.thumbnail(actor, params.id, size));
};

/** JSON by default; one mosaic image when the client prefers an image (an <img> pointing here). */
export const preview: Handler<undefined, typeof S.ThumbnailQuery, typeof S.IdParam> = async ({ services, actor, params, koa }) => {
  const items = services.media.previewItems(actor, params.id);
  if (prefersImage(koa.accepts() as string[])) {
    koa.state.responded = true;
    koa.body = await services.media.mosaic(items);
    koa.type = 'image/webp';
    koa.set('Cache-Control', 'private, no-cache');
    return;
  }
  return { items: items.map((n) => ({ node_id: n.id, thumbnail_url: `${API_PREFIX}/nodes/${n.id}/thumbnail?v=${n.version}` })) };
};

/**
 * Whether the Accept header, in its own order of preference, names an image type before it
 * names JSON. A bare `*\/*` (fetch, curl) is no preference for an image: it gets JSON.
 */
export function prefersImage(preferred: readonly string[]): boolean {
  for (const type of preferred) {
    if (type === 'image/webp' || type === 'image/*') return true;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return false;
  }
  return false;
}
