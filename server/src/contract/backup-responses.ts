import { z } from 'zod';

/** What went wrong with one file of a run: `path` is the file's place in the backup folder. */
export const BackupProblem = z.object({ path: z.string(), reason: z.string() });

export const BackupRunResponse = z.object({
  id: z.string(),
  /** null for a restore (it reads a folder given on the first screen, not a destination). */
  destination_id: z.string().nullable(),
  kind: z.enum(['backup', 'verify', 'restore']),
  state: z.enum(['running', 'succeeded', 'failed']),
  started_at: z.number().int(),
  finished_at: z.number().int().nullable(),
  /** Files in the snapshot (backup) or read back (verify), so far while running. */
  files: z.number().int(),
  bytes: z.number().int(),
  /** Bytes written to the destination by this run: a backup's new content; 0 for a verify. */
  bytes_copied: z.number().int(),
  /**
   * Files the run will have done at its end (a backup: the snapshot's; a check: those it reads
   * back). Known once the run has counted them, before it copies; null before that, and for a
   * run that did not finish. Corrected as it goes (a file the server can no longer read is not
   * counted), so a run that ends well ends with `files` = `files_total`.
   */
  files_total: z.number().int().nullable(),
  /** The bytes of those files: what `bytes` reaches at the end. null as `files_total`. */
  bytes_total: z.number().int().nullable(),
  /**
   * Of `bytes_total`, what must be copied: the rest the destination holds already, found without
   * reading it again. What `bytes_copied` reaches at the end (0 for a check). null as `files_total`.
   */
  bytes_to_copy: z.number().int().nullable(),
  /**
   * About how long the run has left, in seconds, from its pace over the last half minute (not
   * since its start). null while that is not known well enough (its first seconds, a long wait)
   * and once it has ended.
   */
  seconds_left: z.number().int().min(0).nullable(),
  problems: z.array(BackupProblem),
  /** Why a failed run failed, in words a person reads. */
  error: z.string().optional(),
  /**
   * Why a failed run failed, for a program: an error code of the catalogue (destination_unsafe,
   * backup_unreachable, backup_key_wrong, …). Absent on success, and on runs recorded before it existed.
   */
  error_code: z.string().optional(),
  /** The snapshot a backup made; the snapshot a restore reads. */
  snapshot_id: z.string().nullable(),
  /** A restore of one file or folder that succeeded: where it is now. */
  restored: z
    .object({
      node_id: z.string(),
      owner_id: z.string(),
      /** Its place in its owner's files, folders joined with "/": "Photos/Holiday (restored 3 May 2026)". */
      path: z.string(),
      /** Files whose backed-up content was put back (new files, or new versions of changed ones). */
      files: z.number().int(),
      /** Files that were already as in the backup, left as they are. */
      unchanged: z.number().int(),
      /** Folders made again. */
      folders: z.number().int(),
    })
    .optional(),
});

export const BackupSchedule = z.object({
  /** Local time of day of the nightly run, HH:MM on the server's clock. */
  daily_at: z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/),
});

export const BackupRetention = z.object({
  /** The newest snapshots kept whatever their day: a second "Back up now" on one day never replaces the morning's. */
  last: z.number().int().min(0).max(100),
  daily: z.number().int().min(0).max(366),
  weekly: z.number().int().min(0).max(520),
  monthly: z.number().int().min(0).max(1200),
});

export const BackupDestinationResponse = z.object({
  id: z.string(),
  kind: z.enum(['folder', 's3']),
  name: z.string(),
  /** The folder (the backup itself is in its hearth-backup/ subfolder); for s3, the bucket's address endpoint/bucket/prefix. */
  path: z.string(),
  /** An off-site destination's bucket (null for a folder). Its secret key is never shown. */
  s3: z.object({ endpoint: z.string(), region: z.string(), bucket: z.string(), prefix: z.string(), access_key_id: z.string() }).nullable(),
  encrypted: z.boolean(),
  /** null: only when asked ("Back up now"). */
  schedule: BackupSchedule.nullable(),
  retention: BackupRetention,
  last_run: BackupRunResponse.nullable(),
  last_success_at: z.number().int().nullable(),
  last_verify: BackupRunResponse.nullable(),
  next_run_at: z.number().int().nullable(),
  /** Bytes the kept snapshots take on the destination (content shared by snapshots counted once). */
  stored_bytes: z.number().int(),
});

/**
 * Whether the family's files are backed up, decided by the server once for the console's header
 * and the desktop's tray: `ok`; `no_backup_yet` (files but no destination: a calm nudge); or
 * `overdue` (a scheduled destination has not succeeded for 3 days: a warning).
 */
export const BackupHealthResponse = z.object({
  state: z.enum(['ok', 'no_backup_yet', 'overdue']),
  /** In plain words, for a header or a tray: "No backup for 4 days". null when `ok`. */
  headline: z.string().nullable(),
  /** Why, when known: the failing destination's last error in words. */
  reason: z.string().nullable(),
  /** The destination that is overdue (the one longest without a success). */
  destination_id: z.string().nullable(),
  /** The newest success over every destination. */
  last_success_at: z.number().int().nullable(),
});

/** Whether the owner kept the emergency kit of this server's backup key. */
export const BackupKitStateResponse = z.object({
  /** When the owner said they saved the kit (downloaded or printed) for the current key; null: never. */
  saved_at: z.number().int().nullable(),
  /** While a destination exists and the kit was never saved (every backup needs it to be restored elsewhere): the sentence that says so. */
  reminder: z.string().nullable(),
});

export const BackupOverviewResponse = z.object({
  destinations: z.array(BackupDestinationResponse),
  running: BackupRunResponse.nullable(),
  health: BackupHealthResponse,
  kit: BackupKitStateResponse,
});

export const BackupSnapshotResponse = z.object({
  id: z.string(),
  at: z.number().int(),
  files: z.number().int(),
  bytes: z.number().int(),
  /**
   * Proved with the emergency kit's key (docs/backup-format.md). false only on the first screen's
   * list: a snapshot made before backups were signed, restored only with `accept_unsigned`.
   */
  signed: z.boolean(),
});
export const BackupSnapshotsResponse = z.object({
  items: z.array(BackupSnapshotResponse),
  reachable: z
    .boolean()
    .describe(
      'False when the destination cannot be read now (a folder whose drive is unplugged, a bucket out of reach): items is then empty',
    ),
});
/** The snapshots of a backup folder a fresh install may restore, newest first. */
export const RestoreSnapshotsResponse = z.object({ encrypted: z.boolean(), items: z.array(BackupSnapshotResponse) });

/** A family member as a snapshot knew them: whose files the owner browses. */
export const SnapshotPersonResponse = z.object({
  id: z.string(),
  name: z.string(),
  username: z.string(),
  role: z.string(),
  /** Files they had then (not counting their trash), and their bytes. */
  files: z.number().int(),
  bytes: z.number().int(),
  /** Whether the account is still on this server: files come back only to an account that is. */
  exists_now: z.boolean(),
});
export const SnapshotPeopleResponse = z.object({ items: z.array(SnapshotPersonResponse) });

/** A file or folder as it was in a snapshot, and what became of it since. */
export const SnapshotNodeResponse = z.object({
  id: z.string(),
  type: z.enum(['folder', 'file']),
  name: z.string(),
  parent_id: z.string().nullable(),
  owner_id: z.string(),
  size: z.number().int(),
  mime_type: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  taken_at: z.number().int().nullable(),
  /** Folders: the items directly inside; 0 for a file. */
  children: z.number().int(),
  /**
   * Since the snapshot: `unchanged`; `changed` (a file whose content is different now);
   * `deleted` (deleted or in the trash now). A folder is `unchanged` while it exists.
   */
  since: z.enum(['unchanged', 'changed', 'deleted']),
});
export const SnapshotNodesResponse = z.object({
  items: z.array(SnapshotNodeResponse),
  next_cursor: z.string().nullable(),
  /** The folder listed and its ancestors, top level first; empty at someone's top level. */
  path: z.array(SnapshotNodeResponse),
  /** Whose files these are. */
  owner_id: z.string(),
});

/** The emergency kit: the backup key, once as a file age reads (`age -d -i`), once for a printed page. */
export const BackupKitResponse = z.object({
  /** The secret key, `AGE-SECRET-KEY-1…`: what the printed page's QR code holds. */
  key: z.string(),
  /** The public key every encrypted backup of this server is encrypted to, `age1…`. */
  public_key: z.string(),
  created_at: z.number().int(),
  /** Said wherever the kit is offered. */
  warning: z.string(),
  file_name: z.string(),
  file_text: z.string(),
});

export type BackupProblem = z.output<typeof BackupProblem>;
export type BackupRun = z.output<typeof BackupRunResponse>;
export type BackupScheduleDto = z.output<typeof BackupSchedule>;
export type BackupRetentionDto = z.output<typeof BackupRetention>;
export type BackupDestination = z.output<typeof BackupDestinationResponse>;
export type BackupHealth = z.output<typeof BackupHealthResponse>;
export type BackupOverview = z.output<typeof BackupOverviewResponse>;
export type BackupSnapshot = z.output<typeof BackupSnapshotResponse>;
export type BackupSnapshots = z.output<typeof BackupSnapshotsResponse>;
export type BackupKit = z.output<typeof BackupKitResponse>;
export type SnapshotPerson = z.output<typeof SnapshotPersonResponse>;
export type SnapshotPeople = z.output<typeof SnapshotPeopleResponse>;
export type SnapshotNode = z.output<typeof SnapshotNodeResponse>;
export type SnapshotNodes = z.output<typeof SnapshotNodesResponse>;
export type BackupKitState = z.output<typeof BackupKitStateResponse>;
export type RestoreSnapshots = z.output<typeof RestoreSnapshotsResponse>;
