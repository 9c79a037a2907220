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
  SnapshotNodesResponse,
  SnapshotPeopleResponse,
} from '../../contract/backup-responses.ts';
import { ok, reply, route, type AnyRoute } from '../route-def.ts';
import { IdParam, PageQuery } from '../common-inputs.ts';

const FolderDestinationBody = z.object({
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
    .describe(
      "Encrypt with the server's backup key (age): file names and content unreadable without the emergency kit. Default true: only an explicit false makes a plain backup",
    ),
});

/** An S3-compatible bucket: where it is and the keys Hearth uses there. */
const S3Fields = {
  kind: z.literal('s3'),
  endpoint: z.string().min(1).max(2048).describe('The S3 service, such as https://s3.eu-central-003.backblazeb2.com (https:// is assumed)'),
  region: z.string().max(100).optional().describe('Default us-east-1, which most S3-compatible services accept'),
  bucket: z.string().min(1).max(100),
  prefix: z.string().max(1024).optional().describe('A folder in the bucket; the backup goes in <prefix>/hearth-backup/'),
  access_key_id: z.string().min(1).max(256),
  secret_access_key: z.string().min(1).max(256).describe('Kept in the data folder, outside the database; never shown again'),
};

const S3DestinationBody = z.object({
  ...S3Fields,
  name: z.string().max(200).optional(),
});

export const DestinationBody = z.discriminatedUnion('kind', [FolderDestinationBody, S3DestinationBody]);

const restoreFields = {
  key: z
    .string()
    .max(4096)
    .optional()
    .describe(
      'The emergency kit (its AGE-SECRET-KEY-1… line, or the whole kit file): it decrypts an encrypted backup, proves every signed one, and opens its keys.json',
    ),
  setup_code: z
    .string()
    .max(100)
    .optional()
    .describe('As for POST /setup: from another machine, the code printed where the server started'),
};

const RestoreFolderBody = z.object({
  kind: z.literal('folder'),
  path: z.string().min(1).max(4096).describe('The folder holding hearth-backup/ (the one a backup destination was)'),
  ...restoreFields,
});

/** A bucket an off-site destination wrote to; its keys stay with the restored server's destination. */
const RestoreS3Body = z.object({ ...S3Fields, ...restoreFields });

const RestoreSourceBody = z.discriminatedUnion('kind', [RestoreFolderBody, RestoreS3Body]);

const snapshotChoice = {
  snapshot_id: z.string().max(100).optional().describe('Default: the newest snapshot the kit signed'),
  accept_unsigned: z
    .boolean()
    .optional()
    .describe('true: restore a snapshot made before backups were signed (signed: false), which nothing proves untouched'),
};
const RestoreBody = z.discriminatedUnion('kind', [RestoreFolderBody.extend(snapshotChoice), RestoreS3Body.extend(snapshotChoice)]);

const setupDoors = [
  'already_set_up',
  'setup_code_required',
  'invalid_setup_code',
  'setup_in_app',
  'restore_running',
  'rate_limited',
] as const;
const backupReading = ['backup_not_found', 'backup_key_required', 'backup_key_wrong', 'invalid_destination', 'destination_unsafe'] as const;

export const DestinationPatchBody = z.object({
  name: z.string().max(200).optional(),
  schedule: BackupSchedule.nullable().optional().describe('null: only when asked ("Back up now")'),
  retention: BackupRetention.extend({
    last: BackupRetention.shape.last.optional().describe('Default: unchanged (5 for a new destination)'),
  }).optional(),
  access_key_id: z
    .string()
    .min(1)
    .max(256)
    .optional()
    .describe('An off-site destination: its keys typed again, checked against the bucket'),
  secret_access_key: z.string().min(1).max(256).optional(),
});

const SnapshotParams = z.object({ id: z.string().min(1).max(100), snapshot: z.string().min(1).max(100) });

const SnapshotNodesQuery = PageQuery.extend({
  user_id: z.string().max(100).optional().describe("Whose top level to list (default: the caller's); ignored with parent_id"),
  parent_id: z.string().max(100).optional().describe('A folder of the snapshot; omitted or "root": the top level of user_id'),
});

export const RestoreItemBody = z.object({
  node_id: z.string().min(1).max(100).describe('A file or folder of the snapshot (as its nodes listing gives it)'),
  mode: z
    .enum(['beside', 'replace'])
    .describe(
      'beside: a copy next to the current one, named "Holiday (restored 3 May 2026)", the current one untouched. replace: back in its place; a changed file gets the backed-up content as a new version (the current content stays as an older version), missing files and folders come back, files added since stay; if its folder is gone, it comes back at its owner\'s top level',
    ),
});

const snapshotReading = ['snapshot_not_found', 'snapshot_unproved', 'backup_unreachable', 'backup_damaged', 'destination_unsafe'] as const;

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
    summary:
      'Add a folder (encrypted unless encrypt is false) or an off-site S3 bucket (always encrypted; checked now) as a destination (nightly at 03:00, keeping the 5 latest, 7 daily, 4 weekly and 12 monthly snapshots, until changed)',
    auth: 'admin',
    body: DestinationBody,
    responses: { 201: { description: 'The destination', schema: BackupDestinationResponse } },
    errors: ['invalid_destination', 'invalid_name', 'destination_unsafe'],
    handler: async ({ services, actor, body }) => reply(201, await services.backup.add(actor, body)),
  }),
  route({
    method: 'PATCH',
    path: '/admin/backup/destinations/:id',
    tag: 'backup',
    summary: "Rename a destination, change its schedule or retention, or an off-site destination's keys",
    auth: 'admin',
    params: IdParam,
    body: DestinationPatchBody,
    responses: ok('The destination', BackupDestinationResponse),
    errors: ['invalid_name', 'invalid_destination'],
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
    path: '/admin/backup/destinations/:id/snapshots/:snapshot/people',
    tag: 'backup',
    summary: "The family as a snapshot knew them, each with their files' count and size: whose files to browse",
    auth: 'admin',
    params: SnapshotParams,
    responses: ok('People', SnapshotPeopleResponse),
    errors: [...snapshotReading],
    handler: ({ services, actor, params }) => services.snapshotFiles.people(actor, params.id, params.snapshot),
  }),
  route({
    method: 'GET',
    path: '/admin/backup/destinations/:id/snapshots/:snapshot/nodes',
    tag: 'backup',
    summary:
      "A folder (or someone's top level) as it was in a snapshot, folders first then by name, each with what became of it since (unchanged, changed, deleted); not what was in the trash then",
    auth: 'admin',
    params: SnapshotParams,
    query: SnapshotNodesQuery,
    responses: ok('A page of the folder, its path and whose it is', SnapshotNodesResponse),
    errors: [...snapshotReading, 'invalid_cursor'],
    handler: ({ services, actor, params, query }) => services.snapshotFiles.nodes(actor, params.id, params.snapshot, query),
  }),
  route({
    method: 'POST',
    path: '/admin/backup/destinations/:id/snapshots/:snapshot/restore',
    tag: 'backup',
    summary:
      "Restore one file or folder as it was in a snapshot, into its owner's files: beside the current one or in its place. Every file is proved against its SHA-256 before any appears; a damaged one fails the run, naming it, and nothing appears",
    auth: 'admin',
    params: SnapshotParams,
    body: RestoreItemBody,
    responses: {
      202: {
        description:
          'Started (kind restore); follow it with GET /admin/backup/runs/{id} or backup.progress; once succeeded, restored says where it is',
        schema: BackupRunResponse,
      },
    },
    errors: [...snapshotReading, 'backup_running', 'quota_exceeded', 'storage_full'],
    handler: async ({ services, actor, params, body }) =>
      reply(202, await services.itemRestore.start(actor, params.id, params.snapshot, body)),
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
    errors: ['not_found'],
    handler: ({ services, actor }) => services.backupKit.markSaved(actor),
  }),
  route({
    method: 'POST',
    path: '/setup/restore/snapshots',
    tag: 'backup',
    summary:
      'Fresh install only: the snapshots of a backup folder, newest first, to choose one to restore (same protection as POST /setup)',
    auth: 'none',
    body: RestoreSourceBody,
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
    errors: [...setupDoors, ...backupReading, 'snapshot_not_found', 'backup_unsigned'],
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
