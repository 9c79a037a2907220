import fs from 'node:fs/promises';
import path from 'node:path';
import { syncFolder } from '../common/durable-file.ts';

/** Where a library keeps what the clean-up took away, one folder per day: `holding/2025-06-01/`. */
export const HOLDING_FOLDER = 'holding';
/** How long the holding folder keeps a file before maintenance empties its day. */
export const HOLDING_DAYS = 30;

const DAY_MS = 24 * 60 * 60_000;
const DAY_FOLDER = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Moves a library's file into its holding folder instead of deleting it: a rename on the same
 * drive, so it costs no space and no time, and the owner (or support) can still put it back
 * for a month if the clean-up was wrong. `kind` keeps content files and unfinished uploads apart.
 */
export async function moveToHolding(root: string, file: string, kind: 'blobs' | 'tmp', now: number): Promise<void> {
  const folder = path.join(root, HOLDING_FOLDER, dayOf(now), kind);
  await fs.mkdir(folder, { recursive: true });
  let target = path.join(folder, path.basename(file));
  // Never over another held file (the same stray name twice the same day).
  for (let n = 1; await exists(target); n++) target = path.join(folder, `${path.basename(file)}.${n}`);
  await fs.rename(file, target);
  // Both folders synced: a rename undone by a power cut would bring back a file whose garbage
  // row is gone, and the clean-up would never take it again.
  await syncFolder(path.dirname(file));
  await syncFolder(folder);
}

/**
 * Maintenance: empties the holding folder's days older than `days`. A day's folder goes when
 * its last file has been held the full period. Anything in the holding folder that is not a
 * day's folder is not the server's and stays.
 */
export async function emptyExpiredHolding(root: string, now: number, days = HOLDING_DAYS): Promise<number> {
  const base = path.join(root, HOLDING_FOLDER);
  let emptied = 0;
  for (const name of await fs.readdir(base).catch(() => [] as string[])) {
    if (!DAY_FOLDER.test(name)) continue;
    const start = Date.parse(`${name}T00:00:00Z`);
    if (!Number.isFinite(start) || start + (days + 1) * DAY_MS > now) continue;
    await fs.rm(path.join(base, name), { recursive: true, force: true });
    emptied++;
  }
  return emptied;
}

/**
 * When the last day in a library's holding folder is emptied (see emptyExpiredHolding), or null
 * when nothing is held there any more: until then, what the clean-up took may still be needed.
 */
export async function heldUntil(root: string, now: number, days = HOLDING_DAYS): Promise<number | null> {
  let until: number | null = null;
  for (const name of await fs.readdir(path.join(root, HOLDING_FOLDER)).catch(() => [] as string[])) {
    if (!DAY_FOLDER.test(name)) continue;
    const start = Date.parse(`${name}T00:00:00Z`);
    if (!Number.isFinite(start)) continue;
    const emptiedAt = start + (days + 1) * DAY_MS;
    if (emptiedAt > now && (until === null || emptiedAt > until)) until = emptiedAt;
  }
  return until;
}

function dayOf(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file);
    return true;
  } catch {
    return false;
  }
}
