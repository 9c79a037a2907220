import type * as S from '../schemas.ts';
import { reply, type Handler } from '../route-def.ts';

export const listUsers: Handler<undefined, typeof S.PageQuery, undefined, 'admin'> = ({ services, actor, query }) =>
  services.adminUsers.list(actor, query);

export const updateUser: Handler<typeof S.UserPatchBody, undefined, typeof S.IdParam, 'admin'> = ({
  services,
  actor,
  params,
  body,
}) => services.adminUsers.update(actor, params.id, body);

export const resetPassword: Handler<typeof S.ResetPasswordBody, undefined, typeof S.IdParam, 'admin'> = ({
  services,
  actor,
  params,
  body,
}) => services.adminUsers.resetPassword(actor, params.id, body.new_password);

export const listInvites: Handler<undefined, typeof S.PageQuery, undefined, 'admin'> = ({ services, actor, query }) =>
  services.invites.list(actor, query);

export const createInvite: Handler<typeof S.InviteBody, undefined, undefined, 'admin'> = ({ services, actor, body }) =>
  reply(201, services.invites.create(actor, body, services.origin.current()));

export const deleteInvite: Handler<undefined, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params }) => {
  services.invites.remove(actor, params.id);
};

export const getSettings: Handler = ({ services }) => services.settings.view();

export const updateSettings: Handler<typeof S.SettingsPatchBody, undefined, undefined, 'admin'> = ({
  services,
  actor,
  body,
}) => services.settings.update(actor, body);

export const listSessions: Handler<undefined, undefined, undefined, 'admin'> = ({ services, actor }) => ({
  items: services.sessions.listAll(actor),
  next_cursor: null,
});

export const renameSession: Handler<typeof S.SessionPatchBody, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params, body }) =>
  services.sessions.renameAny(actor, params.id, body.device_name);

export const revokeSession: Handler<undefined, undefined, typeof S.IdParam, 'admin'> = ({ services, actor, params }) => {
  services.sessions.revokeAny(actor, params.id);
};

export const status: Handler<undefined, undefined, undefined, 'admin'> = ({ services, actor }) => services.status.adminStatus(actor);
/** The port is the one this request arrived on: the port phones reach too. */
export const network: Handler<undefined, undefined, undefined, 'admin'> = ({ services, actor, koa }) =>
  services.network.lan(actor, koa.socket.localPort ?? 0);
