import fs from 'node:fs';
import path from 'node:path';
import { findExecutable, runCommand } from './run.ts';

export interface MountEntry {
  mountPoint: string;
  source: string;
  fsType: string;
}

/** The mounts of this machine, from /proc/self/mountinfo (octal escapes decoded). */
export function listMounts(): MountEntry[] {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const unescape = (s: string) => s.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [left, right = ''] = line.split(' - ');
      const fields = left!.split(' ');
      const [fsType = '', source = ''] = right.split(' ');
      return { mountPoint: unescape(fields[4] ?? ''), source: unescape(source), fsType };
    });
}

/** The mount a path lives on: the longest mount point that contains it. */
export function mountOf(target: string): MountEntry | undefined {
  const resolved = path.resolve(target);
  let best: MountEntry | undefined;
  for (const mount of listMounts()) {
    const inside =
      resolved === mount.mountPoint || resolved.startsWith(mount.mountPoint.endsWith('/') ? mount.mountPoint : `${mount.mountPoint}/`);
    if (inside && (!best || mount.mountPoint.length > best.mountPoint.length)) best = mount;
  }
  return best;
}

const NETWORK_TYPES = new Set(['nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', 'sshfs', 'fuse.sshfs', '9p']);

export function isNetworkFs(fsType: string): boolean {
  return NETWORK_TYPES.has(fsType);
}

/** Unmounts a mount point with `umount` (as root) or `fusermount -u` (a FUSE mount of the server's own user). */
export async function unmountDirect(mount: MountEntry): Promise<void> {
  await flush(mount.mountPoint);
  if (mount.fsType.startsWith('fuse') && process.getuid?.() !== 0) {
    await runCommand(findExecutable('fusermount3') ?? 'fusermount', ['-u', '--', mount.mountPoint], 60_000);
    return;
  }
  await runCommand('umount', ['--', mount.mountPoint], 60_000);
}

/**
 * Why an unmount failed, from what umount or udisks printed: the server was not allowed to
 * (no root, a polkit rule missing), or something else (a program holding the drive open).
 */
export function unmountRefusedForRights(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /must be superuser|only root|NotAuthorized|Not authorized|Operation not permitted|Permission denied/i.test(text);
}

/** Whether udisks2's service answers udisksctl (it needs the system D-Bus). */
export function udisksServiceAnswers(udisksctl: string): Promise<boolean> {
  return runCommand(udisksctl, ['status'], 5_000).then(
    () => true,
    () => false,
  );
}

/** Unmounts a drive through udisks2, as the desktop's "safely remove" does: no root needed. */
export async function unmountWithUdisks(udisksctl: string, mount: MountEntry): Promise<void> {
  await flush(mount.mountPoint);
  await runCommand(udisksctl, ['unmount', '--no-user-interaction', '-b', mount.source], 60_000);
}

function flush(mountPoint: string): Promise<unknown> {
  return runCommand('sync', ['-f', '--', mountPoint]).catch(() => runCommand('sync', []));
}

/** Mounts a block device at a folder of ours (created when missing). Needs root. */
export async function mountDevice(device: string, mountPoint: string): Promise<void> {
  fs.mkdirSync(mountPoint, { recursive: true });
  // A drive someone plugged in is data, never programs or device files.
  await runCommand('mount', ['-o', 'nosuid,nodev', '--', device, mountPoint], 120_000);
}

/**
 * Mounts a file system read-only for a look at it (needs root). `noload` keeps ext3/ext4 from
 * replaying their journal, which `ro` alone would still write to the device.
 */
export async function mountReadOnly(device: string, fsType: string, mountPoint: string): Promise<void> {
  const options = ['ro', 'nosuid', 'nodev', 'noexec', ...(fsType === 'ext3' || fsType === 'ext4' ? ['noload'] : [])];
  await runCommand('mount', ['-o', options.join(','), device, mountPoint], 60_000);
}

/** Unmounts a mount point of the server's own (a look that is over). Needs root. */
export async function unmountPath(mountPoint: string): Promise<void> {
  await runCommand('umount', [mountPoint], 60_000);
}

/**
 * Mounts a block device through udisks2, as the desktop does for a USB disk: no root needed,
 * udisks picks the mount point (under /media/<user> or /run/media/<user>).
 */
export async function mountWithUdisks(udisksctl: string, device: string): Promise<string> {
  const out = await runCommand(udisksctl, ['mount', '--no-user-interaction', '-b', device], 120_000);
  const mountPoint = udisksMountPoint(out, device);
  if (!mountPoint) throw new Error(`udisksctl did not say where it mounted ${device}: ${out.trim().slice(0, 200)}`);
  return mountPoint;
}

/** Where `udisksctl mount` says it mounted a device: "Mounted /dev/sdb1 at /media/anna/PHOTOS" (2.9 ends with a dot). */
export function udisksMountPoint(output: string, device: string): string | null {
  const line = output.split('\n').find((l) => l.startsWith(`Mounted ${device} at `));
  if (!line) return null;
  const rest = line.slice(`Mounted ${device} at `.length).trimEnd();
  return rest.endsWith('.') && !fs.existsSync(rest) ? rest.slice(0, -1) : rest;
}

export interface PoolOptions {
  /** A branch with less free space than this takes no new files. */
  minFreeBytes: number;
}

/**
 * Joins branch folders into one with mergerfs. New files go to the branch with the most free
 * space, and a file that runs out of room moves to another branch instead of failing.
 */
export async function mountPool(mergerfs: string, branches: string[], mountPoint: string, options: PoolOptions): Promise<void> {
  fs.mkdirSync(mountPoint, { recursive: true });
  const settings = [
    'category.create=mfs',
    'moveonenospc=true',
    `minfreespace=${Math.max(1, Math.floor(options.minFreeBytes / 1024))}K`,
    // Reads and writes go straight to the branches: what the server fsyncs is on the disk.
    'cache.files=off',
    'dropcacheonclose=true',
    'fsname=hearth-pool',
  ];
  // mergerfs takes no `--`: its branches and mount point are absolute paths the server built.
  await runCommand(mergerfs, ['-o', settings.join(','), branches.join(':'), mountPoint], 60_000);
}

export function isMountPoint(dir: string): boolean {
  return listMounts().some((m) => m.mountPoint === dir);
}
