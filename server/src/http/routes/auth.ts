import type * as S from '../schemas.ts';
import { AppError } from '../../app-error.ts';
import { CLEAR_CACHE, clearingCache } from '../clear-site-data.ts';
import { reply, type Handler } from '../route-def.ts';

export const register: Handler<typeof S.RegisterBody, undefined, undefined, 'none'> = async ({ services, body, client }) =>
  reply(201, { user: await services.auth.register(body, client) });

export const login: Handler<typeof S.LoginBody, undefined, undefined, 'none'> = async ({ services, body, client }) => {
  const result = await services.auth.login(body, client);
  return reply(result.status, result.body);
};

export const recover: Handler<typeof S.RecoverBody, undefined, undefined, 'none'> = ({ services, body, client }) =>
  services.ownerRecovery.recover(body, client);

export const refresh: Handler<typeof S.RefreshBody, undefined, undefined, 'none'> = ({ services, body, client }) => {
  try {
    return services.sessions.refresh(body.refresh_token, client);
  } catch (error) {
    // A refused refresh signs this browser out: what it cached for the account goes too.
    throw error instanceof AppError && error.status === 401 ? clearingCache(error) : error;
  }
};

export const logout: Handler = ({ services, actor }) => {
  services.sessions.logout(actor);
  return reply(204, undefined, CLEAR_CACHE);
};

export const sessionStatus: Handler<undefined, undefined, typeof S.IdParam, 'pending'> = ({ services, actor, params }) =>
  services.devices.pollStatus(actor, params.id);

export const totpBegin: Handler = ({ services, actor }) => services.twoFactor.begin(actor);

export const totpVerify: Handler<typeof S.TotpVerifyBody> = ({ services, actor, body, client }) =>
  services.twoFactor.verify(actor, body.code, client);

export const totpDisable: Handler<typeof S.TotpDisableBody> = async ({ services, actor, body, client }) => {
  await services.twoFactor.disable(actor, body.password, client);
};
