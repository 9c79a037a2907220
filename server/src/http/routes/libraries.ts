import type * as S from '../schemas.ts';
import { reply, type Handler } from '../route-def.ts';

export const list: Handler = ({ services, actor }) => ({ items: services.libraries.list(actor), next_cursor: null });

export const register: Handler<typeof S.LibraryBody, undefined, undefined, 'admin'> = async ({ services, actor, body }) =>
  reply(201, await services.libraries.register(actor, body));

export const setDefault: Handler<undefined, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params }) => {
  services.libraries.setDefault(actor, params.id);
};

export const eject: Handler<undefined, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params }) =>
  services.libraries.eject(actor, params.id);

export const remove: Handler<undefined, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params }) => services.libraries.remove(actor, params.id);
