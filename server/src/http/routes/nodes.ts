import type * as S from '../schemas.ts';
import { reply, type Handler } from '../route-def.ts';
import { sendFile } from '../send-file.ts';
import { createOnce } from '../idempotent.ts';

export const list: Handler<undefined, typeof S.ListQuery> = ({ services, actor, query }) =>
  services.listing.list(actor, query);

export const galleryMonths: Handler = ({ services, actor }) => services.gallery.months(actor);

export const createFolder: Handler<typeof S.CreateFolderBody> = (ctx) => {
  const { value, headers } = createOnce(ctx, 'POST /nodes/folder', () => ctx.services.nodes.createFolder(ctx.actor, ctx.body));
  return reply(201, value, headers);
};

export const get: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) =>
  services.nodes.get(actor, params.id);

export const path: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => ({
  items: services.nodes.path(actor, params.id),
});

export const update: Handler<typeof S.NodePatchBody, undefined, typeof S.IdParam> = ({ services, actor, params, body }) =>
  services.nodes.update(actor, params.id, body);

export const trash: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) =>
  services.nodes.trash(actor, params.id);

export const restore: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) =>
  services.nodes.restore(actor, params.id);

export const deletePermanently: Handler<undefined, undefined, typeof S.IdParam> = async ({ services, actor, params }) => {
  await services.nodes.deletePermanently(actor, params.id);
};

export const star: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => {
  services.nodes.star(actor, params.id, true);
};

export const unstar: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => {
  services.nodes.star(actor, params.id, false);
};

export const download: Handler<undefined, typeof S.DownloadQuery, typeof S.IdParam> = ({ services, actor, params, query, koa }) => {
  sendFile(koa, services.files.download(actor, params.id), { inline: query.inline === '1' || query.inline === 'true' });
};

export const versions: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => ({
  items: services.files.versions(actor, params.id),
  next_cursor: null,
});

export const restoreVersion: Handler<undefined, undefined, typeof S.VersionParams> = ({ services, actor, params }) =>
  services.files.restoreVersion(actor, params.id, params.vid);

export const trashList: Handler<undefined, typeof S.PageQuery> = ({ services, actor, query }) =>
  services.listing.trash(actor, query);

export const activity: Handler<undefined, typeof S.PageQuery> = ({ services, actor, query }) =>
  services.activity.list(actor, query);
