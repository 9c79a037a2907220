import crypto from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { BackupProblem } from '../../contract/backup-responses.ts';
import type { ErrorCode } from '../../contract/error-codes.ts';
import {
  ArchiveFileDamaged,
  ArchiveKeyProblem,
  ArchiveUnreachable,
  BackupArchive,
  type ArchiveStorage,
  DATABASE_COPY,
  snapshotFile,
  ManifestUnreadable,
  type ManifestFile,
} from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import { contentOf, recordRunInCopy } from '../../store/database/backup.repo.ts';
import type { BackupKey } from '../../store/data-dir/backup-key.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { openConnection } from '../../store/database/db.ts';
import { keysForBackup } from '../../store/data-dir/keys.ts';
import type { Store } from '../../store/index.ts';
import { snapshotsToKeep, type Retention } from './retention.ts';
import { eachAtOnce, FILES_AT_ONCE } from './each-at-once.ts';
import { contentFile, countContent, knownFiles, settle, whatIsThere } from './backup-content.ts';
import type { RunCounts } from './run-counts.ts';

export { newCounts, type RunCounts } from './run-counts.ts';

export interface BackupSource {
  runId: string;
  /** A folder's path, or a bucket (S3Storage). */
  archiveFolder: string | ArchiveStorage;
  /** The server's backup key: it signs every snapshot, and encrypts an encrypted destination's files. */
  key: BackupKey;
  /** Whether the destination is an encrypted one (its folder must hold an encrypted archive, and the reverse). */
  encrypted: boolean;
  dataDir: string;
  serverId: string;
  serverVersion: string;
  store: Store;
  content: ContentStores;
  retention: Retention;
  now: () => number;
  /** Waits for the run's turn behind the family's requests (FamilyFirst); called before each chunk. */
  pace?: (signal: AbortSignal) => Promise<void>;
  /** Content files copied at once: more to a bucket (far away, each file waits on round trips) than to a folder. */
  filesAtOnce?: number;
}

/** Where the database is copied first, on the server's own disk: the online backup is fast there, and the copy can be marked before it travels. */
const STAGING_FOLDER = 'backup-staging';

/**
 * One backup: a consistent copy of the database (SQLite's online backup), keys.json, then every content file that copy
 * refers to and the destination does not hold yet (content files never change: what is there is
 * not copied again), then the manifest, then retention. Files a library cannot give (its drive is
 * out) are named in `problems` and the rest is backed up.
 */
export async function runBackup(
  source: BackupSource,
  counts: RunCounts,
  signal: AbortSignal,
  onProgress: () => void,
): Promise<{ snapshotId: string; storedBytes: number }> {
  const archive = await BackupArchive.open(source.archiveFolder, { create: false, key: source.key });
  // A plain destination whose folder holds an encrypted backup (or the reverse) is not written to: one format a folder.
  if (archive.encrypted !== source.encrypted) throw new ArchiveKeyProblem(archive.encrypted ? 'required' : 'wrong');
  // Ready by the database copy, written after the listings below.
  archive.prepareCopies();
  await archive.removeUnfinished();
  const known = await knownFiles(archive);
  const at = source.now();
  const snapshotId = `${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${crypto.randomBytes(3).toString('hex')}`;
  const filesAtOnce = source.filesAtOnce ?? FILES_AT_ONCE;

  const staging = path.join(source.dataDir, STAGING_FOLDER);
  await fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(staging, { recursive: true });
  const dbCopy = path.join(staging, DATABASE_COPY);
  const files: ManifestFile[] = [];
  const add = (file: ManifestFile) => {
    files.push(file);
    counts.files += 1;
    counts.bytes += file.size;
    onProgress();
  };
  const copied = (n: number) => {
    counts.bytes_copied += n;
    counts.timeLeft.note(counts.bytes_copied);
    // Told as the bytes go, not only at a file's end: a long video would leave the console still for minutes (the service sends at most two a second).
    onProgress();
  };
  try {
    await source.store.backup.copyDatabaseTo(dbCopy);
    const writable = openConnection(dbCopy, { fileMustExist: true });
    try {
      recordRunInCopy(writable, { id: source.runId, snapshotId, at });
    } finally {
      writable.close();
    }
    const keysText = await keysForBackup(source.dataDir);
    const copy = openConnection(dbCopy, { readonly: true, fileMustExist: true });
    try {
      const there = await whatIsThere(archive, () => contentOf(copy), filesAtOnce, signal);
      const plan = { database: (await fs.stat(dbCopy)).size, keys: Buffer.byteLength(keysText) };
      const content = countContent(archive, known, there, contentOf(copy));
      counts.files_total = 2 + content.files;
      counts.bytes_total = plan.database + plan.keys + content.bytes;
      counts.bytes_to_copy = plan.database + plan.keys + content.toCopy;
      counts.timeLeft.note(counts.bytes_copied);
      onProgress();

      await archive.startSnapshot(snapshotId);
      const relative = snapshotFile(snapshotId, DATABASE_COPY);
      const written = await archive.write(createReadStream(dbCopy), relative, { signal, onBytes: copied });
      settle(counts, plan.database, written.size);
      add({ path: relative, ...written });
      const keys = await archive.writeKeys(snapshotId, keysText, { signal, onBytes: copied });
      settle(counts, plan.keys, keys.size);
      add(keys);
      await eachAtOnce(contentOf(copy), filesAtOnce, async (ref) => {
        signal.throwIfAborted();
        const relative = archive.contentPath(ref.library_id, ref.blob);
        const file = await contentFile(archive, known, there, source.content, relative, ref, counts, copied, signal, source.pace);
        if (file) add({ ...file, library: ref.library_id, blob: ref.blob });
      });
    } finally {
      copy.close();
    }
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
  await archive.writeManifest(
    {
      snapshot: snapshotId,
      at,
      server_id: source.serverId,
      server_version: source.serverVersion,
      files,
    },
    signal,
  );
  const storedBytes = await prune(archive, source.retention, counts);
  return { snapshotId, storedBytes };
}

/**
 * Retention, then the content no kept snapshot lists. Every manifest is read first: one that
 * cannot be read stops the clean-up, since what it needs could not be known. Answers the bytes
 * the kept snapshots take.
 *
 * Only this key's snapshots decide what is pruned among them: snapshots planted in the folder
 * (dated to look newest) must not push the family's real ones out. One from before signatures
 * goes by retention over all; one this key did not sign is left where it is, and so is the
 * content it lists (nothing is removed that it cannot be proved nobody needs).
 */
async function prune(archive: BackupArchive, retention: Retention, counts: RunCounts): Promise<number> {
  try {
    const all = await archive.listSnapshots();
    const signed = all.filter((s) => s.trust === 'signed');
    const keepSigned = snapshotsToKeep(signed, retention);
    const keepAny = snapshotsToKeep(
      all.filter((s) => s.trust !== 'unproved'),
      retention,
    );
    const unproved = all.filter((s) => s.trust === 'unproved');
    const kept = all.filter((s) => s.trust === 'unproved' || (s.trust === 'signed' ? keepSigned : keepAny).has(s.id));
    for (const snapshot of all) if (!kept.includes(snapshot)) await archive.removeSnapshot(snapshot.id);
    const needed = new Map<string, number>();
    for (const { id } of kept)
      for (const file of (await archive.readManifest(id))?.manifest.files ?? []) needed.set(file.path, file.stored_size ?? file.size);
    await archive.removeContentExcept(new Set(needed.keys()));
    if (unproved.length > 0) counts.problems.push(unprovedProblem(unproved.length));
    return sumStored(needed);
  } catch (error) {
    // Something planted where the clean-up looks: the owner must hear of it, not find it in a list of problems.
    if (error instanceof ArchiveUnsafe) throw error;
    counts.problems.push({ path: '', reason: `Old snapshots were not cleaned up: ${failureInWords(error, archive.destination)}` });
    return 0;
  }
}

function sumStored(needed: Map<string, number>): number {
  return [...needed.values()].reduce((sum, size) => sum + size, 0);
}

/** Snapshots in the folder that this server's backup key did not sign: named once, left alone. */
function unprovedProblem(count: number): BackupProblem {
  return {
    path: '',
    reason: `${count === 1 ? 'One snapshot' : `${count} snapshots`} in this backup ${count === 1 ? 'is' : 'are'} not signed with this server's backup key (put there by someone else, changed, or made with another emergency kit). Hearth does not use ${count === 1 ? 'it' : 'them'} and leaves ${count === 1 ? 'it' : 'them'} there.`,
  };
}

/**
 * Reads every file of every snapshot back and checks it against its manifest's SHA-256. A file
 * shared by several snapshots is read once. Snapshots from before signatures are checked too
 * (their files are the family's); one this key did not sign is named, and not read.
 */
export async function runVerify(
  folder: string | ArchiveStorage,
  key: BackupKey | null,
  counts: RunCounts,
  signal: AbortSignal,
  onProgress: () => void,
  pace?: (signal: AbortSignal) => Promise<void>,
): Promise<void> {
  const archive = await BackupArchive.open(folder, { create: false, key });
  const all = await archive.listSnapshots();
  const usable = all.filter((s) => s.trust !== 'unproved');
  if (usable.length === 0) throw new NothingToVerify();
  const files = new Map<string, ManifestFile>();
  for (const snapshot of usable)
    for (const file of (await archive.readManifest(snapshot.id))?.manifest.files ?? []) files.set(file.path, file);
  counts.files_total = files.size;
  counts.bytes_total = [...files.values()].reduce((sum, file) => sum + file.size, 0);
  // A check reads back and copies nothing.
  counts.bytes_to_copy = 0;
  counts.timeLeft.note(0);
  onProgress();
  for (const file of files.values()) {
    signal.throwIfAborted();
    await pace?.(signal);
    let found: { size: number; sha256: string | null } | null = null;
    let damaged = false;
    try {
      found = await archive.hash(file, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      if (error instanceof ArchiveFileDamaged) damaged = true;
      else if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (damaged) counts.problems.push({ path: file.path, reason: 'The file is damaged: it no longer decrypts with the backup key.' });
    else if (found === null) counts.problems.push({ path: file.path, reason: 'The file is missing from the backup.' });
    else if (found.size !== file.size)
      counts.problems.push({ path: file.path, reason: `The file has ${found.size} bytes instead of ${file.size}.` });
    else if (found.sha256 !== null && found.sha256 !== file.sha256)
      counts.problems.push({ path: file.path, reason: 'The file is damaged: its content does not match its SHA-256.' });
    counts.files += 1;
    counts.bytes += found?.size ?? 0;
    // A file of another size, or missing: the bytes read at the end are what was there.
    counts.bytes_total += (found?.size ?? 0) - file.size;
    counts.timeLeft.note(counts.bytes);
    onProgress();
  }
  const unproved = all.length - usable.length;
  if (unproved > 0) counts.problems.push(unprovedProblem(unproved));
}

class NothingToVerify extends Error {}

/** A run's failure as the owner reads it on the Backups page. */
export function failureInWords(error: unknown, folder: string): string {
  if (error instanceof NothingToVerify) return 'There is no finished backup in this folder yet. Back up first.';
  if (error instanceof ArchiveKeyProblem)
    return error.reason === 'wrong'
      ? `The backup in ${folder} is not encrypted with this server's backup key. Choose another folder for this destination.`
      : `The backup in ${folder} is encrypted, and this server has not its key. Choose another folder for this destination.`;
  // A manifest that does not parse: its parser's message would quote the file, which need not be Hearth's.
  if (error instanceof ArchiveFileDamaged || error instanceof ManifestUnreadable || error instanceof SyntaxError)
    return "A snapshot's list of files in the backup is damaged and cannot be read. Check the backup.";
  if (error instanceof ArchiveUnreachable) {
    // A bucket's answer, already in words ("the bucket answered: access denied").
    if (error.words) return error.words;
    switch (error.reason) {
      case 'missing':
        return `The backup folder ${folder} is not there. Is its drive connected?`;
      case 'full':
        return 'The backup drive is full. Make room on it, or lower how many snapshots it keeps.';
      case 'read_only':
        return 'The backup drive is read-only.';
      case 'denied':
        return `Hearth is not allowed to write to ${folder}.`;
      default:
        break;
    }
  }
  if (error instanceof AppError) return error.message;
  return `The backup stopped: ${(error as Error).message ?? String(error)}.`;
}

/** A run's failure for a program: the catalogue's code beside failureInWords' sentence. */
export function failureCode(error: unknown): ErrorCode {
  if (error instanceof NothingToVerify) return 'snapshot_not_found';
  if (error instanceof ArchiveUnsafe) return 'destination_unsafe';
  if (error instanceof ArchiveKeyProblem) return error.reason === 'wrong' ? 'backup_key_wrong' : 'backup_key_required';
  if (error instanceof ArchiveFileDamaged || error instanceof ManifestUnreadable || error instanceof SyntaxError) return 'backup_damaged';
  if (error instanceof ArchiveUnreachable) return 'backup_unreachable';
  if (error instanceof AppError) return error.code;
  return 'internal';
}
