import { z } from 'zod';
import { pageOf } from '../../contract/page.ts';
import { SharedWithMeItem } from '../../contract/shared-with-me-responses.ts';
import { Node } from '../../contract/files-responses.ts';
import { Grant, Link } from '../../contract/sharing-responses.ts';
import type { Services } from '../../services/index.ts';
import { IdParam, LinkBody, PageQuery } from '../common-inputs.ts';
import { createOnce } from '../idempotent.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const GrantBody = z.object({
  user_id: z.string().min(1).max(100),
  role: z.enum(['viewer', 'editor']),
});

const UserParams = z.object({ id: z.string().min(1).max(100), userId: z.string().min(1).max(100) });

/** The origin the family reaches the server at, for the public URL of a link; never the request's Host. */
const originOf = (services: Services) => services.origin.current();

/** Grants (the API says permissions) and the links an account makes; what a link opens is in public-links.ts. */
export const sharingRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/nodes/:id/permissions',
    tag: 'sharing',
    summary: 'People with access to this node',
    auth: 'user',
    params: IdParam,
    responses: ok('Grants', pageOf(Grant)),
    handler: ({ services, actor, params }) => ({ items: services.sharing.permissions(actor, params.id), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/permissions',
    tag: 'sharing',
    summary: 'Give an account viewer or editor access (replaces an earlier grant); covers everything inside a folder',
    auth: 'user',
    params: IdParam,
    body: GrantBody,
    responses: { 201: { description: 'Granted', schema: Grant } },
    errors: ['cannot_share_with_owner', 'unknown_user', 'in_trash', 'forbidden'],
    handler: ({ services, actor, params, body }) => reply(201, services.sharing.grant(actor, params.id, body)),
  }),
  route({
    method: 'DELETE',
    path: '/nodes/:id/permissions/:userId',
    tag: 'sharing',
    summary: "Remove an account's access (the owner, or the account itself leaving); effective at once",
    auth: 'user',
    params: UserParams,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.sharing.revokeGrant(actor, params.id, params.userId);
    },
  }),
  route({
    method: 'GET',
    path: '/nodes/:id/shares',
    tag: 'sharing',
    summary: 'Public links on this node',
    auth: 'user',
    params: IdParam,
    responses: ok('Links', pageOf(Link)),
    errors: ['forbidden'],
    handler: ({ services, actor, params }) => ({
      items: services.sharing.linksOfNode(actor, params.id, originOf(services)),
      next_cursor: null,
    }),
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/share',
    tag: 'sharing',
    summary: 'Create a public link (expiry, password, download switch; honours Idempotency-Key)',
    auth: 'user',
    params: IdParam,
    body: LinkBody,
    responses: { 201: { description: 'Created', schema: Link } },
    errors: ['weak_password', 'in_trash', 'forbidden', 'idempotency_conflict', 'busy'],
    handler: async (ctx) => {
      const { services, actor, params, body } = ctx;
      const prepared = await services.sharing.prepareLink(actor, params.id, body);
      // The key's record keeps the link's id only: the token is a secret that is never stored, so
      // a replay derives it again.
      const { value, headers } = createOnce(ctx, `POST /nodes/${params.id}/share`, () => ({
        id: services.sharing.insertLink(actor, prepared, originOf(services)).id,
      }));
      return reply(201, services.sharing.linkOf(actor, value.id, originOf(services)), headers);
    },
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/keep',
    tag: 'sharing',
    summary:
      "Keep a copy of a file someone shared with the caller (through an album, a partner, a grant, or a link opened while signed in: its token in X-Share-Token, never in the URL, with X-Share-Grant for a protected link) as the caller's own, in its \"Kept copies\" folder under the file's name. The server copies by content (nothing is sent again), charged to the caller's quota (507 quota_exceeded when it would not fit); the copy has its original's capture time, place and camera from the first moment and stays when the original is deleted. 404 for what the caller cannot see; 409 already_yours for its own files",
    auth: 'user',
    params: IdParam,
    responses: { 201: { description: "The copy: the caller's own file", schema: Node } },
    errors: [
      'not_found',
      'quota_exceeded',
      'already_yours',
      'invalid_input',
      'download_disabled',
      'share_password_required',
      'share_expired',
    ],
    handler: ({ services, actor, params, koa }) => {
      const token = koa.get('X-Share-Token');
      const link = token ? { token, grant: koa.get('X-Share-Grant') || undefined } : null;
      return reply(201, services.keepCopies.keep(actor, params.id, link));
    },
  }),
  route({
    method: 'GET',
    path: '/shared-with-me',
    tag: 'sharing',
    summary:
      "Everything someone else shares with the caller, newest first by when it was shared with it: files and folders (their grants), albums it is a member of, and partners whose photos it sees; each with who shared it. Only what the caller may open now (a disabled account's shares are suspended, a node in the trash opens nothing)",
    auth: 'user',
    query: PageQuery,
    responses: ok('A page of what is shared with the caller', pageOf(SharedWithMeItem)),
    handler: ({ services, actor, query }) => services.sharedWithMe.list(actor, query),
  }),
  route({
    method: 'GET',
    path: '/shares',
    tag: 'sharing',
    summary: 'Links the caller created, newest first',
    auth: 'user',
    query: PageQuery,
    responses: ok('A page of links', pageOf(Link)),
    handler: ({ services, actor, query }) => services.sharing.myLinks(actor, query, originOf(services)),
  }),
  route({
    method: 'PATCH',
    path: '/shares/:id',
    tag: 'sharing',
    summary: 'Change expiry, password or download switch; the URL stays',
    auth: 'user',
    params: IdParam,
    body: LinkBody,
    responses: ok('The link', Link),
    errors: ['weak_password', 'busy'],
    handler: ({ services, actor, params, body }) => services.sharing.updateLink(actor, params.id, body, originOf(services)),
  }),
  route({
    method: 'DELETE',
    path: '/shares/:id',
    tag: 'sharing',
    summary: 'Revoke a link',
    auth: 'user',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.sharing.revokeLink(actor, params.id);
    },
  }),
];
