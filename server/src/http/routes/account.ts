import { z } from 'zod';
import { Me, PhoneStart, PublicUser, RecoveryCodesResponse, TotpBeginResponse } from '../../contract/identity-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { CLEAR_CACHE } from '../clear-site-data.ts';
import { PageQuery } from '../common-inputs.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const ProfileBody = z.object({ display_name: z.string().max(200).nullable().optional() });
const PreferencesBody = z.object({ phone_start: PhoneStart.optional() });
const PasswordBody = z.object({ current_password: z.string().max(1024), new_password: z.string() });
const TotpVerifyBody = z.object({ code: z.string().max(20) });
const TotpDisableBody = z.object({ password: z.string().max(1024) });
const UsersQuery = PageQuery.extend({ q: z.string().max(100).optional() });

/** The caller's own account: profile, password, two-step sign-in, signing out; and who else is in the family. */
export const accountRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/me',
    tag: 'account',
    summary: 'Profile and quota usage',
    auth: 'user',
    responses: ok('The account', Me),
    handler: ({ services, actor }) => services.accounts.me(actor),
  }),
  route({
    method: 'PATCH',
    path: '/me/profile',
    tag: 'account',
    summary: 'Change the display name',
    auth: 'user',
    body: ProfileBody,
    responses: ok('The account', Me),
    errors: ['invalid_name', 'display_name_taken'],
    handler: ({ services, actor, body }) => services.accounts.updateProfile(actor, body),
  }),
  route({
    method: 'PATCH',
    path: '/me/preferences',
    tag: 'account',
    summary: 'Change where the app opens on a phone (phone_start), for every phone the account signs in on',
    auth: 'user',
    body: PreferencesBody,
    responses: ok('The account', Me),
    handler: ({ services, actor, body }) => services.accounts.updatePreferences(actor, body),
  }),
  route({
    method: 'PATCH',
    path: '/me/password',
    tag: 'account',
    summary: 'Change the password; signs out the other sessions',
    auth: 'user',
    body: PasswordBody,
    allowWithTemporaryPassword: true,
    responses: none,
    errors: ['wrong_password', 'weak_password', 'rate_limited', 'busy'],
    handler: async ({ services, actor, body, client }) => {
      await services.accounts.changePassword(actor, body, client);
    },
  }),
  route({
    method: 'DELETE',
    path: '/me/remembered-deletes',
    tag: 'account',
    summary: 'Forget the photos and files deleted on purpose: the next phone backup sends them again',
    auth: 'user',
    responses: none,
    handler: ({ services, actor }) => {
      services.contentCheck.forgetDeletes(actor);
    },
  }),
  route({
    method: 'POST',
    path: '/auth/logout',
    tag: 'account',
    summary: 'Sign out this session',
    auth: 'user',
    allowWithTemporaryPassword: true,
    responses: none,
    handler: ({ services, actor }) => {
      services.sessions.logout(actor);
      return reply(204, undefined, CLEAR_CACHE);
    },
  }),
  route({
    method: 'POST',
    path: '/auth/2fa/begin',
    tag: 'account',
    summary: 'Start TOTP enrollment',
    auth: 'user',
    responses: ok('Secret to put in an authenticator app', TotpBeginResponse),
    errors: ['totp_already_enabled'],
    handler: ({ services, actor }) => services.twoFactor.begin(actor),
  }),
  route({
    method: 'POST',
    path: '/auth/2fa/verify',
    tag: 'account',
    summary: 'Confirm TOTP enrollment; returns ten single-use recovery codes once',
    auth: 'user',
    body: TotpVerifyBody,
    responses: ok('Two-factor is on', RecoveryCodesResponse),
    errors: ['invalid_totp_code', 'totp_not_started', 'totp_already_enabled', 'rate_limited'],
    handler: ({ services, actor, body, client }) => services.twoFactor.verify(actor, body.code, client),
  }),
  route({
    method: 'POST',
    path: '/auth/2fa/disable',
    tag: 'account',
    summary: 'Turn TOTP off (needs the account password)',
    auth: 'user',
    body: TotpDisableBody,
    responses: none,
    errors: ['wrong_password', 'totp_not_enabled', 'rate_limited', 'busy'],
    handler: async ({ services, actor, body, client }) => {
      await services.twoFactor.disable(actor, body.password, client);
    },
  }),
  route({
    method: 'GET',
    path: '/users',
    tag: 'account',
    summary: 'Every enabled account: name and avatar seed only',
    auth: 'user',
    query: UsersQuery,
    responses: ok('A page of people', pageOf(PublicUser)),
    handler: ({ services, actor, query }) => services.accounts.directory(actor, query.q, query),
  }),
];
