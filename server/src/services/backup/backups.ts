import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { ErrorCode } from '../../contract/error-codes.ts';
import type { BackupDestination, BackupKit, BackupOverview, BackupRun, BackupSnapshots } from '../../contract/backup-responses.ts';
import { ArchiveKeyProblem, ArchiveUnreachable, BackupArchive, type ArchiveStorage } from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';
import { S3Storage } from '../../store/archives/s3-storage.ts';
import { BackupKeyFile, keyFileText, type BackupKey } from '../../store/data-dir/backup-key.ts';
import type { BackupDestinationRow, BackupRunRow } from '../../store/database/backup.repo.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { nextDailyAt } from '../../jobs/schedule.ts';
import { FamilyFirst } from '../common/family-first.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { runBackup, runVerify, failureCode, failureInWords, type RunCounts } from './backup-run.ts';
import { DEFAULT_RETENTION, type Retention } from './retention.ts';
import { checkedS3Place, s3Address, type S3Input } from './s3-destination.ts';
import { storageOfDestination } from './destination-archive.ts';
import { checkedFolder, checkedName, NOT_S3, pad, parseTime, retentionOf } from './destination-rules.ts';

export const DEFAULT_DAILY_AT = { hour: 3, minute: 0 };
/** A scheduled run that failed is tried again this much later (or at its usual time, if sooner). */
export const SCHEDULED_RETRY_MS = 60 * 60_000;
/** Progress on the WebSocket at most this often: a run over 100 000 small files must not flood the sockets. */
const PROGRESS_EVERY_MS = 500;

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

/** What the owner must keep: without it an encrypted backup cannot be restored. */
export const KIT_WARNING =
  'Without this key, an encrypted backup cannot be restored: not by you, not by Hearth, not by anyone. A plain backup is signed with it: a new Hearth needs it to restore one with its links and two-step sign-in. Print it or keep the file somewhere safe, away from this PC.';

export interface DestinationChangesInput {
  name?: string | undefined;
  schedule?: { daily_at: string } | null | undefined;
  /** `last` omitted: unchanged (a client that knows only days, weeks and months). */
  retention?: (Omit<Retention, 'last'> & { last?: number | undefined }) | undefined;
  /** An s3 destination's keys, typed again (changed, or after a restore from elsewhere). */
  access_key_id?: string | undefined;
  secret_access_key?: string | undefined;
}

/** A run as the service holds it: a restore of one item is never stored in backup_runs (kept in memory, see restoreRuns). */
type LiveRun = Omit<BackupRunRow, 'kind'> & { kind: BackupRun['kind']; restored?: BackupRun['restored'] };

/** The work of a restore of one file or folder (restore-item.ts), run under the one-run-at-a-time rule. */
export type RestoreWork = (counts: RunCounts, signal: AbortSignal, onProgress: () => void) => Promise<NonNullable<BackupRun['restored']>>;

interface Current {
  run: LiveRun;
  restore?: RestoreWork;
  counts: RunCounts;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Backups of the whole server (database, keys.json, every content file) to folders, one run at a
 * time, while the server keeps serving. A run is recorded when it starts and when it ends; one a
 * crash cut short is marked failed at the next start, and the next run completes the backup.
 */
export class BackupService {
  private current: Current | null = null;
  /**
   * Restore runs of this process, newest last: the console follows them by id. Not in the
   * database: a restore cut by a stop leaves nothing visible (restore-item.ts), and there is
   * nothing for a later start to report but that the file did not come back.
   */
  private readonly restoreRuns = new Map<string, LiveRun>();
  private lastProgress = 0;
  private readonly keyFile: BackupKeyFile;
  private readonly secrets: BackupSecrets;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly serverId: string,
    /** A run takes its turn behind the family's requests. */
    private readonly familyFirst: FamilyFirst = new FamilyFirst(),
  ) {
    this.keyFile = new BackupKeyFile(deps.config.dataDir);
    this.secrets = new BackupSecrets(deps.config.dataDir);
    try {
      deps.store.backup.failInterrupted(deps.now(), 'The server stopped before this run finished. The next run completes the backup.');
    } catch (error) {
      // A full disk at start: the run keeps saying "running" until the next start that can write.
      deps.log.warn('could not mark interrupted backup runs', { error: String(error) });
    }
  }

  /** Without `health` and `kit`: BackupHealthService and EmergencyKitService decide those (the route adds them). */
  overview(actor: Actor): Omit<BackupOverview, 'health' | 'kit'> {
    requireAdmin(actor);
    return {
      destinations: this.deps.store.backup.all().map((row) => this.toDto(row)),
      running: this.current ? this.runDto(this.current.run) : null,
    };
  }

  async add(actor: Actor, input: DestinationInput): Promise<BackupDestination> {
    requireAdmin(actor);
    if (input.kind === 's3') return this.addS3(actor, input);
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
    return this.toDto(this.row(id));
  }

  /**
   * An off-site destination: always encrypted with the server's backup key, so the bucket's
   * owner sees neither file names nor content. Checked now (the endpoint answers, the keys are
   * right, the bucket is there, Hearth may write and delete in it), each failure in the bucket's
   * words with the field it points at.
   */
  private async addS3(_actor: Actor, input: S3Input & { name?: string | undefined }): Promise<BackupDestination> {
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
    return this.toDto(this.row(id));
  }

  async update(actor: Actor, id: string, input: DestinationChangesInput): Promise<BackupDestination> {
    requireAdmin(actor);
    const row = this.row(id);
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
    this.deps.store.backup.update(id, changes);
    return this.toDto(this.row(id));
  }

  /** Forgets a destination. The backup on it stays where it is: it is the family's, to restore from or delete. */
  remove(actor: Actor, id: string): void {
    requireAdmin(actor);
    this.row(id);
    if (this.current?.run.destination_id === id) throw new AppError('backup_running');
    this.deps.store.backup.remove(id);
    this.secrets.remove(id);
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

  startBackup(actor: Actor, id: string): BackupRun {
    requireAdmin(actor);
    return this.runDto(this.start(this.row(id), 'backup').run);
  }

  startVerify(actor: Actor, id: string): BackupRun {
    requireAdmin(actor);
    return this.runDto(this.start(this.row(id), 'verify').run);
  }

  run(actor: Actor, id: string): BackupRun {
    requireAdmin(actor);
    if (this.current?.run.id === id) return this.runDto(this.current.run);
    const run = this.restoreRuns.get(id) ?? this.deps.store.backup.run(id);
    if (!run) throw new AppError('not_found');
    return this.runDto(run);
  }

  /** Whether a run (backup, verify or restore) is under way: a second one is refused with backup_running. */
  get busy(): boolean {
    return this.current !== null;
  }

  /** Starts a restore of one file or folder from `snapshotId` (restore-item.ts checked it may): one run at a time, as backups. */
  startRestore(row: BackupDestinationRow, snapshotId: string, work: RestoreWork): BackupRun {
    const current = this.start(row, 'restore', work, snapshotId);
    return this.runDto(current.run);
  }

  async snapshots(actor: Actor, id: string): Promise<BackupSnapshots> {
    requireAdmin(actor);
    const row = this.row(id);
    if (row.kind === 'folder' && !fs.existsSync(row.path)) return { items: [] };
    try {
      const archive = await BackupArchive.open(this.storageOf(row), { create: false, key: await this.keyFile.read() });
      return { items: (await archive.snapshots()).reverse() };
    } catch {
      // Unplugged or unreadable: the destination's last run says why in words.
      return { items: [] };
    }
  }

  /**
   * The emergency kit: the backup key (made now if this server has none yet), as a file age reads
   * and as the text a printed page shows beside its QR code.
   */
  async kit(actor: Actor): Promise<BackupKit> {
    requireAdmin(actor);
    const key = await this.keyFile.getOrCreate(this.deps.now());
    const name = this.deps.store.settings.get<string>('server_name') ?? 'Hearth';
    return {
      key: key.identity,
      public_key: key.recipient,
      created_at: key.created_at,
      warning: KIT_WARNING,
      file_name: `hearth-emergency-kit-${new Date(key.created_at).toISOString().slice(0, 10)}.txt`,
      file_text: keyFileText(key, [
        `Hearth emergency kit (${name})`,
        KIT_WARNING,
        'To restore: on a new Hearth, choose "Restore from a backup" and give this file.',
        'By hand: age -d -i this-file <file of the backup> > <file> (docs/backup-format.md).',
      ]),
    };
  }

  /** The scheduler's turn (jobs/backup.ts): every destination whose time has come, one after the other. */
  async runDue(signal: AbortSignal): Promise<void> {
    for (const row of this.deps.store.backup.all()) {
      if (signal.aborted) return;
      if (row.next_run_at === null || row.next_run_at > this.deps.now()) continue;
      // A run asked for by hand is under way: this one waits for the next turn.
      if (this.current) return;
      const started = this.start(row, 'backup');
      const stop = () => started.abort.abort();
      signal.addEventListener('abort', stop, { once: true });
      await started.done;
      signal.removeEventListener('abort', stop);
      const ended = this.deps.store.backup.run(started.run.id);
      if (signal.aborted) return;
      const schedule = { hour: Math.floor((row.daily_at ?? 0) / 60), minute: (row.daily_at ?? 0) % 60 };
      const now = this.deps.now();
      const next = row.daily_at === null ? null : nextDailyAt(now, schedule);
      this.deps.store.backup.update(row.id, {
        next_run_at: next === null || ended?.state === 'succeeded' ? next : Math.min(next, now + SCHEDULED_RETRY_MS),
      });
    }
  }

  /** The server is stopping: a run under way is asked to stop and waited for (it writes to the database). */
  async stop(): Promise<void> {
    const current = this.current;
    if (!current) return;
    current.abort.abort();
    await current.done;
  }

  private start(row: BackupDestinationRow, kind: LiveRun['kind'], restore?: RestoreWork, snapshotId: string | null = null): Current {
    if (this.current) throw new AppError('backup_running');
    const run: LiveRun = {
      id: newId(),
      destination_id: row.id,
      kind,
      state: 'running',
      started_at: this.deps.now(),
      finished_at: null,
      files: 0,
      bytes: 0,
      bytes_copied: 0,
      problems: '[]',
      error: null,
      error_code: null,
      snapshot_id: snapshotId,
    };
    if (run.kind === 'restore') {
      this.restoreRuns.set(run.id, run);
      // The console needs only the last few; a long-running server keeps no more.
      for (const old of [...this.restoreRuns.keys()].slice(0, -20)) this.restoreRuns.delete(old);
    } else this.deps.store.backup.insertRun({ ...run, kind: run.kind });
    const counts: RunCounts = { files: 0, bytes: 0, bytes_copied: 0, problems: [] };
    const abort = new AbortController();
    const current: Current = { run, counts, abort, done: Promise.resolve(), ...(restore && { restore }) };
    this.current = current;
    current.done = this.execute(current, row).finally(() => {
      this.current = null;
    });
    return current;
  }

  private async execute(current: Current, row: BackupDestinationRow): Promise<void> {
    const { run, counts, abort } = current;
    const onProgress = () => this.progress(current);
    let error: string | null = null;
    let errorCode: ErrorCode | null = null;
    let snapshotId: string | null = run.snapshot_id;
    let restored: LiveRun['restored'];
    try {
      if (current.restore) {
        restored = await current.restore(counts, abort.signal, onProgress);
      } else if (run.kind === 'backup') {
        const result = await runBackup(
          {
            runId: run.id,
            archiveFolder: this.storageOf(row),
            key: await this.keyFor(row),
            encrypted: row.encrypted === 1,
            dataDir: this.deps.config.dataDir,
            serverId: this.serverId,
            serverVersion: this.deps.config.version,
            store: this.deps.store,
            content: this.content,
            retention: retentionOf(row),
            now: this.deps.now,
            pace: (signal) => this.familyFirst.turn(signal),
          },
          counts,
          abort.signal,
          onProgress,
        );
        snapshotId = result.snapshotId;
        this.deps.store.backup.setStoredBytes(row.id, result.storedBytes);
      } else {
        await runVerify(this.storageOf(row), await this.keyFor(row), counts, abort.signal, onProgress, (signal) =>
          this.familyFirst.turn(signal),
        );
        // A problem without a path is about the backup as a whole: a snapshot this server did not sign.
        const files = counts.problems.filter((p) => p.path !== '').length;
        if (files > 0) {
          errorCode = 'backup_damaged';
          error = files === 1 ? 'One file in the backup is damaged or missing.' : `${files} files in the backup are damaged or missing.`;
        } else if (counts.problems.length > 0) {
          errorCode = 'snapshot_unproved';
          error = counts.problems[0]!.reason;
        }
      }
    } catch (caught) {
      error = abort.signal.aborted
        ? current.restore
          ? 'The server stopped before the restore finished. Nothing was restored.'
          : 'The server stopped before this run finished. The next run completes the backup.'
        : failureInWords(caught, row.path);
      errorCode = abort.signal.aborted ? 'unavailable' : failureCode(caught);
      if (!abort.signal.aborted && !(caught instanceof AppError))
        this.deps.log.warn('backup run failed', { kind: run.kind, destination: row.id, error: String(caught) });
    }
    const finished: LiveRun = {
      ...run,
      state: error === null ? 'succeeded' : 'failed',
      finished_at: this.deps.now(),
      files: counts.files,
      bytes: counts.bytes,
      bytes_copied: counts.bytes_copied,
      problems: JSON.stringify(counts.problems.slice(0, 1000)),
      error,
      error_code: errorCode,
      snapshot_id: snapshotId,
      ...(restored && error === null && { restored }),
    };
    try {
      if (finished.kind === 'restore') this.restoreRuns.set(finished.id, finished);
      else this.deps.store.backup.finishRun(finished);
    } catch (caught) {
      this.deps.log.error('could not record the end of a backup run', { error: String(caught) });
    }
    current.run = finished;
    this.publish(finished);
  }

  private storageOf(row: BackupDestinationRow): string | ArchiveStorage {
    return storageOfDestination(row, this.secrets);
  }

  /**
   * The backup key a destination's runs sign with (and encrypt with, when encrypted). A plain
   * destination makes it if this server has none yet (its snapshots are signed too, and their
   * keys.json sealed to it: the kit restores them); an encrypted one whose key file was lost fails the run in words.
   */
  private async keyFor(row: BackupDestinationRow): Promise<BackupKey> {
    if (!row.encrypted) return this.keyFile.getOrCreate(this.deps.now());
    const key = await this.keyFile.read();
    if (!key)
      throw new AppError(
        'internal',
        'This server has lost its backup key (backup-key.txt in the data folder): an encrypted backup cannot be written or checked without it.',
      );
    return key;
  }

  private progress(current: Current): void {
    const now = this.deps.now();
    if (now - this.lastProgress < PROGRESS_EVERY_MS) return;
    this.lastProgress = now;
    this.publish({ ...current.run, files: current.counts.files, bytes: current.counts.bytes, bytes_copied: current.counts.bytes_copied });
  }

  private publish(run: LiveRun): void {
    this.deps.bus.publish('backup.progress', { run: this.runDto(run) }, { users: this.deps.store.users.activeAdminIds() });
  }

  private runDto(row: LiveRun): BackupRun {
    const live = this.current?.run.id === row.id && row.state === 'running' ? this.current.counts : null;
    return {
      id: row.id,
      destination_id: row.destination_id,
      kind: row.kind,
      state: row.state,
      started_at: row.started_at,
      finished_at: row.finished_at,
      files: live?.files ?? row.files,
      bytes: live?.bytes ?? row.bytes,
      bytes_copied: live?.bytes_copied ?? row.bytes_copied,
      problems: live ? live.problems.slice(0, 1000) : (JSON.parse(row.problems) as BackupRun['problems']),
      ...(row.error !== null && { error: row.error }),
      ...(row.error_code !== null && { error_code: row.error_code }),
      snapshot_id: row.snapshot_id,
      ...(row.restored && { restored: row.restored }),
    };
  }

  private toDto(row: BackupDestinationRow): BackupDestination {
    const { backup } = this.deps.store;
    const last = backup.lastRun(row.id);
    const verify = backup.lastVerify(row.id);
    return {
      id: row.id,
      kind: row.kind,
      name: row.name,
      path: row.path,
      s3:
        row.kind === 's3'
          ? {
              endpoint: row.endpoint!,
              region: row.region!,
              bucket: row.bucket!,
              prefix: row.prefix ?? '',
              access_key_id: row.access_key_id!,
            }
          : null,
      encrypted: row.encrypted === 1,
      schedule: row.daily_at === null ? null : { daily_at: `${pad(Math.floor(row.daily_at / 60))}:${pad(row.daily_at % 60)}` },
      retention: retentionOf(row),
      last_run: last ? this.runDto(this.current?.run.id === last.id ? this.current.run : last) : null,
      last_success_at: backup.lastSuccess(row.id)?.finished_at ?? null,
      last_verify: verify ? this.runDto(this.current?.run.id === verify.id ? this.current.run : verify) : null,
      next_run_at: row.next_run_at,
      stored_bytes: row.stored_bytes,
    };
  }

  private row(id: string): BackupDestinationRow {
    const row = this.deps.store.backup.byId(id);
    if (!row) throw new AppError('not_found');
    return row;
  }
}
