import type Koa from 'koa';
import { z } from 'zod';
import { pageOf } from '../../contract/page.ts';
import { PlaybackInfo } from '../../contract/playback-responses.ts';
import { PublicNode, PublicShare, UnlockResponse } from '../../contract/sharing-responses.ts';
import { PageQuery } from '../common-inputs.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';
import { sendContent, sendFile } from '../send-file.ts';
import { sendThumbnail } from '../send-thumbnail.ts';
import { sendZip } from '../send-zip.ts';

// No length limit here: a token of any form that opens nothing is an unknown link (404), which
// the public service decides.
const TokenParam = z.object({ token: z.string().min(1) });
const UnlockBody = z.object({ password: z.string().max(1024) });

const PublicListQuery = PageQuery.extend({
  parent_id: z.string().max(100).optional().describe('A folder inside the shared one; default the shared folder itself'),
  sort: z.enum(['name', 'updated', 'created', 'size', 'taken']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  grant: z.string().max(300).optional().describe('Unlock grant of a password-protected link (or X-Share-Grant)'),
});

const PublicNodeQuery = z.object({
  node_id: z.string().max(100).optional().describe('A node inside the shared folder; default the shared node'),
  grant: z.string().max(300).optional(),
  inline: z.enum(['0', '1', 'true', 'false']).optional(),
  size: z.enum(['512', '1024']).optional().describe('Thumbnail long edge'),
});

const GrantQuery = z.object({ grant: z.string().max(300).optional() });

const grantOf = (koa: Koa.Context, query: { grant?: string | undefined }) => query.grant ?? (koa.get('X-Share-Grant') || undefined);

/** What a link opens, for anyone who has it (no account). */
export const publicLinkRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/s/:token',
    tag: 'public',
    summary: 'What a link shares (no account needed)',
    auth: 'none',
    params: TokenParam,
    query: GrantQuery,
    responses: ok('The shared node', PublicShare),
    errors: ['share_password_required', 'share_expired', 'not_found'],
    handler: ({ services, params, query, koa }) => services.publicShares.info({ token: params.token, grant: grantOf(koa, query) }),
  }),
  route({
    method: 'POST',
    path: '/s/:token/unlock',
    tag: 'public',
    summary: "Trade a link's password for a grant (?grant= or X-Share-Grant)",
    auth: 'none',
    params: TokenParam,
    body: UnlockBody,
    responses: ok('The grant', UnlockResponse),
    errors: ['wrong_password', 'rate_limited', 'busy', 'share_expired'],
    handler: ({ services, params, body, client }) => services.publicShares.unlock(params.token, body.password, client),
  }),
  route({
    method: 'GET',
    path: '/s/:token/children',
    tag: 'public',
    summary: 'List inside a shared folder (parent_id: a folder within it)',
    auth: 'none',
    params: TokenParam,
    query: PublicListQuery,
    responses: ok('A page of nodes', pageOf(PublicNode)),
    errors: ['share_password_required', 'share_expired'],
    handler: ({ services, params, query, koa }) =>
      services.publicShares.children({ token: params.token, grant: grantOf(koa, query) }, query),
  }),
  route({
    method: 'GET',
    path: '/s/:token/download',
    tag: 'public',
    summary: 'Download what a link shares (node_id: a file within it); Range, type and ?inline=1 as for a normal download',
    auth: 'none',
    params: TokenParam,
    query: PublicNodeQuery,
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream' },
      206: { description: 'A range', contentType: 'application/octet-stream' },
    },
    errors: ['share_password_required', 'share_expired', 'download_disabled', 'invalid_range', 'library_offline'],
    download: true,
    handler: ({ services, params, query, koa }) => {
      const file = services.publicShares.download({ token: params.token, grant: grantOf(koa, query) }, query.node_id);
      sendFile(koa, file, { inline: query.inline === '1' || query.inline === 'true' });
    },
  }),
  route({
    method: 'GET',
    path: '/s/:token/zip',
    tag: 'public',
    summary:
      "Download all: everything the link shows as one zip, streamed as it is made (an album's photos its links show, or the shared folder with all below it), where the link allows downloads; as GET /downloads/{ticket} makes it. The browser follows this address itself (an <a download>), so a protected link's grant rides as ?grant=, as for /download",
    auth: 'none',
    params: TokenParam,
    query: GrantQuery,
    responses: { 200: { description: 'The zip', contentType: 'application/zip' } },
    errors: ['share_password_required', 'share_expired', 'download_disabled', 'too_many_files', 'library_offline'],
    download: true,
    handler: ({ services, params, query, koa }) => {
      const shown = services.publicShares.zipOf({ token: params.token, grant: grantOf(koa, query) });
      sendZip(koa, services.zipDownloads.forLink(shown));
    },
  }),
  // A video the link shares plays where downloading is allowed, as its file does: the copy follows the file's rule.
  route({
    method: 'GET',
    path: '/s/:token/playback',
    tag: 'public',
    summary: 'How to play a video the link shares (node_id: a video within it), as GET /nodes/{id}/playback says it',
    auth: 'none',
    params: TokenParam,
    query: PublicNodeQuery,
    responses: ok('The video and its copy', PlaybackInfo),
    errors: ['share_password_required', 'share_expired', 'download_disabled', 'library_offline'],
    handler: ({ services, params, query, koa }) =>
      services.playback.infoOf(services.publicShares.download({ token: params.token, grant: grantOf(koa, query) }, query.node_id).node),
  }),
  route({
    method: 'GET',
    path: '/s/:token/playback-copy',
    tag: 'public',
    summary: "The playback copy of a video the link shares (node_id: a video within it): MP4, Range, as a link's download",
    auth: 'none',
    params: TokenParam,
    query: PublicNodeQuery,
    responses: {
      200: { description: 'The copy', contentType: 'video/mp4' },
      206: { description: 'A range', contentType: 'video/mp4' },
    },
    errors: [
      'share_password_required',
      'share_expired',
      'download_disabled',
      'playback_copy_not_ready',
      'invalid_range',
      'library_offline',
    ],
    download: true,
    handler: async ({ services, params, query, koa }) => {
      const file = services.publicShares.download({ token: params.token, grant: grantOf(koa, query) }, query.node_id);
      sendContent(koa, await services.playback.copyOf(file.node), { inline: true });
    },
  }),
  route({
    method: 'GET',
    path: '/s/:token/thumbnail',
    tag: 'public',
    summary: 'Thumbnail of the shared node or one within it',
    auth: 'none',
    params: TokenParam,
    query: PublicNodeQuery,
    responses: { 200: { description: 'The thumbnail', contentType: 'image/jpeg' } },
    errors: ['share_password_required', 'share_expired', 'no_thumbnail'],
    handler: ({ services, params, query, koa }) => {
      const node = services.publicShares.thumbnailTarget({ token: params.token, grant: grantOf(koa, query) }, query.node_id);
      return sendThumbnail(koa, services.media.thumbnailOf(node, query.size === '1024' ? 1024 : 512));
    },
  }),
];
