import { setMaxListeners } from 'node:events';
import fs from 'node:fs';
import { AppError } from '../../app-error.ts';
import type { ErrorCode } from '../../contract/error-codes.ts';
import type { BackupDestination, BackupKit, BackupOverview, BackupRun, BackupSnapshots } from '../../contract/backup-responses.ts';
import { BackupArchive, type ArchiveStorage } from '../../store/archives/backup-archive.ts';
import { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';
import { BackupKeyFile, keyFileText, type BackupKey } from '../../store/data-dir/backup-key.ts';
import type { BackupDestinationRow } from '../../store/database/backup.repo.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { nextDailyAt } from '../common/daily-time.ts';
import { FamilyFirst } from '../common/family-first.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { BackupDestinations, type DestinationChangesInput, type DestinationInput } from './backup-destinations.ts';
import { destinationDto, runDto, type LiveRun } from './backup-dtos.ts';
import { newCounts, runBackup, runVerify, failureCode, failureInWords, type RunCounts } from './backup-run.ts';
import { storageOfDestination } from './destination-archive.ts';
import { retentionOf } from './destination-rules.ts';

/** A scheduled run that failed is tried again this much later (or at its usual time, if sooner). */
export const SCHEDULED_RETRY_MS = 60 * 60_000;
/** Progress on the WebSocket at most this often: a run over 100 000 small files must not flood the sockets. */
const PROGRESS_EVERY_MS = 500;

/** What the owner must keep: without it an encrypted backup cannot be restored. */
export const KIT_WARNING =
  'Without this key, an encrypted backup cannot be restored: not by you, not by Hearth, not by anyone. A plain backup is signed with it: a new Hearth needs it to restore one with its links and two-step sign-in. Print it or keep the file somewhere safe, away from this PC.';

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
  private readonly destinations: BackupDestinations;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly serverId: string,
    /** A run takes its turn behind the family's requests. */
    private readonly familyFirst: FamilyFirst = new FamilyFirst(),
  ) {
    this.keyFile = new BackupKeyFile(deps.config.dataDir);
    this.secrets = new BackupSecrets(deps.config.dataDir);
    this.destinations = new BackupDestinations(deps, this.keyFile, this.secrets);
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
    return this.toDto(this.row(await this.destinations.add(input)));
  }

  async update(actor: Actor, id: string, input: DestinationChangesInput): Promise<BackupDestination> {
    requireAdmin(actor);
    const row = this.row(id);
    await this.destinations.update(row, input);
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
    // Unplugged: the console says so, not "no snapshots", which would read as nothing backed up.
    if (row.kind === 'folder' && !fs.existsSync(row.path)) return { items: [], reachable: false };
    try {
      const archive = await BackupArchive.open(this.storageOf(row), { create: false, key: await this.keyFile.read() });
      return { items: (await archive.snapshots()).reverse(), reachable: true };
    } catch {
      // Unreadable: the destination's last run says why in words.
      return { items: [], reachable: false };
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
    const counts = newCounts(this.deps.now);
    const abort = new AbortController();
    // Each file under way listens for the stop (its read, its write, its upload): a bucket's eight at once pass Node's warning at ten.
    setMaxListeners(64, abort.signal);
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
            ...(row.kind === 's3' && { filesAtOnce: this.deps.config.backupBucketFilesAtOnce }),
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
    this.publish(current.run);
  }

  private publish(run: LiveRun): void {
    this.deps.bus.publish('backup.progress', { run: this.runDto(run) }, { users: this.deps.store.users.activeAdminIds() });
  }

  private runDto(row: LiveRun): BackupRun {
    return runDto(row, this.current?.run.id === row.id && row.state === 'running' ? this.current.counts : null);
  }

  private toDto(row: BackupDestinationRow): BackupDestination {
    return destinationDto(this.deps.store.backup, row, (run) => this.runDto(this.current?.run.id === run.id ? this.current.run : run));
  }

  private row(id: string): BackupDestinationRow {
    const row = this.deps.store.backup.byId(id);
    if (!row) throw new AppError('not_found');
    return row;
  }
}
