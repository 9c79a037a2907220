import { z } from 'zod';
import { AdminSession, AdminUser, Invite, Role, TemporaryPasswordResponse } from '../../contract/identity-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { AdminStatus, NetworkResponse, SettingsView } from '../../contract/server-responses.ts';
import { IdParam, PageQuery, SessionPatchBody } from '../common-inputs.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const SettingsPatchBody = z.object({
  server_name: z.string().max(200).optional(),
  allow_self_registration: z.boolean().optional(),
  require_device_approval: z.boolean().optional(),
  trash_retention_days: z.number().int().min(1).max(3650).optional(),
  default_quota_bytes: z.number().int().min(0).nullable().optional(),
  make_playback_copies: z.boolean().optional(),
  session_tokens_in_urls: z.boolean().optional(),
});

const UserPatchBody = z.object({
  role: Role.optional(),
  quota_bytes: z.number().int().min(0).nullable().optional().describe('null means unlimited'),
  disabled: z.boolean().optional(),
});

const ResetPasswordBody = z.object({
  new_password: z.string().optional().describe('Generated when omitted'),
});

const InviteBody = z.object({
  expires_at: z.number().int().positive().nullable().optional(),
  max_uses: z.number().int().min(1).max(1_000_000).nullable().optional().describe('Default 1; null means unlimited'),
  role: Role.optional(),
  label: z.string().max(200).nullable().optional().describe('Who it is for ("Grandma"), up to 64 characters; shown in the invite list'),
});

/** The console: settings, accounts, every account's devices, the server's status and addresses, invites. */
export const adminRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/server/settings',
    tag: 'admin',
    summary: 'Runtime-editable settings',
    auth: 'user',
    responses: ok('Settings', SettingsView),
    handler: ({ services }) => services.settings.view(),
  }),
  route({
    method: 'PATCH',
    path: '/server/settings',
    tag: 'admin',
    summary: 'Change settings (admin)',
    auth: 'admin',
    body: SettingsPatchBody,
    responses: ok('Settings', SettingsView),
    errors: ['invalid_name'],
    handler: ({ services, actor, body }) => services.settings.update(actor, body),
  }),
  route({
    method: 'GET',
    path: '/admin/users',
    tag: 'admin',
    summary: 'Every account, with role, quota and state',
    auth: 'admin',
    query: PageQuery,
    responses: ok('A page of accounts', pageOf(AdminUser)),
    handler: ({ services, actor, query }) => services.adminUsers.list(actor, query),
  }),
  route({
    method: 'PATCH',
    path: '/admin/users/:id',
    tag: 'admin',
    summary: 'Change role, quota or disabled',
    auth: 'admin',
    params: IdParam,
    body: UserPatchBody,
    responses: ok('The account', AdminUser),
    errors: ['last_admin', 'owner_account'],
    handler: ({ services, actor, params, body }) => services.adminUsers.update(actor, params.id, body),
  }),
  route({
    method: 'POST',
    path: '/admin/users/:id/reset-password',
    tag: 'admin',
    summary: 'Issue a temporary password; the account must change it and is signed out everywhere',
    auth: 'admin',
    params: IdParam,
    body: ResetPasswordBody,
    responses: ok('The temporary password', TemporaryPasswordResponse),
    errors: ['weak_password', 'busy', 'owner_account'],
    handler: ({ services, actor, params, body }) => services.adminUsers.resetPassword(actor, params.id, body.new_password),
  }),
  route({
    method: 'GET',
    path: '/admin/sessions',
    tag: 'admin',
    summary: "Every account's signed-in and waiting devices (the console's device list)",
    auth: 'admin',
    responses: ok('Live sessions, account by account', pageOf(AdminSession)),
    handler: ({ services, actor }) => ({ items: services.sessions.listAll(actor), next_cursor: null }),
  }),
  route({
    method: 'PATCH',
    path: '/admin/sessions/:id',
    tag: 'admin',
    summary: "Rename any account's device (1 to 64 characters)",
    auth: 'admin',
    params: IdParam,
    body: SessionPatchBody,
    responses: ok('The session', AdminSession),
    errors: ['invalid_name'],
    handler: ({ services, actor, params, body }) => services.sessions.renameAny(actor, params.id, body.device_name),
  }),
  route({
    method: 'DELETE',
    path: '/admin/sessions/:id',
    tag: 'admin',
    summary: "Sign out any account's device",
    auth: 'admin',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.sessions.revokeAny(actor, params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/admin/status',
    tag: 'admin',
    summary: 'Version, uptime and data folder of the running server',
    auth: 'admin',
    responses: ok('Status for the owner', AdminStatus),
    handler: ({ services, actor }) => services.status.adminStatus(actor),
  }),
  route({
    method: 'GET',
    path: '/admin/network',
    tag: 'admin',
    summary: "This PC's addresses on the home network and the address a phone opens (the console's \"Connect your family's phones\")",
    auth: 'admin',
    responses: ok('LAN addresses', NetworkResponse),
    // The port is the one this request arrived on: the port phones reach too.
    handler: ({ services, actor, koa }) => services.network.lan(actor, koa.socket.localPort ?? 0),
  }),
  route({
    method: 'POST',
    path: '/admin/network/check',
    tag: 'admin',
    summary: 'Look at Tailscale on this PC again now, then answer as GET /admin/network (the Connect page\'s "Check it works")',
    auth: 'admin',
    responses: ok('LAN addresses, and Tailscale as seen just now', NetworkResponse),
    handler: ({ services, actor, koa }) => services.network.check(actor, koa.socket.localPort ?? 0),
  }),
  route({
    method: 'GET',
    path: '/admin/invites',
    tag: 'admin',
    summary: 'Invites (codes are not shown again)',
    auth: 'admin',
    query: PageQuery,
    responses: ok('A page of invites', pageOf(Invite)),
    handler: ({ services, actor, query }) => services.invites.list(actor, query),
  }),
  route({
    method: 'POST',
    path: '/admin/invites',
    tag: 'admin',
    summary: 'Create an invite (the code is returned only here)',
    auth: 'admin',
    body: InviteBody,
    responses: { 201: { description: 'Created', schema: Invite } },
    errors: ['invalid_name'],
    handler: ({ services, actor, body }) => reply(201, services.invites.create(actor, body, services.origin.current())),
  }),
  route({
    method: 'DELETE',
    path: '/admin/invites/:id',
    tag: 'admin',
    summary: 'Withdraw an invite',
    auth: 'admin',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.invites.remove(actor, params.id);
    },
  }),
];
