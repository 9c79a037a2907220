import { z } from 'zod';
import { PreviewResponse } from '../../contract/files-responses.ts';
import { IdParam } from '../common-inputs.ts';
import { API_PREFIX } from '../paths.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';
import { sendThumbnail } from '../send-thumbnail.ts';

const ThumbnailQuery = z.object({
  size: z.enum(['512', '1024']).optional().describe('Long edge in pixels: 512 (grid, default) or 1024 (full screen)'),
  v: z.coerce
    .number()
    .int()
    .optional()
    .describe(
      'The node version the client shows: a new version is a new URL (the answer is private and revalidated before each use all the same)',
    ),
  r: z.coerce
    .number()
    .int()
    .optional()
    .describe("The rotation the client shows (the node's `rotation`): a photo turned is a new URL. The server turns it by the node's own"),
  access_token: z
    .string()
    .optional()
    .describe(
      "For <img> elements, which cannot send headers: a token from POST /nodes/{id}/access-token for this node (never the session's own)",
    ),
});

/** A node's thumbnail, and a folder's preview of what it holds. */
export const mediaRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/nodes/:id/thumbnail',
    tag: 'media',
    summary:
      'Thumbnail (WebP; ?size=1024 for full screen; ?v=<version> names the version shown). Private and revalidated before each use (no-cache, ETag)',
    auth: 'user',
    params: IdParam,
    query: ThumbnailQuery,
    responses: { 200: { description: 'The thumbnail', contentType: 'image/webp' }, 304: { description: 'Not modified' } },
    errors: ['no_thumbnail'],
    handler: ({ services, actor, params, query, koa }) => {
      const size = query.size === '1024' ? 1024 : 512;
      return sendThumbnail(koa, services.media.thumbnail(actor, params.id, size));
    },
  }),
  route({
    method: 'GET',
    path: '/nodes/:id/preview',
    tag: 'media',
    summary:
      'Up to four child thumbnails of a folder, newest first (JSON, `{items: []}` when none); one WebP mosaic when Accept names an image type before JSON (a bare */* gets JSON; the image form answers 404 no_thumbnail when none)',
    auth: 'user',
    params: IdParam,
    query: ThumbnailQuery,
    responses: { ...ok('Thumbnails of children', PreviewResponse), 304: { description: 'Not modified' } },
    errors: ['no_thumbnail'],
    // JSON by default; one mosaic image when the client prefers an image (an <img> pointing here).
    handler: async ({ services, actor, params, koa }) => {
      const items = services.media.previewItems(actor, params.id);
      if (prefersImage(koa.accepts() as string[])) {
        koa.state.responded = true;
        koa.body = await services.media.mosaic(items);
        koa.type = 'image/webp';
        koa.set('Cache-Control', 'private, no-cache');
        return;
      }
      return {
        items: items.map((n) => ({
          node_id: n.id,
          thumbnail_url: `${API_PREFIX}/nodes/${n.id}/thumbnail?v=${n.version}${n.rotation ? `&r=${n.rotation}` : ''}`,
        })),
      };
    },
  }),
];

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
