import { z } from 'zod';
import {
  Activity,
  GalleryMonths,
  HashCheckResponse,
  Node,
  NodeAccessTokenResponse,
  NodeColor,
  NodeVersion,
  TrashPage,
} from '../../contract/files-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { IdParam, PageQuery } from '../common-inputs.ts';
import { createOnce } from '../idempotent.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';
import { sendContent, sendFile } from '../send-file.ts';

const CreateFolderBody = z.object({
  name: z.string(),
  parent_id: z.string().max(100).nullish().describe('Omitted, null or "root": the top level'),
});

const NodePatchBody = z.object({
  name: z.string().optional(),
  parent_id: z.string().max(100).nullable().optional().describe('Move here; null or "root" is the top level'),
  color: NodeColor.nullable().optional(),
});

/** A search in Photos, as the family types it: the same words mean the same on the months and the listing. */
const PhotoSearch = z
  .string()
  .max(200)
  .describe(
    'With filter=gallery: a search in Photos. Dates ("2019", "July 2021", "3 August 2024", "2024-08", "christmas 2018" = 24-26 Dec, "july" or "christmas" of every year; on the clock where it was taken) and words, each found in the town or country where it was taken, the camera (make, model) or the file name; a word naming a thing ("dog", "cats", "bike", "boats") also finds the photos it was seen in, among those searched. At most 8 words besides dates; blank: no search',
  );

/** Whose photos Photos shows: the same choice for the months and the listing. */
const TimelineScope = z
  .enum(['mine', 'family'])
  .describe(
    "With filter=gallery: mine (the default), the caller's own photos and videos; family, with everything others share with the caller: folders and files granted (and what is inside), albums it owns or is in, and partners' photos from their chosen day. Each photo once, however many ways it arrives; never in the trash",
  );

const ListQuery = PageQuery.extend({
  parent_id: z.string().max(100).optional().describe('"root" (the default) is the top level'),
  filter: z.enum(['shared', 'starred', 'recent', 'gallery']).optional(),
  query: z.string().max(255).optional().describe('Name contains, ignoring case and accents'),
  sort: z.enum(['name', 'updated', 'created', 'size', 'taken']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM')
    .optional()
    .describe('With filter=gallery: only what was taken in this month (YYYY-MM, UTC), as /nodes/gallery/months counts it'),
  q: PhotoSearch.optional(),
  scope: TimelineScope.optional(),
});

const GalleryMonthsQuery = z.object({
  q: PhotoSearch.optional(),
  scope: TimelineScope.optional(),
});

const DownloadQuery = z.object({
  inline: z.enum(['0', '1', 'true', 'false']).optional().describe('Show images, video, audio and PDF in place'),
  copy: z
    .literal('playback')
    .optional()
    .describe(
      "A video's playback copy instead of the file (H.264 and AAC in MP4, at most 1080p), always inline: for browsers that cannot play the original (GET /nodes/{id}/playback says when it is ready)",
    ),
  access_token: z
    .string()
    .optional()
    .describe("For elements that cannot send headers: a token from POST /nodes/{id}/access-token for this node (never the session's own)"),
});

const CheckHashesBody = z.object({
  // Checked by the service, which answers each mistake with its own code and field.
  algorithm: z.string().max(32).describe('"sha256", the only one'),
  hashes: z.array(z.string().max(128)).describe('1 to 1,000 SHA-256s, each 64 lowercase hex characters: the whole content of a file'),
});

const VersionParams = z.object({ id: z.string().min(1).max(100), vid: z.string().min(1).max(100) });

/** Files and folders: listing, the gallery's months, changing them, the trash, versions and activity. */
export const nodeRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/nodes',
    tag: 'nodes',
    summary: 'List a folder (parent_id, default the top level) or a flat view (filter), sorted and paged; folders first',
    auth: 'user',
    query: ListQuery,
    responses: ok('A page of nodes', pageOf(Node)),
    errors: ['in_trash', 'not_found'],
    handler: ({ services, actor, query }) => services.listing.list(actor, query),
  }),
  route({
    method: 'GET',
    path: '/nodes/gallery/months',
    tag: 'nodes',
    summary:
      'How many photos and videos each month of the gallery holds (the same items as filter=gallery, by taken time on the clock where it was taken), newest first; with q, the months of what a search finds; with scope=family, the months of the family timeline',
    auth: 'user',
    query: GalleryMonthsQuery,
    responses: ok('Months', GalleryMonths),
    handler: ({ services, actor, query }) => services.gallery.months(actor, query.q, query.scope),
  }),
  route({
    method: 'POST',
    path: '/nodes/check-hashes',
    tag: 'nodes',
    summary:
      "Which of these contents the caller already has (present, with a file), deleted on purpose (deleted: in the trash or deleted for good, and not present) or not (absent): a phone backup sends only the absent ones. The caller's own files only",
    auth: 'user',
    body: CheckHashesBody,
    responses: ok('One answer per hash, in the order asked', HashCheckResponse),
    errors: ['hash_algorithm_unsupported', 'hash_count_out_of_range', 'invalid_hash'],
    handler: ({ services, actor, body }) => services.contentCheck.check(actor, body),
  }),
  route({
    method: 'POST',
    path: '/nodes/folder',
    tag: 'nodes',
    summary: 'Create a folder (honours Idempotency-Key)',
    auth: 'user',
    body: CreateFolderBody,
    responses: { 201: { description: 'Created (or the first answer for a repeated key)', schema: Node } },
    errors: ['invalid_name', 'name_too_long', 'name_conflict', 'in_trash', 'not_found', 'idempotency_conflict'],
    handler: (ctx) => {
      const { value, headers } = createOnce(ctx, 'POST /nodes/folder', () => ctx.services.nodes.createFolder(ctx.actor, ctx.body));
      return reply(201, value, headers);
    },
  }),
  route({
    method: 'GET',
    path: '/nodes/:id',
    tag: 'nodes',
    summary: 'One node',
    auth: 'user',
    params: IdParam,
    responses: ok('The node', Node),
    handler: ({ services, actor, params }) => services.nodes.get(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/nodes/:id/path',
    tag: 'nodes',
    summary: 'Breadcrumb: ancestors from the top level down to the node',
    auth: 'user',
    params: IdParam,
    responses: ok('The path', pageOf(Node).pick({ items: true })),
    handler: ({ services, actor, params }) => ({ items: services.nodes.path(actor, params.id) }),
  }),
  route({
    method: 'PATCH',
    path: '/nodes/:id',
    tag: 'nodes',
    summary: 'Rename, move or recolor',
    auth: 'user',
    params: IdParam,
    body: NodePatchBody,
    responses: ok('The node', Node),
    errors: ['invalid_name', 'name_too_long', 'name_conflict', 'invalid_move', 'in_trash', 'forbidden'],
    handler: ({ services, actor, params, body }) => services.nodes.update(actor, params.id, body),
  }),
  route({
    method: 'DELETE',
    path: '/nodes/:id',
    tag: 'nodes',
    summary: 'Move to the trash',
    auth: 'user',
    params: IdParam,
    responses: ok('The trashed node', Node),
    errors: ['in_trash', 'forbidden'],
    handler: ({ services, actor, params }) => services.nodes.trash(actor, params.id),
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/restore',
    tag: 'nodes',
    summary: 'Restore from the trash (to its old folder, or the top level if that is gone; a free name if taken)',
    auth: 'user',
    params: IdParam,
    responses: ok('The restored node', Node),
    errors: ['not_in_trash', 'in_trash', 'forbidden'],
    handler: ({ services, actor, params }) => services.nodes.restore(actor, params.id),
  }),
  route({
    method: 'DELETE',
    path: '/nodes/:id/permanent',
    tag: 'nodes',
    summary: 'Delete for good, with everything inside',
    auth: 'user',
    params: IdParam,
    responses: none,
    errors: ['forbidden'],
    handler: async ({ services, actor, params }) => {
      await services.nodes.deletePermanently(actor, params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/star',
    tag: 'nodes',
    summary: 'Bookmark (each account its own)',
    auth: 'user',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.nodes.star(actor, params.id, true);
    },
  }),
  route({
    method: 'DELETE',
    path: '/nodes/:id/star',
    tag: 'nodes',
    summary: 'Remove the bookmark',
    auth: 'user',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.nodes.star(actor, params.id, false);
    },
  }),
  route({
    method: 'GET',
    path: '/nodes/:id/download',
    tag: 'nodes',
    summary:
      "Stream the content; one Range, If-Range, ETag. An attachment of type application/octet-stream, except with ?inline=1 for images (not SVG), video, audio and PDF, which keep their type under a sandbox CSP; with ?copy=playback a video's playback copy (video/mp4, inline)",
    auth: 'user',
    params: IdParam,
    query: DownloadQuery,
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream' },
      206: { description: 'The requested range', contentType: 'application/octet-stream' },
      304: { description: 'Not modified' },
    },
    errors: ['invalid_range', 'library_offline', 'playback_copy_not_ready'],
    download: true,
    handler: async ({ services, actor, params, query, koa }) => {
      // The copy rides on this route rather than one of its own: a <video> needs its token in the
      // URL, and the spec allows that on four routes only.
      if (query.copy === 'playback') sendContent(koa, await services.playback.copy(actor, params.id), { inline: true });
      else sendFile(koa, services.files.download(actor, params.id), { inline: query.inline === '1' || query.inline === 'true' });
    },
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/access-token',
    tag: 'nodes',
    summary:
      "A token for this node's own URLs (?access_token= on its download (and its playback copy, download?copy=playback), thumbnail and preview), for links a browser follows itself: read-only, this node only, valid 5 minutes; it dies with the session and with the caller's access. The session's own token is refused in those URLs",
    auth: 'user',
    params: IdParam,
    allowWithTemporaryPassword: true,
    responses: ok('The token', NodeAccessTokenResponse),
    handler: ({ services, actor, params }) => services.nodeAccess.mint(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/nodes/:id/versions',
    tag: 'nodes',
    summary: 'Version history, newest first',
    auth: 'user',
    params: IdParam,
    responses: ok('Versions', pageOf(NodeVersion)),
    handler: ({ services, actor, params }) => ({ items: services.files.versions(actor, params.id), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/versions/:vid/restore',
    tag: 'nodes',
    summary: 'Make an old version current again (as a new version)',
    auth: 'user',
    params: VersionParams,
    responses: ok('The node', Node),
    errors: ['quota_exceeded', 'in_trash', 'library_offline', 'forbidden'],
    handler: ({ services, actor, params }) => services.files.restoreVersion(actor, params.id, params.vid),
  }),
  route({
    method: 'GET',
    path: '/trash',
    tag: 'nodes',
    summary: 'Trashed items and the retention policy (days)',
    auth: 'user',
    query: PageQuery,
    responses: ok('A page of trashed items', TrashPage),
    handler: ({ services, actor, query }) => services.listing.trash(actor, query),
  }),
  route({
    method: 'GET',
    path: '/activity',
    tag: 'nodes',
    summary: "What happened to the account's files, newest first",
    auth: 'user',
    query: PageQuery,
    responses: ok('A page of activity', pageOf(Activity)),
    handler: ({ services, actor, query }) => services.activity.list(actor, query),
  }),
];
