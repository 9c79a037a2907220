import { z } from 'zod';
import { pageOf } from '../../contract/page.ts';
import { Library } from '../../contract/storage-responses.ts';
import { IdParam } from '../common-inputs.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const LibraryBody = z.object({
  name: z.string().max(200),
  path: z.string().min(1).max(4096).describe('A folder on a mounted drive (under the mounts root) or in the data folder'),
  make_default: z.boolean().optional(),
});

/** Where content files are kept: listing, registering, the default, ejecting and removing. */
export const libraryRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/libraries',
    tag: 'libraries',
    summary: 'Storage libraries with live used, free and total bytes',
    auth: 'user',
    responses: ok('Libraries', pageOf(Library)),
    handler: ({ services, actor }) => ({ items: services.libraries.list(actor), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/libraries',
    tag: 'libraries',
    summary: 'Register a folder on a mounted drive as a library (admin)',
    auth: 'admin',
    body: LibraryBody,
    responses: { 201: { description: 'Registered', schema: Library } },
    errors: ['invalid_library_path', 'already_registered', 'folder_not_empty', 'foreign_library', 'invalid_name'],
    handler: async ({ services, actor, body }) => reply(201, await services.libraries.register(actor, body)),
  }),
  route({
    method: 'PATCH',
    path: '/libraries/:id/set-default',
    tag: 'libraries',
    summary: 'Make it the library new files go to (admin)',
    auth: 'admin',
    params: IdParam,
    responses: none,
    errors: ['library_offline'],
    handler: ({ services, actor, params }) => {
      services.libraries.setDefault(actor, params.id);
    },
  }),
  route({
    method: 'POST',
    path: '/libraries/:id/eject',
    tag: 'libraries',
    summary: "Flush and unmount a library's drive so it can be unplugged (admin); refused for the default and during uploads",
    auth: 'admin',
    params: IdParam,
    responses: ok('The ejected library', Library),
    errors: ['library_is_default', 'uploads_in_progress', 'cannot_eject_internal', 'library_busy', 'helper_unavailable'],
    handler: ({ services, actor, params }) => services.libraries.eject(actor, params.id),
  }),
  route({
    method: 'DELETE',
    path: '/libraries/:id',
    tag: 'libraries',
    summary: 'Remove a library that holds no file (admin); its folder is left as it was and a drive the server mounted for it is unmounted',
    auth: 'admin',
    params: IdParam,
    responses: none,
    errors: ['cannot_remove_internal', 'library_is_default', 'library_not_empty', 'uploads_in_progress'],
    handler: ({ services, actor, params }) => services.libraries.remove(actor, params.id),
  }),
];
