import { z } from 'zod';
import {
  BackupDestinationResponse,
  BackupKitResponse,
  BackupKitStateResponse,
  BackupOverviewResponse,
  BackupRetention,
  BackupRunResponse,
  BackupSchedule,
  BackupSnapshotsResponse,
  RestoreSnapshotsResponse,
} from '../../contract/backup-responses.ts';
import { ok, reply, route, type AnyRoute } from '../route-def.ts';
import { IdParam } from '../common-inputs.ts';

export const DestinationBody = z.object({
  kind: z.literal('folder'),
  path: z
    .string()
    .min(1)
    .max(4096)
    .describe('A full path to an existing folder outside the data folder and every library, on another drive'),
  name: z.string().max(200).optional(),
  encrypt: z
    .boolean()
    .optional()
    .describe("Encrypt with the server's backup key (age): file names and content unreadable without the emergency kit"),
});

const RestoreFolderBody = z.object({
  kind: z.literal('folder'),
  path: z.string().min(1).max(4096).describe('The folder holding hearth-backup/ (the one a backup destination was)'),
  key: z
    .string()
    .max(4096)
    .optional()
    .describe('For an encrypted backup: the emergency kit (its AGE-SECRET-KEY-1… line, or the whole kit file)'),
  setup_code: z
    .string()
    .max(100)
    .optional()
    .describe('As for POST /setup: from another machine, the code printed where the server started'),
});

const RestoreBody = RestoreFolderBody.extend({
  snapshot_id: z.string().max(100).optional().describe('Default: the newest snapshot'),
});

const setupDoors = [
  'already_set_up',
  'setup_code_required',
  'invalid_setup_code',
  'setup_in_app',
  'restore_running',
  'rate_limited',
] as const;
const backupReading = ['backup_not_found', 'backup_key_required', 'backup_key_wrong'] as const;

export const DestinationPatchBody = z.object({
  name: z.string().max(200).optional(),
  schedule: BackupSchedule.nullable().optional().describe('null: only when asked ("Back up now")'),
  retention: BackupRetention.optional(),
});

const started = {
  202: { description: 'Started; follow it with GET /admin/backup/runs/{id} or the backup.progress event', schema: BackupRunResponse },
};

/** Backups: destinations, runs (backup and verify) and the snapshots they leave. */
export const backupRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/admin/backup',
    tag: 'backup',
    summary:
      'Backup destinations, each with its schedule, retention, last run and next run; the run under way; whether backups are overdue',
    auth: 'admin',
    responses: ok('Destinations and the run under way', BackupOverviewResponse),
    handler: async ({ services, actor }) => ({
      ...services.backup.overview(actor),
      health: services.backupHealth.forOwner(actor),
      kit: await services.backupKit.state(actor),
    }),
  }),
  route({
    method: 'POST',
    path: '/admin/backup/destinations',
    tag: 'backup',
    summary: 'Add a folder destination (nightly at 03:00, keeping 7 daily, 4 weekly and 12 monthly snapshots, until changed)',
    auth: 'admin',
    body: DestinationBody,
    responses: { 201: { description: 'The destination', schema: BackupDestinationResponse } },
    errors: ['invalid_destination', 'invalid_name'],
    handler: async ({ services, actor, body }) => reply(201, await services.backup.add(actor, body)),
  }),
  route({
    method: 'PATCH',
    path: '/admin/backup/destinations/:id',
    tag: 'backup',
    summary: 'Rename a destination, change its schedule or retention',
    auth: 'admin',
    params: IdParam,
    body: DestinationPatchBody,
    responses: ok('The destination', BackupDestinationResponse),
    errors: ['invalid_name'],
    handler: ({ services, actor, params, body }) => services.backup.update(actor, params.id, body),
  }),
  route({
    method: 'DELETE',
    path: '/admin/backup/destinations/:id',
    tag: 'backup',
    summary: 'Forget a destination; the backup already in its folder stays there',
    auth: 'admin',
    params: IdParam,
    responses: { 204: { description: 'Forgotten' } },
    errors: ['backup_running'],
    handler: ({ services, actor, params }) => services.backup.remove(actor, params.id),
  }),
  route({
    method: 'POST',
    path: '/admin/backup/destinations/:id/run',
    tag: 'backup',
    summary: 'Back up now (one run at a time)',
    auth: 'admin',
    params: IdParam,
    responses: started,
    errors: ['backup_running'],
    handler: ({ services, actor, params }) => reply(202, services.backup.startBackup(actor, params.id)),
  }),
  route({
    method: 'POST',
    path: '/admin/backup/destinations/:id/verify',
    tag: 'backup',
    summary: 'Read the backup back and check every file against its SHA-256; damaged or missing files are named in problems',
    auth: 'admin',
    params: IdParam,
    responses: started,
    errors: ['backup_running'],
    handler: ({ services, actor, params }) => reply(202, services.backup.startVerify(actor, params.id)),
  }),
  route({
    method: 'GET',
    path: '/admin/backup/destinations/:id/snapshots',
    tag: 'backup',
    summary: 'Finished snapshots on a destination, newest first',
    auth: 'admin',
    params: IdParam,
    responses: ok('Snapshots', BackupSnapshotsResponse),
    handler: ({ services, actor, params }) => services.backup.snapshots(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/admin/backup/kit',
    tag: 'backup',
    summary: "The emergency kit: the server's backup key (made on first use), without which an encrypted backup cannot be restored",
    auth: 'admin',
    responses: ok('The kit', BackupKitResponse),
    handler: ({ services, actor }) => services.backup.kit(actor),
  }),
  route({
    method: 'POST',
    path: '/admin/backup/kit/saved',
    tag: 'backup',
    summary:
      'The owner says the emergency kit is kept (downloaded or printed): the reminder on the Backups page ends. Fetching the kit is no proof of keeping it',
    auth: 'admin',
    responses: ok('Whether the kit is kept', BackupKitStateResponse),
    handler: ({ services, actor }) => services.backupKit.markSaved(actor),
  }),
  route({
    method: 'POST',
    path: '/setup/restore/snapshots',
    tag: 'backup',
    summary:
      'Fresh install only: the snapshots of a backup folder, newest first, to choose one to restore (same protection as POST /setup)',
    auth: 'none',
    body: RestoreFolderBody,
    responses: ok('Whether the backup is encrypted, and its snapshots', RestoreSnapshotsResponse),
    errors: [...setupDoors, ...backupReading],
    handler: ({ services, body, client }) => services.restore.snapshots(body, client),
  }),
  route({
    method: 'POST',
    path: '/setup/restore',
    tag: 'backup',
    summary:
      'Fresh install only: restore the whole server from a backup folder (same protection as POST /setup). GET /status says restoring: true until the server starts again on the restored data',
    auth: 'none',
    body: RestoreBody,
    responses: {
      202: { description: 'Started; follow it with GET /setup/restore (or GET /status)', schema: BackupRunResponse },
    },
    errors: [...setupDoors, ...backupReading, 'snapshot_not_found'],
    handler: async ({ services, body, client }) => reply(202, await services.restore.start(body, client)),
  }),
  route({
    method: 'GET',
    path: '/setup/restore',
    tag: 'backup',
    summary:
      'Fresh install only: the restore under way, or why it failed (409 already_set_up once the restored server is up). Only this PC hears the whole run; another caller gets its progress, and a failure said without the folder or the snapshot',
    auth: 'none',
    responses: ok('The restore run', BackupRunResponse),
    errors: ['already_set_up'],
    handler: ({ services, client }) => services.restore.last(client),
  }),
  route({
    method: 'GET',
    path: '/admin/backup/runs/:id',
    tag: 'backup',
    summary: 'A backup or verify run: its state, counts, problems and, if it failed, why in words',
    auth: 'admin',
    params: IdParam,
    responses: ok('The run', BackupRunResponse),
    handler: ({ services, actor, params }) => services.backup.run(actor, params.id),
  }),
];
