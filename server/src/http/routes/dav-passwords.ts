import { z } from 'zod';
import { DavPassword, NewDavPassword } from '../../contract/dav-passwords-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { IdParam } from '../common-inputs.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const DavPasswordBody = z.object({
  name: z.string().max(1000).describe('The computer it is for ("Dad\'s laptop"): 1 to 64 characters'),
});

/** The caller's drive passwords: what a computer signs in with to open Hearth as a drive (WebDAV). */
export const davPasswordRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/me/dav-passwords',
    tag: 'account',
    summary: "The caller's drive passwords, oldest first, with their last use (never the passwords)",
    auth: 'user',
    responses: ok('Drive passwords', pageOf(DavPassword)),
    handler: ({ services, actor }) => ({ items: services.davPasswords.list(actor), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/me/dav-passwords',
    tag: 'account',
    summary:
      'Make a drive password for one computer (at most 20 per account): the answer shows it once. A drive signs in with the username and it (HTTP Basic); the account password is refused there',
    auth: 'user',
    body: DavPasswordBody,
    responses: { 201: { description: 'Made; the password is not shown again', schema: NewDavPassword } },
    errors: ['invalid_name', 'too_many_drive_passwords'],
    handler: ({ services, actor, body }) => reply(201, services.davPasswords.create(actor, body)),
  }),
  route({
    method: 'DELETE',
    path: '/me/dav-passwords/:id',
    tag: 'account',
    summary: "Revoke one of the caller's drive passwords: the computer using it is refused from its next request",
    auth: 'user',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.davPasswords.revoke(actor, params.id);
    },
  }),
];
