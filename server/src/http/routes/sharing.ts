import type Koa from 'koa';
import type * as S from '../schemas.ts';
import type { Services } from '../../services/index.ts';
import { reply, type Handler } from '../route-def.ts';
import { sendFile } from '../send-file.ts';
import { sendThumbnail } from '../send-thumbnail.ts';
import { createOnce } from '../idempotent.ts';

/** The origin the family reaches the server at, for the public URL of a link; never the request's Host. */
const originOf = (services: Services) => services.origin.current();

export const permissions: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => ({
  items: services.sharing.permissions(actor, params.id),
  next_cursor: null,
});

export const grant: Handler<typeof S.GrantBody, undefined, typeof S.IdParam> = ({ services, actor, params, body }) =>
  reply(201, services.sharing.grant(actor, params.id, body));

export const revokeGrant: Handler<undefined, undefined, typeof S.UserParams> = ({ services, actor, params }) => {
  services.sharing.revokeGrant(actor, params.id, params.userId);
};

export const linksOfNode: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => ({
  items: services.sharing.linksOfNode(actor, params.id, originOf(services)),
  next_cursor: null,
});

export const createLink: Handler<typeof S.LinkBody, undefined, typeof S.IdParam> = async (ctx) => {
  const { services, actor, params, body } = ctx;
  const prepared = await services.sharing.prepareLink(actor, params.id, body);
  // The key's record keeps the link's id only: the token is a secret that is never stored, so
  // a replay derives it again.
  const { value, headers } = createOnce(ctx, `POST /nodes/${params.id}/share`, () => ({
    id: services.sharing.insertLink(actor, prepared, originOf(services)).id,
  }));
  return reply(201, services.sharing.linkOf(actor, value.id, originOf(services)), headers);
};

export const myLinks: Handler<undefined, typeof S.PageQuery> = ({ services, actor, query }) =>
  services.sharing.myLinks(actor, query, originOf(services));

export const updateLink: Handler<typeof S.LinkBody, undefined, typeof S.IdParam> = ({ services, actor, params, body }) =>
  services.sharing.updateLink(actor, params.id, body, originOf(services));

export const revokeLink: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => {
  services.sharing.revokeLink(actor, params.id);
};

// ---- Public (no account) ----

const grantOf = (koa: Koa.Context, query: { grant?: string | undefined }) => query.grant ?? (koa.get('X-Share-Grant') || undefined);

export const publicInfo: Handler<undefined, typeof S.GrantQuery, typeof S.TokenParam, 'none'> = ({ services, params, query, koa }) =>
  services.publicShares.info({ token: params.token, grant: grantOf(koa, query) });

export const publicUnlock: Handler<typeof S.UnlockBody, undefined, typeof S.TokenParam, 'none'> = ({ services, params, body, client }) =>
  services.publicShares.unlock(params.token, body.password, client);

export const publicChildren: Handler<undefined, typeof S.PublicListQuery, typeof S.TokenParam, 'none'> = ({
  services,
  params,
  query,
  koa,
}) => services.publicShares.children({ token: params.token, grant: grantOf(koa, query) }, query);

export const publicDownload: Handler<undefined, typeof S.PublicNodeQuery, typeof S.TokenParam, 'none'> = ({
  services,
  params,
  query,
  koa,
}) => {
  const file = services.publicShares.download({ token: params.token, grant: grantOf(koa, query) }, query.node_id);
  sendFile(koa, file, { inline: query.inline === '1' || query.inline === 'true' });
};

export const publicThumbnail: Handler<undefined, typeof S.PublicNodeQuery, typeof S.TokenParam, 'none'> = ({
  services,
  params,
  query,
  koa,
}) => {
  const node = services.publicShares.thumbnailTarget({ token: params.token, grant: grantOf(koa, query) }, query.node_id);
  return sendThumbnail(koa, services.media.thumbnailOf(node, query.size === '1024' ? 1024 : 512));
};
