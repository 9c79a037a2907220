import { z } from 'zod';
import { Node } from '../../contract/files-responses.ts';
import { PrivateStatus } from '../../contract/private-responses.ts';
import { IdParam } from '../common-inputs.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';

const UnlockBody = z
  .object({ password: z.string().max(1024).optional(), pin: z.string().max(20).optional() })
  .refine((body) => (body.password === undefined) !== (body.pin === undefined), { message: 'Send a password or a PIN.' });
const PinBody = z.object({
  password: z.string().max(1024),
  pin: z.string().max(20).nullable().describe('4 to 8 digits; null takes the PIN away'),
});

/** The caller's Private folder: whether it is open, opening and locking it, its PIN, moving in and out. */
export const privateRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/private',
    tag: 'private',
    summary: 'The Private folder: made yet, open in this session until when, whether a PIN opens it',
    auth: 'user',
    responses: ok('Its state', PrivateStatus),
    handler: ({ services, actor }) => services.privateFolder.status(actor),
  }),
  route({
    method: 'POST',
    path: '/private/unlock',
    tag: 'private',
    summary: 'Open Private in this session for a few minutes, with the password or the PIN',
    auth: 'user',
    body: UnlockBody,
    responses: ok('Its state', PrivateStatus),
    errors: ['wrong_password', 'wrong_pin', 'no_pin', 'rate_limited', 'busy'],
    handler: ({ services, actor, body, client }) =>
      services.privateFolder.unlock(actor, body.pin !== undefined ? { pin: body.pin } : { password: body.password ?? '' }, client),
  }),
  route({
    method: 'POST',
    path: '/private/lock',
    tag: 'private',
    summary: 'Lock Private now in this session',
    auth: 'user',
    responses: ok('Its state', PrivateStatus),
    handler: ({ services, actor }) => services.privateFolder.lock(actor),
  }),
  route({
    method: 'PUT',
    path: '/private/pin',
    tag: 'private',
    summary: 'Set, change or take away the PIN that opens Private (the password confirms it)',
    auth: 'user',
    body: PinBody,
    responses: ok('Its state', PrivateStatus),
    errors: ['invalid_pin', 'wrong_password', 'rate_limited', 'busy'],
    handler: ({ services, actor, body, client }) => services.privateFolder.setPin(actor, body, client),
  }),
  route({
    method: 'POST',
    path: '/nodes/:id/private',
    tag: 'private',
    summary: 'Move to Private (locked or not): out of Photos, albums, shares and links',
    auth: 'user',
    params: IdParam,
    responses: ok('The node, now in Private', Node),
    errors: ['forbidden', 'in_trash'],
    handler: ({ services, actor, params }) => services.privateFolder.moveIn(actor, params.id),
  }),
  route({
    method: 'DELETE',
    path: '/nodes/:id/private',
    tag: 'private',
    summary:
      'Move out of Private, back to the folder it came from (the top of My files if that is gone or in the trash); Private must be open',
    auth: 'user',
    params: IdParam,
    responses: ok('The node, out of Private', Node),
    errors: ['private_locked', 'invalid_move', 'forbidden'],
    handler: ({ services, actor, params }) => services.privateFolder.moveOut(actor, params.id),
  }),
];
