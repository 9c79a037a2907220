import { DeviceStatusResponse, PendingDevice, Session } from '../../contract/identity-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { IdParam, SessionPatchBody } from '../common-inputs.ts';
import { none, ok, route, type AnyRoute } from '../route-def.ts';

/** The caller's own devices, and devices waiting for approval (its own, or any for an owner). */
export const deviceRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/auth/session/:id/status',
    tag: 'devices',
    summary: 'Poll with the pending token (at most every 4 s); the real token pair once approved',
    auth: 'pending',
    params: IdParam,
    responses: ok('Pending, or approved with tokens', DeviceStatusResponse),
    errors: ['device_denied', 'slow_down', 'tokens_already_issued'],
    handler: ({ services, actor, params }) => services.devices.pollStatus(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/sessions',
    tag: 'devices',
    summary: "Devices signed in to the caller's account",
    auth: 'user',
    responses: ok('Sessions', pageOf(Session)),
    handler: ({ services, actor }) => ({ items: services.sessions.list(actor), next_cursor: null }),
  }),
  route({
    method: 'PATCH',
    path: '/sessions/:id',
    tag: 'devices',
    summary: "Rename one of the caller's devices (1 to 64 characters)",
    auth: 'user',
    params: IdParam,
    body: SessionPatchBody,
    responses: ok('The session', Session),
    errors: ['invalid_name'],
    handler: ({ services, actor, params, body }) => services.sessions.rename(actor, params.id, body.device_name),
  }),
  route({
    method: 'DELETE',
    path: '/sessions/:id',
    tag: 'devices',
    summary: "Sign one of the caller's devices out",
    auth: 'user',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.sessions.revokeOwn(actor, params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/devices/pending',
    tag: 'devices',
    summary: 'Devices waiting for approval that the caller may decide',
    auth: 'user',
    responses: ok('Pending devices', pageOf(PendingDevice)),
    handler: ({ services, actor }) => ({ items: services.devices.listPending(actor), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/devices/:id/approve',
    tag: 'devices',
    summary: 'Let a waiting device in',
    auth: 'user',
    params: IdParam,
    responses: none,
    errors: ['not_pending'],
    handler: ({ services, actor, params }) => {
      services.devices.approve(actor, params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/devices/:id/deny',
    tag: 'devices',
    summary: 'Refuse a waiting device',
    auth: 'user',
    params: IdParam,
    responses: none,
    errors: ['not_pending'],
    handler: ({ services, actor, params }) => {
      services.devices.deny(actor, params.id);
    },
  }),
];
