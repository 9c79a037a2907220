import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { BackupDestination, BackupKit, BackupOverview, BackupRun, BackupSnapshots } from '../../contract/backup-responses.ts';
import { ArchiveKeyProblem, BackupArchive } from '../../store/backup-archive.ts';
import { BackupKeyFile, keyFileText, type BackupKey } from '../../store/backup-key.ts';
import type { BackupDestinationRow, BackupRunRow } from '../../store/backup.repo.ts';
import type { ContentStores } from '../../store/content-stores.ts';
import { nextDailyAt } from '../../jobs/schedule.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { checkReadableName } from '../common/readable-names.ts';
import { newId } from '../common/secrets.ts';
import { runBackup, runVerify, failureInWords, type RunCounts } from './backup-run.ts';
import { DEFAULT_RETENTION, type Retention } from './retention.ts';

export const DEFAULT_DAILY_AT = { hour: 3, minute: 0 };
/** A scheduled run that failed is tried again this much later (or at its usual time, if sooner). */
export const SCHEDULED_RETRY_MS = 60 * 60_000;
/** Progress on the WebSocket at most this often: a run over 100 000 small files must not flood the sockets. */
const PROGRESS_EVERY_MS = 500;

export interface DestinationInput {
  kind: 'folder';
  path: string;
  name?: string | undefined;
  /** Encrypt everything written there with the server's backup key (the emergency kit's). */
  encrypt?: boolean | undefined;
}

/** What the owner must keep: without it an encrypted backup cannot be restored. */
export const KIT_WARNING =
  'Without this key, an encrypted backup cannot be restored: not by you, not by Hearth, not by anyone. Print it or keep the file somewhere safe, away from this PC.';

export interface DestinationChangesInput {
  name?: string | undefined;
  schedule?: { daily_at: string } | null | undefined;
  retention?: Retention | undefined;
}

interface Current {
  run: BackupRunRow;
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
  private lastProgress = 0;
  private readonly keyFile: BackupKeyFile;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly serverId: string,
  ) {
    this.keyFile = new BackupKeyFile(deps.config.dataDir);
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
    const folder = this.checkedFolder(input.path);
    const name = input.name === undefined ? path.basename(folder) || folder : checkedName(input.name);
    const key = input.encrypt ? await this.keyFile.getOrCreate(this.deps.now()) : null;
    // Made now, while the drive is surely there: runs only ever use it (BackupArchive.open).
    const archive = await BackupArchive.open(folder, { create: true, encryptTo: key?.recipient ?? null, key }).catch((error: unknown) => {
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
      keep_daily: DEFAULT_RETENTION.daily,
      keep_weekly: DEFAULT_RETENTION.weekly,
      keep_monthly: DEFAULT_RETENTION.monthly,
      next_run_at: nextDailyAt(now, DEFAULT_DAILY_AT),
      created_at: now,
    });
    return this.toDto(this.row(id));
  }

  update(actor: Actor, id: string, input: DestinationChangesInput): BackupDestination {
    requireAdmin(actor);
    this.row(id);
    const changes: Parameters<ServiceDeps['store']['backup']['update']>[1] = {};
    if (input.name !== undefined) changes.name = checkedName(input.name);
    if (input.schedule !== undefined) {
      const at = input.schedule === null ? null : parseTime(input.schedule.daily_at);
      changes.daily_at = at === null ? null : at.hour * 60 + at.minute;
      changes.next_run_at = at === null ? null : nextDailyAt(this.deps.now(), at);
    }
    if (input.retention !== undefined) {
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
    const run = this.deps.store.backup.run(id);
    if (!run) throw new AppError('not_found');
    return this.runDto(run);
  }

  async snapshots(actor: Actor, id: string): Promise<BackupSnapshots> {
    requireAdmin(actor);
    const row = this.row(id);
    if (!fs.existsSync(row.path)) return { items: [] };
    try {
      const archive = await BackupArchive.open(row.path, { create: false, key: row.encrypted ? await this.keyFile.read() : null });
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

  private start(row: BackupDestinationRow, kind: 'backup' | 'verify'): Current {
    if (this.current) throw new AppError('backup_running');
    const run: BackupRunRow = {
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
      snapshot_id: null,
    };
    this.deps.store.backup.insertRun(run);
    const counts: RunCounts = { files: 0, bytes: 0, bytes_copied: 0, problems: [] };
    const abort = new AbortController();
    const current: Current = { run, counts, abort, done: Promise.resolve() };
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
    let snapshotId: string | null = null;
    try {
      if (run.kind === 'backup') {
        const result = await runBackup(
          {
            runId: run.id,
            archiveFolder: row.path,
            key: await this.keyFor(row),
            dataDir: this.deps.config.dataDir,
            serverId: this.serverId,
            serverVersion: this.deps.config.version,
            store: this.deps.store,
            content: this.content,
            retention: { daily: row.keep_daily, weekly: row.keep_weekly, monthly: row.keep_monthly },
            now: this.deps.now,
          },
          counts,
          abort.signal,
          onProgress,
        );
        snapshotId = result.snapshotId;
        this.deps.store.backup.setStoredBytes(row.id, result.storedBytes);
      } else {
        await runVerify(row.path, await this.keyFor(row), counts, abort.signal, onProgress);
        if (counts.problems.length > 0) {
          error =
            counts.problems.length === 1
              ? 'One file in the backup is damaged or missing.'
              : `${counts.problems.length} files in the backup are damaged or missing.`;
        }
      }
    } catch (caught) {
      error = abort.signal.aborted
        ? 'The server stopped before this run finished. The next run completes the backup.'
        : failureInWords(caught, row.path);
      if (!abort.signal.aborted && !(caught instanceof AppError))
        this.deps.log.warn('backup run failed', { kind: run.kind, destination: row.id, error: String(caught) });
    }
    const finished: BackupRunRow = {
      ...run,
      state: error === null ? 'succeeded' : 'failed',
      finished_at: this.deps.now(),
      files: counts.files,
      bytes: counts.bytes,
      bytes_copied: counts.bytes_copied,
      problems: JSON.stringify(counts.problems.slice(0, 1000)),
      error,
      snapshot_id: snapshotId,
    };
    try {
      this.deps.store.backup.finishRun(finished);
    } catch (caught) {
      this.deps.log.error('could not record the end of a backup run', { error: String(caught) });
    }
    current.run = finished;
    this.publish(finished);
  }

  /** The key an encrypted destination's runs need; a server that lost its key file fails the run in words. */
  private async keyFor(row: BackupDestinationRow): Promise<BackupKey | null> {
    if (!row.encrypted) return null;
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

  private publish(run: BackupRunRow): void {
    this.deps.bus.publish('backup.progress', { run: this.runDto(run) }, { users: this.deps.store.users.activeAdminIds() });
  }

  private runDto(row: BackupRunRow): BackupRun {
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
      snapshot_id: row.snapshot_id,
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
      encrypted: row.encrypted === 1,
      schedule: row.daily_at === null ? null : { daily_at: `${pad(Math.floor(row.daily_at / 60))}:${pad(row.daily_at % 60)}` },
      retention: { daily: row.keep_daily, weekly: row.keep_weekly, monthly: row.keep_monthly },
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

  /**
   * An existing folder the server can write to, given as a full path, outside the data folder and
   * every library (a backup beside what it backs up is lost with it), and not already a destination.
   */
  private checkedFolder(input: string): string {
    const refuse = (message: string): never => {
      throw new AppError('invalid_destination', message, { field: 'path' });
    };
    if (!path.isAbsolute(input)) refuse('Give the full path of a folder, such as /media/usb-disk/backups.');
    let folder = '';
    try {
      folder = fs.realpathSync(input);
    } catch {
      refuse('That folder does not exist. Is its drive connected?');
    }
    if (!fs.statSync(folder).isDirectory()) refuse('That is a file, not a folder.');
    const real = (p: string) => {
      try {
        return fs.realpathSync(p);
      } catch {
        return path.resolve(p);
      }
    };
    if (isInside(folder, real(this.deps.config.dataDir)))
      refuse('That folder is inside the Hearth data folder: a backup there is lost with the data. Choose a folder on another drive.');
    for (const library of this.deps.store.libraries.all()) {
      if (isInside(folder, real(library.path)))
        refuse(`That folder is inside the storage place "${library.name}": choose a folder outside it, on another drive.`);
    }
    if (this.deps.store.backup.byPath(folder)) refuse('That folder is already a backup destination.');
    const probe = path.join(folder, `.hearth-write-check-${newId()}`);
    try {
      fs.writeFileSync(probe, '');
      fs.rmSync(probe);
    } catch {
      fs.rmSync(probe, { force: true });
      refuse('Hearth cannot write to that folder. Check its permissions, or that the drive is not read-only.');
    }
    return folder;
  }
}

function checkedName(input: string): string {
  const name = input.trim();
  if (name === '' || [...name].length > 64)
    throw new AppError('invalid_input', 'A destination name is 1 to 64 characters.', { field: 'name' });
  checkReadableName(name, 'name');
  return name;
}

function parseTime(text: string): { hour: number; minute: number } {
  const [hour, minute] = text.split(':').map(Number) as [number, number];
  return { hour, minute };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function isInside(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent.endsWith(path.sep) ? parent : `${parent}${path.sep}`);
}
