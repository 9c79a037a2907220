import path from 'node:path';
import { AppError } from '../../app-error.ts';
import { ArchiveKeyProblem, ArchiveUnreachable, BackupArchive } from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import type { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';
import { S3Storage } from '../../store/archives/s3-storage.ts';
import type { BackupKeyFile } from '../../store/data-dir/backup-key.ts';
import type { BackupDestinationRow } from '../../store/database/backup.repo.ts';
import { nextDailyAt } from '../common/daily-time.ts';
import type { ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { DEFAULT_RETENTION, type Retention } from './retention.ts';
import { checkedS3Place, s3Address, type S3Input } from './s3-destination.ts';
import { checkedFolder, checkedName, NOT_S3, parseTime } from './destination-rules.ts';

export const DEFAULT_DAILY_AT = { hour: 3, minute: 0 };

export type DestinationInput =
  | {
      kind: 'folder';
      path: string;
      name?: string | undefined;
      /**
       * Encrypt everything written there with the server's backup key (the emergency kit's).
       * Omitted: encrypted. A disk that leaves the house must not hand anyone the family's files.
       */
      encrypt?: boolean | undefined;
    }
  | (S3Input & { name?: string | undefined });

export interface DestinationChangesInput {
  name?: string | undefined;
  schedule?: { daily_at: string } | null | undefined;
  /** `last` omitted: unchanged (a client that knows only days, weeks and months). */
  retention?: (Omit<Retention, 'last'> & { last?: number | undefined }) | undefined;
  /** An s3 destination's keys, typed again (changed, or after a restore from elsewhere). */
  access_key_id?: string | undefined;
  secret_access_key?: string | undefined;
}

/**
 * Where backups go, as the owner adds and changes them: each destination checked against the
 * archive it names (reachable, writable, encrypted as asked) before its row is written.
 */
export class BackupDestinations {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly keyFile: BackupKeyFile,
    private readonly secrets: BackupSecrets,
  ) {}

  /** Adds a destination once checked; its id. */
  async add(input: DestinationInput): Promise<string> {
    if (input.kind === 's3') return this.addS3(input);
    const folder = checkedFolder(this.deps, input.path);
    const name = input.name === undefined ? path.basename(folder) || folder : checkedName(input.name);
    const key = (input.encrypt ?? true) ? await this.keyFile.getOrCreate(this.deps.now()) : null;
    // Made now, while the drive is surely there: runs only ever use it (BackupArchive.open).
    const archive = await BackupArchive.open(folder, { create: true, encryptTo: key?.recipient ?? null, key }).catch((error: unknown) => {
      if (error instanceof ArchiveUnsafe) throw new AppError('destination_unsafe', error.words, { field: 'path' });
      throw new AppError(
        'invalid_destination',
        error instanceof ArchiveKeyProblem
          ? 'That folder holds a backup encrypted with another key. Choose another folder.'
          : 'Hearth cannot write to that folder. Check its permissions, or that the drive is not read-only.',
        { field: 'path' },
      );
    });
    if (archive.encrypted !== (key !== null))
      throw new AppError(
        'invalid_destination',
        archive.encrypted
          ? 'That folder holds an encrypted backup: add it with encryption on, or choose another folder.'
          : 'That folder holds a backup that is not encrypted: add it with encryption off, or choose another folder.',
        { field: 'path' },
      );
    const now = this.deps.now();
    const id = newId();
    this.deps.store.backup.insert({
      id,
      kind: 'folder',
      name,
      path: folder,
      encrypted: key ? 1 : 0,
      daily_at: DEFAULT_DAILY_AT.hour * 60 + DEFAULT_DAILY_AT.minute,
      keep_last: DEFAULT_RETENTION.last,
      keep_daily: DEFAULT_RETENTION.daily,
      keep_weekly: DEFAULT_RETENTION.weekly,
      keep_monthly: DEFAULT_RETENTION.monthly,
      next_run_at: nextDailyAt(now, DEFAULT_DAILY_AT),
      created_at: now,
      ...NOT_S3,
    });
    return id;
  }

  /**
   * An off-site destination: always encrypted with the server's backup key, so the bucket's
   * owner sees neither file names nor content. Checked now (the endpoint answers, the keys are
   * right, the bucket is there, Hearth may write and delete in it), each failure in the bucket's
   * words with the field it points at.
   */
  private async addS3(input: S3Input & { name?: string | undefined }): Promise<string> {
    const place = checkedS3Place(input);
    const address = s3Address(place);
    const name = input.name === undefined ? `${place.bucket}${place.prefix ? `/${place.prefix}` : ''}` : checkedName(input.name);
    if (this.deps.store.backup.byPath(address))
      throw new AppError('invalid_destination', 'That bucket and prefix are already a backup destination.', { field: 'prefix' });
    const key = await this.keyFile.getOrCreate(this.deps.now());
    const archive = await BackupArchive.open(new S3Storage(place), { create: true, encryptTo: key.recipient, key }).catch(
      (error: unknown) => {
        if (error instanceof ArchiveKeyProblem)
          throw new AppError(
            'invalid_destination',
            'That place in the bucket holds a backup encrypted with another key. Give another prefix.',
            {
              field: 'prefix',
            },
          );
        if (error instanceof ArchiveUnreachable && error.words)
          throw new AppError('invalid_destination', error.words, { field: error.field ?? 'endpoint' });
        throw error;
      },
    );
    if (!archive.encrypted)
      throw new AppError('invalid_destination', 'That place in the bucket holds a backup that is not encrypted. Give another prefix.', {
        field: 'prefix',
      });
    const now = this.deps.now();
    const id = newId();
    // The secret first: a destination row never exists without it.
    this.secrets.set(id, place.secret_access_key);
    this.deps.store.backup.insert({
      id,
      kind: 's3',
      name,
      path: address,
      encrypted: 1,
      daily_at: DEFAULT_DAILY_AT.hour * 60 + DEFAULT_DAILY_AT.minute,
      keep_last: DEFAULT_RETENTION.last,
      keep_daily: DEFAULT_RETENTION.daily,
      keep_weekly: DEFAULT_RETENTION.weekly,
      keep_monthly: DEFAULT_RETENTION.monthly,
      next_run_at: nextDailyAt(now, DEFAULT_DAILY_AT),
      created_at: now,
      endpoint: place.endpoint,
      region: place.region,
      bucket: place.bucket,
      prefix: place.prefix,
      access_key_id: place.access_key_id,
    });
    return id;
  }

  async update(row: BackupDestinationRow, input: DestinationChangesInput): Promise<void> {
    if (input.access_key_id !== undefined || input.secret_access_key !== undefined) await this.replaceKeys(row, input);
    const changes: Parameters<ServiceDeps['store']['backup']['update']>[1] = {};
    if (input.name !== undefined) changes.name = checkedName(input.name);
    if (input.schedule !== undefined) {
      const at = input.schedule === null ? null : parseTime(input.schedule.daily_at);
      changes.daily_at = at === null ? null : at.hour * 60 + at.minute;
      changes.next_run_at = at === null ? null : nextDailyAt(this.deps.now(), at);
    }
    if (input.retention !== undefined) {
      if (input.retention.last !== undefined) changes.keep_last = input.retention.last;
      changes.keep_daily = input.retention.daily;
      changes.keep_weekly = input.retention.weekly;
      changes.keep_monthly = input.retention.monthly;
    }
    this.deps.store.backup.update(row.id, changes);
  }

  /** New keys for a bucket: checked against the backup already there before they replace the old ones. */
  private async replaceKeys(row: BackupDestinationRow, input: DestinationChangesInput): Promise<void> {
    if (row.kind !== 's3') throw new AppError('invalid_input', 'Only an off-site destination has keys.', { field: 'access_key_id' });
    const place = checkedS3Place({
      kind: 's3',
      endpoint: row.endpoint!,
      region: row.region ?? undefined,
      bucket: row.bucket!,
      prefix: row.prefix ?? undefined,
      access_key_id: input.access_key_id ?? row.access_key_id!,
      secret_access_key: input.secret_access_key ?? this.secrets.get(row.id) ?? '',
    });
    try {
      await BackupArchive.open(new S3Storage(place), { create: true, key: await this.keyFile.read() });
    } catch (error) {
      if (error instanceof ArchiveUnreachable && error.words)
        throw new AppError('invalid_destination', error.words, { field: error.field ?? 'endpoint' });
      if (error instanceof ArchiveKeyProblem)
        throw new AppError('invalid_destination', "The backup in that bucket is not encrypted with this server's backup key.", {
          field: 'access_key_id',
        });
      throw error;
    }
    this.secrets.set(row.id, place.secret_access_key);
    this.deps.store.backup.update(row.id, { access_key_id: place.access_key_id });
  }
}
