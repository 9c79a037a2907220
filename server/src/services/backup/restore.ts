import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { BackupRun, RestoreSnapshots } from '../../contract/backup-responses.ts';
import {
  ArchiveFileDamaged,
  ArchiveKeyProblem,
  ArchiveUnreachable,
  BackupArchive,
  DATABASE_COPY,
  KEYS_COPY,
  snapshotFile,
  type Manifest,
  type ManifestFile,
  type SnapshotSummary,
} from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import { contentCopiers } from '../../store/archives/content-copiers.ts';
import { eachAtOnce, FILES_AT_ONCE } from './each-at-once.ts';
import { TimeLeft } from './time-left.ts';
import { BackupKeyFile, parseKey, type BackupKey } from '../../store/data-dir/backup-key.ts';
import { S3Storage, type S3Place } from '../../store/archives/s3-storage.ts';
import { INTERNAL_LIBRARY_ID } from '../../store/content/content-stores.ts';
import { syncFolder, writeFileDurably } from '../../store/common/durable-file.ts';
import { writeMarker } from '../../store/content/library-marker.ts';
import { discardRestore, markRestoreReady, restoreStaging } from '../../store/data-dir/restore-swap.ts';
import type { ClientInfo, ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import type { SetupGate } from '../identity/setup-gate.ts';
import { checkedS3Place, type S3Input } from './s3-destination.ts';
import { ForeignRows, keepBucketKeys, settleDatabase } from './restored-database.ts';
import { contentOwner } from './snapshot-files.ts';

/**
 * The process that started the server (the desktop app's window, through its bridge): it proved
 * itself by starting the server, as for setupOwner. No HTTP request can be this caller.
 */
export const HOSTING_PROCESS = 'hosting-process' as const;
type Caller = ClientInfo | typeof HOSTING_PROCESS;

export type RestoreSource = ({ kind: 'folder'; path: string } | S3Input) & {
  key?: string | undefined;
  setup_code?: string | undefined;
};

/** Which snapshot to restore; one from before signatures only when the owner accepts it (`accept_unsigned`). */
export type RestoreChoice = RestoreSource & { snapshot_id?: string | undefined; accept_unsigned?: boolean | undefined };

/**
 * A whole server back from a backup, on a fresh install only (no account yet), asked by the same
 * people who may run first-run setup (SetupGate: this PC, or the setup code from the network).
 * Everything is checked before the answer (the folder, the key, the snapshot): a wrong key is a
 * clear error and nothing is touched. Then the snapshot is copied (decrypted) into a staging
 * folder and every file proved against its SHA-256; only when complete does the server stop and
 * swap it in (store/data-dir/restore-swap.ts), then start again on the restored data.
 *
 * Content of every library goes into the internal library (the data folder): the drives of the
 * old PC are not here, and a restored server must work on another PC with other disks. The
 * owner can move files to a drive afterwards.
 */
export class RestoreService {
  /** `unprovenError`: the run's failure said without the backup folder's path, for callers who proved nothing. */
  private current: { run: BackupRun; abort: AbortController; timeLeft: TimeLeft; unprovenError?: string } | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly gate: SetupGate,
    /** Stops this server and starts it again on the restored data (index.ts). */
    private readonly restart: () => void,
  ) {}

  get restoring(): boolean {
    return this.current?.run.state === 'running' || this.gate.heldForRestore;
  }

  /** The snapshots a restore may use, newest first: those the kit signed, and those from before signatures (`signed: false`). */
  async snapshots(input: RestoreSource, client: Caller): Promise<RestoreSnapshots> {
    await this.admit(input, client);
    const { archive, usable } = await this.open(input);
    return { encrypted: archive.encrypted, items: usable.reverse() };
  }

  async start(input: RestoreChoice, client: Caller): Promise<BackupRun> {
    await this.admit(input, client);
    if (this.restoring) throw new AppError('restore_running');
    // A folder's files are copied on threads: started now, they are ready by the first file (a bucket's are copied here).
    if (input.kind === 'folder') contentCopiers.warm();
    const { archive, key, place, usable } = await this.open(input);
    // Without a choice: the newest snapshot the kit signed (an unsigned one could be planted to look newest).
    const chosen =
      input.snapshot_id === undefined
        ? (usable.filter((s) => s.signed).at(-1) ?? usable.at(-1))
        : usable.find((s) => s.id === input.snapshot_id);
    if (!chosen) throw new AppError('snapshot_not_found', undefined, { field: 'snapshot_id' });
    if (!chosen.signed && input.accept_unsigned !== true) throw new AppError('backup_unsigned', undefined, { field: 'accept_unsigned' });
    const manifest = (await archive.manifest(chosen.id, { unsigned: 'accept' }))!;
    if (this.deps.store.users.count() > 0) throw new AppError('already_set_up');
    this.gate.holdForRestore();
    const run: BackupRun = {
      id: newId(),
      destination_id: null,
      kind: 'restore',
      state: 'running',
      started_at: this.deps.now(),
      finished_at: null,
      files: 0,
      bytes: 0,
      bytes_copied: 0,
      // Every file of the snapshot is read; all but keys.json (opened apart) are copied into the new data folder.
      files_total: manifest.files.length,
      bytes_total: manifest.files.reduce((sum, file) => sum + file.size, 0),
      bytes_to_copy: manifest.files.reduce(
        (sum, file) => sum + (file.path === snapshotFile(manifest.snapshot, KEYS_COPY) ? 0 : file.size),
        0,
      ),
      seconds_left: null,
      problems: [],
      snapshot_id: chosen.id,
    };
    const abort = new AbortController();
    const timeLeft = new TimeLeft(this.deps.now);
    timeLeft.note(0);
    this.current = { run, abort, timeLeft };
    void this.execute(run, archive, manifest, key, place, abort.signal);
    return { ...run };
  }

  /**
   * The restore under way or the last one of this fresh install; 404 when there was none.
   *
   * Anyone on the network may poll it (a phone that started the restore with the setup code
   * has no session to prove itself with, and the desktop window's page none either), so only
   * this PC (the headless door that needs no code) hears everything. Any other caller gets the
   * progress (state, counts, times) and a failure said without the backup folder's path or
   * what the disk answered: a neighbour on the Wi-Fi learns that a restore runs, not where from.
   */
  last(client: ClientInfo): BackupRun {
    if (this.deps.store.users.count() > 0) throw new AppError('already_set_up');
    if (!this.current) throw new AppError('not_found');
    const { run: stored, unprovenError, timeLeft } = this.current;
    const run = {
      ...stored,
      seconds_left: stored.state === 'running' ? timeLeft.secondsLeft(stored.bytes_copied, stored.bytes_to_copy) : null,
    };
    if (this.gate.door(client) === 'open') return { ...run, problems: [...run.problems] };
    return {
      ...run,
      problems: [],
      snapshot_id: null,
      ...(run.error !== undefined && { error: unprovenError ?? 'The restore did not finish. Nothing was restored.' }),
    };
  }

  /** The server is stopping: a restore under way stops, and its half-built copy is thrown away. */
  stop(): void {
    this.current?.abort.abort();
  }

  private async admit(input: RestoreSource, client: Caller): Promise<void> {
    if (this.deps.store.users.count() > 0) throw new AppError('already_set_up');
    if (client === HOSTING_PROCESS) {
      if (this.gate.heldForRestore) throw new AppError('restore_running');
      return;
    }
    await this.gate.admit(client, input.setup_code);
  }

  /**
   * The archive, checked before anything is written: the folder, the kit, and the snapshots it
   * may use. A signed backup needs its kit even when plain (the kit proves it is this family's,
   * and opens its keys.json); one that only the kit could prove, read without it, asks for it.
   */
  private async open(
    input: RestoreSource,
  ): Promise<{ archive: BackupArchive; key: BackupKey | null; place: S3Place | null; usable: SnapshotSummary[] }> {
    const field = input.kind === 's3' ? 'bucket' : 'path';
    const refuse = (message?: string, at = field): never => {
      throw new AppError('backup_not_found', message, { field: at });
    };
    const place = input.kind === 's3' ? checkedS3Place(input) : null;
    if (input.kind === 'folder' && !path.isAbsolute(input.path))
      refuse('Give the full path of the folder that holds the backup, such as /media/usb-disk/backups.');
    let key: BackupKey | null = null;
    if (input.key !== undefined && input.key.trim() !== '') {
      key = await parseKey(input.key, this.deps.now());
      if (!key)
        throw new AppError('backup_key_wrong', 'That is not an emergency kit: its key begins with AGE-SECRET-KEY-1.', { field: 'key' });
    }
    let archive: BackupArchive;
    try {
      // The folder the owner typed, links in it followed now, once (their choice); inside it, none ever is (folder-storage.ts).
      const folder = place
        ? null
        : await fs.promises.realpath((input as { path: string }).path).catch(() => (input as { path: string }).path);
      archive = await BackupArchive.open(place ? new S3Storage(place) : folder!, { create: false, key, now: this.deps.now });
    } catch (error) {
      if (error instanceof ArchiveKeyProblem) throw new AppError('backup_key_wrong', undefined, { field: 'key' });
      if (error instanceof ArchiveUnsafe) throw new AppError('destination_unsafe', error.words, { field });
      // A bucket's answer in its words ("the bucket answered: access denied"), on the field it points at.
      if (error instanceof ArchiveUnreachable && error.words) return refuse(error.words, error.field ?? field);
      return refuse();
    }
    if (archive.encrypted && key === null) throw new AppError('backup_key_required', undefined, { field: 'key' });
    let listed;
    try {
      listed = await archive.listSnapshots();
    } catch (error) {
      if (error instanceof ArchiveUnsafe) throw new AppError('destination_unsafe', error.words, { field });
      if (error instanceof ArchiveUnreachable) refuse(error.words, error.field ?? field);
      throw new AppError('backup_not_found', "The backup there is damaged: a snapshot's list of files cannot be read.", { field });
    }
    const usable = listed.filter((s) => s.trust !== 'unproved').map(({ trust: _trust, ...summary }) => summary);
    if (listed.some((s) => s.trust === 'unproved') && !usable.some((s) => s.signed)) {
      // Snapshots only a kit proves: without one, ask for it; with one that proves none of them, it is another server's kit.
      if (key === null) throw new AppError('backup_key_required', KIT_PROVES, { field: 'key' });
      throw new AppError('backup_key_wrong', undefined, { field: 'key' });
    }
    return { archive, key, place, usable };
  }

  private async execute(
    run: BackupRun,
    archive: BackupArchive,
    manifest: Manifest,
    key: BackupKey | null,
    place: S3Place | null,
    signal: AbortSignal,
  ) {
    const { dataDir } = this.deps.config;
    const staging = restoreStaging(dataDir);
    const timeLeft = this.current!.timeLeft;
    try {
      fs.rmSync(path.dirname(staging), { recursive: true, force: true });
      fs.mkdirSync(path.join(staging, 'files', 'blobs'), { recursive: true, mode: 0o700 });
      // A few files at once, as a backup copies them: one file's fsync overlaps another's read.
      const keysEntry = manifest.files.find((f) => f.path === snapshotFile(manifest.snapshot, KEYS_COPY));
      if (keysEntry) {
        // Opened with the kit (a plain backup's is sealed to it), without a token key: the restored server makes a new one (keys.ts).
        writeFileDurably(path.join(staging, KEYS_COPY), await archive.readKeys(keysEntry, signal));
        run.files += 1;
        run.bytes += keysEntry.size;
      }
      // From a bucket, more: each file waits on round trips to a far place.
      await eachAtOnce(manifest.files, place ? this.deps.config.backupBucketFilesAtOnce : FILES_AT_ONCE, async (file) => {
        signal.throwIfAborted();
        const target = stagedPath(staging, manifest.snapshot, file);
        if (target === null) return;
        fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
        const { size, sha256 } = await archive.copyOut(file, target, signal, {
          durable: true,
          onBytes: (n) => {
            run.bytes_copied += n;
            timeLeft.note(run.bytes_copied);
          },
        });
        // No SHA-256 where the file's header MAC proved it (BackupArchive.copyOut).
        if (size !== file.size || (sha256 !== null && sha256 !== file.sha256)) throw new DamagedInBackup(file.path);
        run.files += 1;
        run.bytes += size;
      });
      // All at once (the thread pool takes four at a time): one by one, each waited on its own journal commit.
      await Promise.all(
        fs.readdirSync(path.join(staging, 'files', 'blobs')).map((folder) => syncFolder(path.join(staging, 'files', 'blobs', folder))),
      );
      await syncFolder(path.join(staging, 'files', 'blobs'));
      const serverId = settleDatabase(
        path.join(staging, DATABASE_COPY),
        path.join(dataDir, 'files'),
        this.deps.config.sqliteEngine,
        manifest.at,
      );
      // The seal: this folder's files are those of the restored database (content-guard.ts).
      writeMarker(path.join(staging, 'files'), INTERNAL_LIBRARY_ID, serverId);
      if (key) new BackupKeyFile(staging).write(key);
      if (place) keepBucketKeys(path.join(staging, DATABASE_COPY), staging, place, this.deps.config.sqliteEngine);
      await syncFolder(staging);
      signal.throwIfAborted();
      markRestoreReady(dataDir);
      run.state = 'succeeded';
      run.finished_at = this.deps.now();
      this.deps.log.info('restore staged; the server starts again on it', { snapshot: manifest.snapshot, files: run.files });
      this.restart();
    } catch (error) {
      run.state = 'failed';
      run.finished_at = this.deps.now();
      run.error = restoreFailureInWords(error, archive.destination);
      if (error instanceof ArchiveUnsafe) run.error_code = 'destination_unsafe';
      if (this.current?.run === run) this.current.unprovenError = restoreFailureInWords(error, null);
      if (!(error instanceof DamagedInBackup)) this.deps.log.warn('restore failed', { error: String(error) });
      try {
        discardRestore(dataDir);
      } catch (caught) {
        this.deps.log.error('could not remove a failed restore', { error: String(caught) });
      }
      this.gate.releaseForRestore();
    }
  }
}

class DamagedInBackup extends Error {
  constructor(readonly file: string) {
    super(`damaged in the backup: ${file}`);
  }
}

/** Where a file of the snapshot goes in the staged data folder: every library's content into the internal one; keys.json is written apart. */
function stagedPath(staging: string, snapshot: string, file: ManifestFile): string | null {
  if (file.path === snapshotFile(snapshot, DATABASE_COPY)) return path.join(staging, DATABASE_COPY);
  // Ids as Hearth makes them (backup-manifest.ts checked each): a manifest cannot name "..".
  const owner = contentOwner(file);
  if (owner) return path.join(staging, 'files', 'blobs', owner.blob.slice(-2), owner.blob);
  return null;
}

/** Said when a backup holds snapshots only its kit can prove. */
const KIT_PROVES =
  'This backup needs the key from its emergency kit: Hearth signs every backup with it, and proves with it that nobody changed this one.';

/** Why a restore failed; with `folder` null, said without the folder's path or the system's own message. */
function restoreFailureInWords(error: unknown, folder: string | null): string {
  if (error instanceof DamagedInBackup)
    return `The backup is damaged: ${error.file} does not match its SHA-256. Nothing was restored; try an older snapshot.`;
  if (error instanceof ForeignRows)
    return `The backup's database holds records Hearth does not write (${error.what}). Nothing was restored; try another snapshot.`;
  if (error instanceof ArchiveFileDamaged)
    return 'A file of the backup does not decrypt: it is damaged. Nothing was restored; try an older snapshot.';
  if (error instanceof ArchiveUnsafe && folder === null)
    return 'The backup folder holds a link or another item Hearth did not put there, and Hearth does not follow it. Nothing was restored.';
  if (error instanceof ArchiveUnreachable && error.words) return `${error.words} Nothing was restored.`;
  if (error instanceof ArchiveUnreachable)
    return error.reason === 'full'
      ? "This PC's disk is full: the backup does not fit. Nothing was restored."
      : `The backup folder${folder === null ? '' : ` ${folder}`} could not be read to the end. Is its drive connected? Nothing was restored.`;
  if ((error as NodeJS.ErrnoException).code === 'ENOSPC') return "This PC's disk is full: the backup does not fit. Nothing was restored.";
  if ((error as Error).name === 'AbortError') return 'The server stopped before the restore finished. Nothing was restored.';
  if (folder === null) return 'The restore stopped on an error. Nothing was restored.';
  return `The restore stopped: ${(error as Error).message}. Nothing was restored.`;
}
