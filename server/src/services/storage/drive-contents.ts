import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DriveContents } from '../../contract/storage-responses.ts';
import { summarizeFolder, type WalkLimits } from '../../platform/drive-contents.ts';
import type { BlockDevice } from '../../platform/drives.ts';
import { mountReadOnly, unmountPath } from '../../platform/mounts.ts';

/** What no look can read through: encryption and members of RAID or LVM sets. */
const OPAQUE = /^(crypto_LUKS|BitLocker|LVM2_member|linux_raid_member|zfs_member|.*_member)$/;
const WALK_MS = 3_000;
const WALK_ENTRIES = 200_000;

/**
 * What is on a drive and its partitions, from a read-only look: mounted file systems are read
 * where they are; others are mounted read-only for the look when the server may mount (root),
 * and unmounted after. Null when any of it cannot be read (no file system, encrypted, no
 * right to mount, or an error): the dialog then says it could not look, never "empty".
 */
export async function readDriveContents(
  devices: BlockDevice[],
  name: string,
  mayMount: boolean,
  now = Date.now(),
): Promise<DriveContents | null> {
  const device = devices.find((d) => d.name === name);
  if (!device) return null;
  const family = [device, ...familyBelow(devices, name)];
  const holding = family.filter((d) => d.fstype !== null && d.fstype !== 'swap');
  if (holding.length === 0 || holding.some((d) => OPAQUE.test(d.fstype!))) return null;
  const limits: WalkLimits = { deadline: now + WALK_MS, maxEntries: WALK_ENTRIES };
  const merged: DriveContents = { used: 0, top_level: [], files: 0, photos: 0, complete: true };
  try {
    for (const fsDevice of holding) {
      const mounted = fsDevice.mountpoints.find((m) => m.startsWith('/'));
      const summary =
        mounted !== undefined ? await summarizeFolder(mounted, limits) : mayMount ? await lookWhileMounted(fsDevice, limits) : null;
      if (summary === null) return null;
      merged.used += summary.used;
      merged.top_level.push(...summary.top_level);
      merged.files += summary.files;
      merged.photos += summary.photos;
      merged.complete &&= summary.complete;
    }
  } catch {
    return null;
  }
  return merged;
}

async function lookWhileMounted(device: BlockDevice, limits: WalkLimits) {
  const mountPoint = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-look-'));
  try {
    await mountReadOnly(device.path, device.fstype!, mountPoint);
    try {
      return await summarizeFolder(mountPoint, limits);
    } finally {
      await unmountPath(mountPoint);
    }
  } finally {
    // rmdir, never a recursive removal: were the unmount to fail, the drive's files stay untouched.
    fs.rmdirSync(mountPoint);
  }
}

function familyBelow(devices: BlockDevice[], name: string): BlockDevice[] {
  const children = devices.filter((d) => d.parent === name);
  return children.flatMap((child) => [child, ...familyBelow(devices, child.name)]);
}
