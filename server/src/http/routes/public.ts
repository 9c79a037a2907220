import type * as S from '../schemas.ts';
import { reply, type Handler } from '../route-def.ts';

export const status: Handler<undefined, undefined, undefined, 'none'> = ({ services, client }) => services.status.status(client);

export const health: Handler<undefined, undefined, undefined, 'none'> = ({ services }) => {
  const health = services.status.health();
  return reply(health.status === 'ok' ? 200 : 503, health);
};

export const setup: Handler<typeof S.SetupBody, undefined, undefined, 'none'> = ({ services, body, client }) =>
  services.auth.setup(body, client);

export const checkInvite: Handler<undefined, undefined, typeof S.CodeParam, 'none'> = ({ services, params }) =>
  services.invites.check(params.code);
