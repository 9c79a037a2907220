import type * as S from '../schemas.ts';
import { reply, type Handler } from '../route-def.ts';

export const list: Handler<undefined, undefined, undefined, 'admin'> = ({ services, actor }) => services.drives.list(actor);

export const get: Handler<undefined, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params }) => services.drives.get(actor, params.id);

export const format: Handler<typeof S.FormatBody, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params, body }) =>
  services.drives.format(actor, params.id, body);

export const mount: Handler<typeof S.MountBody, undefined, typeof S.IdParam, 'admin'> = async ({ services, actor, params, body }) =>
  reply(201, await services.drives.mount(actor, params.id, body));

export const pool: Handler<typeof S.PoolBody, undefined, undefined, 'admin'> = async ({ services, actor, body }) =>
  reply(201, await services.drives.pool(actor, body));
