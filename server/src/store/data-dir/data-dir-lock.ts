import fs from 'node:fs';
import path from 'node:path';
import { StartRefused } from '../../start-refused.ts';
import { isBusy, openConnection, type Db, type EngineChoice } from '../database/db.ts';
import type { Logger } from '../../log.ts';
import { probeWrite } from '../common/disk-space.ts';
import { storageFaultOf, type StorageFault } from '../common/storage-faults.ts';

const LOCK_FILE = 'hearth.lock';
/** Who holds the lock, for the message a second server prints: pid on the first line. */
const HOLDER_FILE = 'hearth.pid';

export interface DataDirLock {
  release(): void;
}

/**
 * Takes the data folder for this process alone, before anything in it is read or written: a
 * second server on the same folder would migrate the database and rewrite keys under the
 * first. Refused with a message naming the holder's process when another server has it.
 *
 * The lock is an operating-system lock on `hearth.lock` (fcntl on Linux and macOS, LockFileEx
 * on Windows), taken through SQLite because that is the file-locking call both of the
 * server's runtimes have (Node has none of its own). The kernel drops it the moment its
 * process ends, however it ends: after a kill -9 or a power cut the next start takes it at
 * once, with no stale lock to judge by pid or age. It is a file of its own, never the
 * database: a local command (a password reset) may still open hearth.db while the server runs.
 */
export function lockDataDir(dataDir: string, engine: EngineChoice, log: Pick<Logger, 'warn'>): DataDirLock {
  // A folder nobody can write to (a data disk gone read-only) cannot be damaged by a second
  // server either, and a lock cannot be taken there: the start goes on without one.
  if (!writable(dataDir)) return withoutLock(log, dataDir, 'the data folder cannot be written to (a disk turned read-only?)');
  const lock = openConnection(path.join(dataDir, LOCK_FILE), { engine });
  try {
    lock.pragma('busy_timeout = 0');
    // A write transaction on an empty file writes its first page: done once, while there is
    // room, so that taking the lock later writes nothing (a start on a disk full to the last
    // byte still takes it).
    if (lock.pragma('page_count') === 0) lock.exec('CREATE TABLE IF NOT EXISTS held (since INTEGER)');
    // A write transaction left open holds SQLite's RESERVED lock until the connection closes;
    // a second BEGIN IMMEDIATE, in another process or this one, is refused at once.
    lock.exec('BEGIN IMMEDIATE');
  } catch (error) {
    lock.close();
    if (isBusy(error)) throw new StartRefused('data_dir_in_use', inUseMessage(dataDir, readHolder(dataDir)));
    // A folder whose disk filled before the lock file was ever made cannot hold one; like a
    // read-only one it goes on without it (the start is what lets the owner free space).
    // Only then: any other failure (SQLite's "disk I/O error" on a network share without
    // POSIX locks) would let two servers run on one folder, so the start stops and says why.
    const fault = diskRefusal(error, dataDir);
    if (fault !== null) return withoutLock(log, dataDir, fault === 'full' ? 'the disk is full' : 'the disk is read-only');
    throw new StartRefused('data_dir_unlockable', unlockableMessage(dataDir, error));
  }
  writeHolder(dataDir);
  return { release: () => release(lock, dataDir) };
}

/**
 * Whether the lock failed because the disk refused a write, full or read-only. SQLite's I/O
 * errors do not say why: the disk itself is asked (a one-byte write), as StorageHealth does.
 */
function diskRefusal(error: unknown, dataDir: string): StorageFault | null {
  const fault = storageFaultOf(error);
  if (fault !== 'io') return fault;
  const probe = probeWrite(dataDir);
  return probe === 'full' || probe === 'read_only' ? probe : null;
}

/** Said every time: a server without the lock is one a second server would not be kept from. */
function withoutLock(log: Pick<Logger, 'warn'>, dataDir: string, why: string): DataDirLock {
  log.warn("running without the data folder's lock: a second server started on this folder now would not be refused", {
    path: dataDir,
    reason: why,
  });
  return { release: () => {} };
}

function unlockableMessage(dataDir: string, error: unknown): string {
  const detail = String((error as Error)?.message ?? error).slice(0, 200);
  return (
    `Hearth did not start: its data folder ${dataDir} is on a drive where file locking does not work (${detail}). ` +
    'Without a lock, a second server started on the same folder would damage the database. ' +
    'Put the data folder on a drive of this computer (DATA_DIR), or, for a network share, mount it with file locking turned on. Nothing was changed.'
  );
}

function writable(dataDir: string): boolean {
  try {
    fs.accessSync(dataDir, fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

function release(lock: Db, dataDir: string): void {
  if (!lock.open) return;
  // The holder note goes first: once the lock is free, a new holder writes its own. A disk
  // turned read-only meanwhile keeps the note; the next holder replaces it.
  try {
    fs.rmSync(path.join(dataDir, HOLDER_FILE), { force: true });
  } catch {
    // Kept: it names a process that is gone, which a second server's message tells apart.
  }
  lock.close();
}

interface Holder {
  pid: number;
  description: string;
}

/** Best effort: on a full disk the note may not fit, and the lock holds without it. */
function writeHolder(dataDir: string): void {
  const file = path.join(dataDir, HOLDER_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, `${process.pid}\n${describeThisProcess()}\n`, { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    fs.rmSync(temp, { force: true });
  }
}

function readHolder(dataDir: string): Holder | null {
  try {
    const [pid = '', description = ''] = fs.readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8').split('\n');
    const n = Number(pid);
    return Number.isSafeInteger(n) && n > 0 ? { pid: n, description } : null;
  } catch {
    return null;
  }
}

/** What this process is, in words an owner recognises in a task manager or `ps`. */
function describeThisProcess(): string {
  const what = process.versions.electron !== undefined ? 'the Hearth desktop app' : 'a Hearth server';
  const command = process.argv
    .slice(1)
    .map((arg) => path.basename(arg))
    .join(' ')
    .slice(0, 120);
  return `${what} (${path.basename(process.execPath)}${command ? ` ${command}` : ''}), running since ${new Date().toISOString()}`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, as another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function inUseMessage(dataDir: string, holder: Holder | null): string {
  let who: string;
  if (holder === null || !isAlive(holder.pid)) {
    // The lock is held (the kernel says so) but its note is gone or names a process that ended:
    // a new holder is starting and has not written its note yet.
    who = 'another process that is starting right now';
  } else if (holder.pid === process.pid) {
    who = `this same process (pid ${holder.pid}), which already runs a server on it`;
  } else {
    who = `process ${holder.pid}: ${holder.description}`;
  }
  return (
    `Hearth did not start: its data folder ${dataDir} is in use by ${who}. ` +
    'Two servers on one folder would damage the database. Stop the other one first (or quit the Hearth desktop app), ' +
    'or give this server a data folder of its own (DATA_DIR).'
  );
}
