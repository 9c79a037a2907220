import type * as S from '../schemas.ts';
import type { Handler } from '../route-def.ts';

export const me: Handler = ({ services, actor }) => services.accounts.me(actor);

export const updateProfile: Handler<typeof S.ProfileBody> = ({ services, actor, body }) =>
  services.accounts.updateProfile(actor, body);

export const changePassword: Handler<typeof S.PasswordBody> = async ({ services, actor, body, client }) => {
  await services.accounts.changePassword(actor, body, client);
};

export const users: Handler<undefined, typeof S.UsersQuery> = ({ services, actor, query }) =>
  services.accounts.directory(actor, query.q, query);

export const sessions: Handler = ({ services, actor }) => ({ items: services.sessions.list(actor), next_cursor: null });

export const renameSession: Handler<typeof S.SessionPatchBody, undefined, typeof S.IdParam> = ({ services, actor, params, body }) =>
  services.sessions.rename(actor, params.id, body.device_name);

export const revokeSession: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => {
  services.sessions.revokeOwn(actor, params.id);
};

export const pendingDevices: Handler = ({ services, actor }) => ({
  items: services.devices.listPending(actor),
  next_cursor: null,
});

export const approveDevice: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => {
  services.devices.approve(actor, params.id);
};

export const denyDevice: Handler<undefined, undefined, typeof S.IdParam> = ({ services, actor, params }) => {
  services.devices.deny(actor, params.id);
};
