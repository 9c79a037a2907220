import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { storageFaultOf, type StorageFault } from './storage-faults.ts';

/**
 * Looks at the disk under a folder: free space, whether it takes a write, and the space
 * reserve. Synchronous and small: statfs and a one-byte file cost microseconds.
 */

/** Bytes an unprivileged process may still write there (statfs `bavail`), or null when unknown. */
export function freeBytes(folder: string): number | null {
  try {
    const stats = fs.statfsSync(folder);
    return stats.bavail * stats.bsize;
  } catch {
    return null;
  }
}

/** The file system's identity (st_dev): folders that share it fill up together. */
export function deviceOf(folder: string): number | null {
  try {
    return fs.statSync(folder).dev;
  } catch {
    return null;
  }
}

/**
 * Writes and removes one byte: `ok`, or why the disk refused (`full`, `read_only`), or `error`
 * for anything else (a folder that is gone, no permission). statfs cannot tell a drive the
 * kernel turned read-only after an error from a healthy one; a write can.
 */
export function probeWrite(folder: string): 'ok' | StorageFault | 'error' {
  const file = path.join(folder, `.hearth-probe-${process.pid}`);
  try {
    fs.writeFileSync(file, 'x', { flag: 'w' });
    return 'ok';
  } catch (error) {
    const fault = storageFaultOf(error);
    return fault === 'full' || fault === 'read_only' ? fault : 'error';
  } finally {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // a read-only disk cannot hold the probe either: nothing to remove
    }
  }
}

/**
 * The space reserve: a file of real blocks kept in the data folder while the disk has room,
 * and given back the moment it is full, so the database still has room for what keeps the
 * family in (sign-in, a refreshed session) and for what frees space (moving to the trash,
 * emptying it). Random bytes, so a compressing or deduplicating file system really keeps them.
 */
export const RESERVE_FILE = '.hearth-space-reserve';

export function reserveSize(dataDir: string): number {
  try {
    return fs.statSync(path.join(dataDir, RESERVE_FILE)).size;
  } catch {
    return 0;
  }
}

/** Removes the reserve; true when there was one to give back. */
export function releaseReserve(dataDir: string): boolean {
  try {
    fs.unlinkSync(path.join(dataDir, RESERVE_FILE));
    return true;
  } catch {
    return false;
  }
}

/** Writes the reserve (whole and fsynced, or not at all). */
export async function makeReserve(dataDir: string, bytes: number): Promise<void> {
  const file = path.join(dataDir, RESERVE_FILE);
  const temp = `${file}.part`;
  const chunk = 1024 * 1024;
  const handle = await fs.promises.open(temp, 'w');
  try {
    for (let written = 0; written < bytes; written += chunk) {
      await handle.write(crypto.randomBytes(Math.min(chunk, bytes - written)));
    }
    await handle.sync();
  } catch (error) {
    await handle.close().catch(() => {});
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  await fs.promises.rename(temp, file);
}
