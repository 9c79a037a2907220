import { z } from 'zod';
import { AppError } from '../../app-error.ts';
import { InviteCheckResponse, PendingResponse, TokenResponse, UserResponse } from '../../contract/identity-responses.ts';
import { clearingCache } from '../clear-site-data.ts';
import { ok, reply, route, type AnyRoute } from '../route-def.ts';

const deviceFields = {
  device_name: z
    .string()
    .max(200)
    .nullish()
    .describe(
      'A name for this device, shown in the session list; when absent the server names it from its User-Agent ("Chrome on Pixel 7")',
    ),
  platform: z.string().max(200).nullish(),
  device_model: z
    .string()
    .max(100)
    .nullish()
    .describe(
      "The device's model as the browser reports it through User-Agent Client Hints (the User-Agent itself no longer carries it), for the name",
    ),
};

const SetupBody = z.object({
  username: z.string(),
  password: z.string(),
  server_name: z.string().max(200).optional(),
  setup_code: z
    .string()
    .max(100)
    .optional()
    .describe('Headless server, request from another machine: the code printed beside "listening on" (GET /status says when it is needed)'),
  ...deviceFields,
});

const RecoverBody = z.object({
  code: z.string().max(100).describe("The one-time code made at the PC: `npm run owner -- reset`, or the desktop app's tray menu"),
  new_password: z.string(),
  ...deviceFields,
});

const RegisterBody = z.object({
  username: z.string(),
  password: z.string(),
  invite_code: z.string().max(200).optional(),
  display_name: z.string().max(200).nullish(),
});

const LoginBody = z.object({
  username: z.string().max(200),
  password: z.string().max(1024),
  totp_code: z.string().max(100).optional().describe('An authenticator code or a single-use recovery code'),
  ...deviceFields,
});

const RefreshBody = z.object({ refresh_token: z.string().min(1).max(200) });
const CodeParam = z.object({ code: z.string().min(1).max(200) });

/** Signing in and getting an account: the routes that need no account. */
export const authRoutes: readonly AnyRoute[] = [
  route({
    method: 'POST',
    path: '/setup',
    tag: 'auth',
    summary: 'Create the first admin (the owner); refused once anyone exists',
    auth: 'none',
    body: SetupBody,
    responses: ok('Signed in as the new admin', TokenResponse),
    errors: [
      'already_set_up',
      'setup_code_required',
      'invalid_setup_code',
      'setup_in_app',
      'invalid_username',
      'weak_password',
      'invalid_name',
      'busy',
      'rate_limited',
    ],
    handler: ({ services, body, client }) => services.auth.setup(body, client),
  }),
  route({
    method: 'POST',
    path: '/auth/register',
    tag: 'auth',
    summary: 'Create an account (an invite is needed unless self registration is on)',
    auth: 'none',
    body: RegisterBody,
    responses: { 201: { description: 'Created', schema: UserResponse } },
    errors: [
      'invite_required',
      'invalid_invite',
      'username_taken',
      'display_name_taken',
      'invalid_username',
      'weak_password',
      'invalid_name',
      'busy',
      'rate_limited',
    ],
    handler: async ({ services, body, client }) => reply(201, { user: await services.auth.register(body, client) }),
  }),
  route({
    method: 'POST',
    path: '/auth/login',
    tag: 'auth',
    summary: 'Password sign-in, with a TOTP or recovery code when two-factor is on',
    auth: 'none',
    body: LoginBody,
    responses: { ...ok('Signed in', TokenResponse), 202: { description: 'Waiting for device approval', schema: PendingResponse } },
    errors: ['invalid_credentials', 'totp_required', 'account_disabled', 'rate_limited', 'busy', 'invalid_name'],
    handler: async ({ services, body, client }) => {
      const result = await services.auth.login(body, client);
      // One reply per status, so tsc checks each body against its own schema.
      return result.status === 200 ? result.body : reply(202, result.body);
    },
  }),
  route({
    method: 'POST',
    path: '/auth/recover',
    tag: 'auth',
    summary:
      "The owner's way back in: a one-time code made at the PC sets a new password and signs in (no approval); the owner's other sessions end",
    auth: 'none',
    body: RecoverBody,
    responses: ok('Signed in as the owner', TokenResponse),
    errors: ['invalid_recovery_code', 'recovery_code_expired', 'weak_password', 'invalid_name', 'rate_limited', 'busy'],
    handler: ({ services, body, client }) => services.ownerRecovery.recover(body, client),
  }),
  route({
    method: 'POST',
    path: '/auth/refresh',
    tag: 'auth',
    summary: 'Rotate a refresh token (single use; a replay signs the session out)',
    auth: 'none',
    body: RefreshBody,
    responses: ok('A new token pair', TokenResponse),
    errors: ['invalid_refresh_token', 'refresh_token_reused', 'rate_limited'],
    handler: ({ services, body, client }) => {
      try {
        return services.sessions.refresh(body.refresh_token, client);
      } catch (error) {
        // A refused refresh signs this browser out: what it cached for the account goes too.
        throw error instanceof AppError && error.status === 401 ? clearingCache(error) : error;
      }
    },
  }),
  route({
    method: 'GET',
    path: '/invites/:code/check',
    tag: 'auth',
    summary: 'Whether an invite code can still be redeemed',
    auth: 'none',
    params: CodeParam,
    responses: ok('Validity', InviteCheckResponse),
    handler: ({ services, params }) => services.invites.check(params.code),
  }),
];
