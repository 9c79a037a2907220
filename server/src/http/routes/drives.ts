import { z } from 'zod';
import { DriveDetail, DrivesResponse, FormatResponse, Library } from '../../contract/storage-responses.ts';
import { IdParam } from '../common-inputs.ts';
import { ok, reply, route, type AnyRoute } from '../route-def.ts';

const FormatBody = z.object({
  filesystem: z.enum(['ext4', 'exfat']).describe('ext4 for this server; exFAT for a disk shared with other computers'),
  label: z.string().max(64).optional(),
  confirmation: z.string().max(300).describe('Exactly "FORMAT <device>", e.g. "FORMAT /dev/sdb"'),
});

const MountBody = z.object({
  name: z.string().max(200).optional().describe("The library's name; the drive's label when absent"),
  make_default: z.boolean().optional(),
});

const PoolBody = z.object({
  name: z.string().max(200),
  drive_ids: z.array(z.string().min(1).max(64)).min(2).max(8),
  make_default: z.boolean().optional(),
});

/** The PC's drives (admin): what is plugged in, erasing one, and making libraries on them. */
export const driveRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/admin/drives',
    tag: 'libraries',
    summary: 'Detected drives: size, model, removable, file system, mount points, whether they hold the system, which library uses them',
    auth: 'admin',
    responses: ok('Drives and what the server can do with them', DrivesResponse),
    handler: ({ services, actor }) => services.drives.list(actor),
  }),
  route({
    method: 'GET',
    path: '/admin/drives/:id',
    tag: 'libraries',
    summary:
      'One drive, with what is on it from a read-only look (used space, top-level folders, counts of files and photos): what the erase dialog shows',
    auth: 'admin',
    params: IdParam,
    responses: ok('The drive and its contents', DriveDetail),
    handler: ({ services, actor, params }) => services.drives.get(actor, params.id),
  }),
  route({
    method: 'POST',
    path: '/admin/drives/:id/format',
    tag: 'libraries',
    summary: 'Erase a drive with a new file system (ext4 or exFAT); needs the exact phrase "FORMAT <device>"; one operation at a time',
    auth: 'admin',
    params: IdParam,
    body: FormatBody,
    responses: ok('The drive now, and what was on it before', FormatResponse),
    errors: [
      'confirmation_mismatch',
      'system_drive',
      'drive_in_use',
      'drive_operation_running',
      'drive_busy',
      'helper_unavailable',
      'format_failed',
      'filesystem_unavailable',
    ],
    handler: ({ services, actor, params, body }) => services.drives.format(actor, params.id, body),
  }),
  route({
    method: 'POST',
    path: '/admin/drives/:id/mount',
    tag: 'libraries',
    summary: 'Mount a drive (unless mounted) and make its "Hearth" folder a library; a drive ejected earlier brings its library back',
    auth: 'admin',
    params: IdParam,
    body: MountBody,
    responses: { 201: { description: 'The library', schema: Library } },
    errors: [
      'system_drive',
      'already_registered',
      'no_filesystem',
      'foreign_library',
      'folder_not_empty',
      'mount_failed',
      'helper_unavailable',
      'drive_operation_running',
      'invalid_name',
    ],
    handler: async ({ services, actor, params, body }) => reply(201, await services.drives.mount(actor, params.id, body)),
  }),
  route({
    method: 'POST',
    path: '/admin/drives/pool',
    tag: 'libraries',
    summary: 'Combine drives into one library with mergerfs (new files go to the drive with the most room); re-assembled at startup',
    auth: 'admin',
    body: PoolBody,
    responses: { 201: { description: 'The pooled library', schema: Library } },
    errors: [
      'system_drive',
      'drive_in_use',
      'no_filesystem',
      'foreign_library',
      'mount_failed',
      'pool_unavailable',
      'helper_unavailable',
      'drive_operation_running',
      'invalid_name',
      'not_found',
    ],
    handler: async ({ services, actor, body }) => reply(201, await services.drives.pool(actor, body)),
  }),
];
