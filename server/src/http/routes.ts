import { AppError } from '../errors.ts';
import { openApiDocument } from './openapi.ts';
import { route, type AnyRoute } from './route-def.ts';
import * as account from './routes/account.ts';
import * as admin from './routes/admin.ts';
import * as auth from './routes/auth.ts';
import * as pub from './routes/public.ts';
import * as S from './schemas.ts';

const ok = (description: string, schema?: import('zod').ZodType) => ({ 200: { description, ...(schema && { schema }) } });
const none = { 204: { description: 'Done; nothing to return' } };

/** The whole API on one page. Paths are under /api/v1. */
export const ROUTES: readonly AnyRoute[] = [
  // ---- Unauthenticated ----
  route({ method: 'GET', path: '/status', tag: 'server', summary: 'Server name, version and what a client must do first',
    auth: 'none', responses: ok('Status', S.StatusResponse), handler: pub.status }),
  route({ method: 'GET', path: '/healthz', tag: 'server', summary: 'Liveness and readiness (also served at /healthz)',
    auth: 'none', responses: { ...ok('Healthy', S.HealthResponse), 503: { description: 'A check failed', schema: S.HealthResponse } },
    handler: pub.health }),
  route({ method: 'GET', path: '/openapi.json', tag: 'server', summary: 'This document', auth: 'none',
    responses: ok('OpenAPI 3.1 document'), handler: () => openApiDocument(ROUTES) }),
  route({ method: 'POST', path: '/setup', tag: 'auth', summary: 'Create the first admin (the owner); refused once anyone exists',
    auth: 'none', body: S.SetupBody, responses: ok('Signed in as the new admin', S.TokenResponse),
    errors: ['already_set_up', 'invalid_username', 'weak_password'], handler: pub.setup }),
  route({ method: 'POST', path: '/auth/register', tag: 'auth', summary: 'Create an account (an invite is needed unless self registration is on)',
    auth: 'none', body: S.RegisterBody, responses: { 201: { description: 'Created', schema: S.UserResponse } },
    errors: ['invite_required', 'invalid_invite', 'username_taken', 'invalid_username', 'weak_password'], handler: auth.register }),
  route({ method: 'POST', path: '/auth/login', tag: 'auth', summary: 'Password sign-in, with a TOTP or recovery code when two-factor is on',
    auth: 'none', body: S.LoginBody,
    responses: { ...ok('Signed in', S.TokenResponse), 202: { description: 'Waiting for device approval', schema: S.PendingResponse } },
    errors: ['invalid_credentials', 'totp_required', 'account_disabled', 'rate_limited'], handler: auth.login }),
  route({ method: 'POST', path: '/auth/refresh', tag: 'auth', summary: 'Rotate a refresh token (single use; a replay signs the session out)',
    auth: 'none', body: S.RefreshBody, responses: ok('A new token pair', S.TokenResponse),
    errors: ['invalid_refresh_token', 'refresh_token_reused', 'rate_limited'], handler: auth.refresh }),
  route({ method: 'GET', path: '/invites/:code/check', tag: 'auth', summary: 'Whether an invite code can still be redeemed',
    auth: 'none', params: S.CodeParam, responses: ok('Validity', S.InviteCheckResponse), handler: pub.checkInvite }),

  // ---- Own account ----
  route({ method: 'GET', path: '/me', tag: 'account', summary: 'Profile and quota usage', auth: 'user',
    responses: ok('The account', S.MeResponse), handler: account.me }),
  route({ method: 'PATCH', path: '/me/profile', tag: 'account', summary: 'Change the display name', auth: 'user',
    body: S.ProfileBody, responses: ok('The account', S.MeResponse), handler: account.updateProfile }),
  route({ method: 'PATCH', path: '/me/password', tag: 'account', summary: 'Change the password; signs out the other sessions',
    auth: 'user', body: S.PasswordBody, allowWithTemporaryPassword: true, responses: none,
    errors: ['wrong_password', 'weak_password', 'rate_limited'], handler: account.changePassword }),
  route({ method: 'POST', path: '/auth/logout', tag: 'account', summary: 'Sign out this session', auth: 'user',
    allowWithTemporaryPassword: true, responses: none, handler: auth.logout }),
  route({ method: 'POST', path: '/auth/2fa/begin', tag: 'account', summary: 'Start TOTP enrollment', auth: 'user',
    responses: ok('Secret to put in an authenticator app', S.TotpBeginResponse), errors: ['totp_already_enabled'],
    handler: auth.totpBegin }),
  route({ method: 'POST', path: '/auth/2fa/verify', tag: 'account', summary: 'Confirm TOTP enrollment; returns ten single-use recovery codes once',
    auth: 'user', body: S.TotpVerifyBody, responses: ok('Two-factor is on', S.RecoveryCodesResponse),
    errors: ['invalid_totp_code', 'totp_not_started', 'totp_already_enabled', 'rate_limited'], handler: auth.totpVerify }),
  route({ method: 'POST', path: '/auth/2fa/disable', tag: 'account', summary: 'Turn TOTP off (needs the account password)',
    auth: 'user', body: S.TotpDisableBody, responses: none, errors: ['wrong_password', 'totp_not_enabled', 'rate_limited'],
    handler: auth.totpDisable }),
  route({ method: 'GET', path: '/users', tag: 'account', summary: 'Every enabled account: name and avatar seed only',
    auth: 'user', query: S.UsersQuery, responses: ok('A page of people', S.pageOf(S.PublicUserResponse)), handler: account.users }),

  // ---- Sessions and devices ----
  route({ method: 'GET', path: '/auth/session/:id/status', tag: 'devices',
    summary: 'Poll with the pending token (at most every 4 s); the real token pair once approved', auth: 'pending',
    params: S.IdParam, responses: ok('Pending, or approved with tokens', S.DeviceStatusResponse),
    errors: ['device_denied', 'slow_down'], handler: auth.sessionStatus }),
  route({ method: 'GET', path: '/sessions', tag: 'devices', summary: 'Devices signed in to the caller\'s account', auth: 'user',
    responses: ok('Sessions', S.pageOf(S.SessionResponse)), handler: account.sessions }),
  route({ method: 'DELETE', path: '/sessions/:id', tag: 'devices', summary: 'Sign one of the caller\'s devices out', auth: 'user',
    params: S.IdParam, responses: none, handler: account.revokeSession }),
  route({ method: 'GET', path: '/devices/pending', tag: 'devices', summary: 'Devices waiting for approval that the caller may decide',
    auth: 'user', responses: ok('Pending devices', S.pageOf(S.PendingDeviceResponse)), handler: account.pendingDevices }),
  route({ method: 'POST', path: '/devices/:id/approve', tag: 'devices', summary: 'Let a waiting device in', auth: 'user',
    params: S.IdParam, responses: none, errors: ['not_pending'], handler: account.approveDevice }),
  route({ method: 'POST', path: '/devices/:id/deny', tag: 'devices', summary: 'Refuse a waiting device', auth: 'user',
    params: S.IdParam, responses: none, errors: ['not_pending'], handler: account.denyDevice }),

  // ---- Administration ----
  route({ method: 'GET', path: '/server/settings', tag: 'admin', summary: 'Runtime-editable settings', auth: 'user',
    responses: ok('Settings', S.SettingsResponse), handler: admin.getSettings }),
  route({ method: 'PATCH', path: '/server/settings', tag: 'admin', summary: 'Change settings (admin)', auth: 'admin',
    body: S.SettingsPatchBody, responses: ok('Settings', S.SettingsResponse), handler: admin.updateSettings }),
  route({ method: 'GET', path: '/admin/users', tag: 'admin', summary: 'Every account, with role, quota and state', auth: 'admin',
    query: S.PageQuery, responses: ok('A page of accounts', S.pageOf(S.AdminUserResponse)), handler: admin.listUsers }),
  route({ method: 'PATCH', path: '/admin/users/:id', tag: 'admin', summary: 'Change role, quota or disabled', auth: 'admin',
    params: S.IdParam, body: S.UserPatchBody, responses: ok('The account', S.AdminUserResponse), errors: ['last_admin'],
    handler: admin.updateUser }),
  route({ method: 'POST', path: '/admin/users/:id/reset-password', tag: 'admin',
    summary: 'Issue a temporary password; the account must change it and is signed out everywhere', auth: 'admin',
    params: S.IdParam, body: S.ResetPasswordBody, responses: ok('The temporary password', S.TemporaryPasswordResponse),
    errors: ['weak_password'], handler: admin.resetPassword }),
  route({ method: 'GET', path: '/admin/invites', tag: 'admin', summary: 'Invites (codes are not shown again)', auth: 'admin',
    query: S.PageQuery, responses: ok('A page of invites', S.pageOf(S.InviteResponse)), handler: admin.listInvites }),
  route({ method: 'POST', path: '/admin/invites', tag: 'admin', summary: 'Create an invite (the code is returned only here)',
    auth: 'admin', body: S.InviteBody, responses: { 201: { description: 'Created', schema: S.InviteResponse } },
    handler: admin.createInvite }),
  route({ method: 'DELETE', path: '/admin/invites/:id', tag: 'admin', summary: 'Withdraw an invite', auth: 'admin',
    params: S.IdParam, responses: none, handler: admin.deleteInvite }),

  // ---- Events ----
  route({ method: 'GET', path: '/ws', tag: 'events',
    summary: 'WebSocket upgrade for events (bearer header or ?access_token; full scope only)', auth: 'user',
    responses: { 101: { description: 'Switching to WebSocket' }, 426: { description: 'Not an upgrade request' } },
    errors: ['upgrade_required'],
    handler: () => {
      throw new AppError('upgrade_required');
    } }),
];
