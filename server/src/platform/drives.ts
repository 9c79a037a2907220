import { listBlockDevicesOther } from './drives-other.ts';
import type { BlockDevice } from './block-device.ts';
import { CommandError, findExecutable, runCommand } from './run.ts';

export type { BlockDevice } from './block-device.ts';

interface LsblkEntry {
  name: string;
  path: string;
  size: number | string;
  model: string | null;
  rm: boolean | string;
  type: string;
  fstype: string | null;
  label: string | null;
  uuid: string | null;
  mountpoints?: (string | null)[];
  pkname: string | null;
  vendor?: string | null;
  tran?: string | null;
  children?: LsblkEntry[];
}

/**
 * Every block device, flattened (disks, partitions, loop devices), from `lsblk -J`.
 * lsblk directly, not drivelist + systeminformation (ARCHITECTURE's first choice), measured
 * here: drivelist lists whole disks only (no partitions, file system or UUID, and no loop
 * devices at all), systeminformation's blockDevices keeps one mount point per device and runs
 * lsblk through a shell string; both are lsblk underneath, and a drive here needs partitions,
 * every mount point and the UUID the server mounts it again by.
 */
export async function listBlockDevices(): Promise<BlockDevice[]> {
  // Windows and macOS have no lsblk: their disks come from systeminformation (listed, not changed).
  if (process.platform !== 'linux') return listBlockDevicesOther();
  // A Linux without util-linux's lsblk (a minimal container) shows no drives, and the
  // capabilities say what to install: never an error page.
  if (!lsblkInstalled()) return [];
  const out = await runCommand('lsblk', [
    '-J',
    '-b',
    '-o',
    'NAME,PATH,SIZE,MODEL,VENDOR,TRAN,RM,TYPE,FSTYPE,LABEL,UUID,MOUNTPOINTS,PKNAME',
  ]);
  const parsed = JSON.parse(out) as { blockdevices: LsblkEntry[] };
  const flat: BlockDevice[] = [];
  const walk = (entry: LsblkEntry, parent: string | null) => {
    flat.push({
      name: entry.name,
      path: entry.path,
      size: Number(entry.size),
      model: entry.model?.trim() || null,
      removable: entry.rm === true || entry.rm === '1',
      type: entry.type,
      fstype: entry.fstype,
      label: entry.label,
      uuid: entry.uuid,
      mountpoints: (entry.mountpoints ?? []).filter((m): m is string => typeof m === 'string' && m !== ''),
      parent: entry.pkname ?? parent,
      vendor: entry.vendor?.trim() || null,
      transport: entry.tran?.trim() || null,
    });
    for (const child of entry.children ?? []) walk(child, entry.name);
  };
  for (const entry of parsed.blockdevices) walk(entry, null);
  return flat;
}

export function lsblkInstalled(): boolean {
  return findExecutable('lsblk') !== null;
}

export interface FilesystemProbe {
  filesystem: string | null;
  label: string | null;
  uuid: string | null;
}

/**
 * Every block device with its file system, label and UUID. lsblk learns those from udev,
 * whose records can lag (a label changed on a mounted drive) or be missing (containers, a
 * fresh format). `readEveryDevice` asks each device itself: for the owner's drive page and
 * before a drive is changed. Otherwise (the periodic drive check) a device is asked only
 * when udev knows nothing of it, so the check does not wake sleeping disks.
 */
export async function listBlockDevicesProbed(options: { readEveryDevice?: boolean } = {}): Promise<BlockDevice[]> {
  if (process.platform !== 'linux') return listBlockDevices();
  return Promise.all(
    (await listBlockDevices()).map(async (d) => {
      if (d.size === 0 || (!options.readEveryDevice && d.fstype !== null && d.uuid !== null)) return d;
      const probe = await probeFilesystem(d.path);
      return probe ? { ...d, fstype: probe.filesystem, label: probe.label, uuid: probe.uuid } : d;
    }),
  );
}

/**
 * What is on a device now, read from the device itself (not a cache): its file system, label
 * and UUID, all null when nothing is recognisable on it. Null when the device cannot be read
 * (a server not running as root may not open disks).
 */
export async function probeFilesystem(device: string): Promise<FilesystemProbe | null> {
  try {
    const out = await runCommand('blkid', ['-p', '-o', 'export', '--', device]);
    const fields = Object.fromEntries(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
    return { filesystem: fields.TYPE ?? null, label: fields.LABEL ?? null, uuid: fields.UUID ?? null };
  } catch (error) {
    // blkid exits 2 and prints nothing when it finds nothing (an empty or unknown device); an
    // unreadable device exits 2 too, with an error on stderr.
    if (error instanceof CommandError && error.exitCode === 2 && error.stderr.trim() === '')
      return { filesystem: null, label: null, uuid: null };
    return null;
  }
}

export type FilesystemKind = 'ext4' | 'exfat';

/**
 * The program that makes each file system, and where to get it. e2fsprogs comes with every
 * Linux; exfatprogs often does not (a minimal Debian, a server install).
 */
export const MKFS: Record<FilesystemKind, { tool: string; debianPackage: string; name: string }> = {
  ext4: { tool: 'mkfs.ext4', debianPackage: 'e2fsprogs', name: 'ext4' },
  exfat: { tool: 'mkfs.exfat', debianPackage: 'exfatprogs', name: 'exFAT' },
};

export const FILESYSTEMS = Object.keys(MKFS) as FilesystemKind[];

/** Writes a new, empty file system. Destroys what was there: callers check every rule first. */
export async function makeFilesystem(device: string, filesystem: FilesystemKind, label: string | null): Promise<void> {
  // `--` before every positional argument, here and in every OS command: whatever a device
  // path or a label looks like, it is never read as an option.
  if (filesystem === 'ext4') {
    await runCommand(MKFS.ext4.tool, ['-F', '-q', ...(label ? ['-L', label] : []), '--', device], 10 * 60_000);
  } else {
    await runCommand(MKFS.exfat.tool, [...(label ? ['-L', label] : []), '--', device], 10 * 60_000);
  }
}

/**
 * Whether udisks2 can make a file system here (it runs the same mkfs tools, which may be
 * missing): its Manager's CanFormat. Null when udisks cannot say (before udisks 2.7.2).
 */
export async function udisksCanFormat(busctl: string, filesystem: FilesystemKind): Promise<boolean | null> {
  try {
    const out = await runCommand(busctl, [
      'call',
      '--system',
      '--',
      'org.freedesktop.UDisks2',
      '/org/freedesktop/UDisks2/Manager',
      'org.freedesktop.UDisks2.Manager',
      'CanFormat',
      's',
      filesystem,
    ]);
    return parseCanFormat(out);
  } catch {
    return null;
  }
}

/** busctl prints CanFormat's answer `(bs)` as `bs true ""` or `bs false "mkfs.exfat"`. */
export function parseCanFormat(out: string): boolean | null {
  const match = /^bs (true|false) /.exec(out.trim());
  return match ? match[1] === 'true' : null;
}

/**
 * Writes a new file system through udisks2, so the server needs no root: udisksctl has no
 * format command, so udisks' D-Bus method Block.Format is called with busctl, whose typed
 * arguments go as separate words (a label needs no quoting). udisks wipes the old signatures
 * and waits until the new file system is seen before it answers.
 */
export async function formatWithUdisks(
  tools: { udisksctl: string; busctl: string },
  device: string,
  filesystem: FilesystemKind,
  label: string | null,
): Promise<void> {
  const objectPath = udisksObjectPath(await runCommand(tools.udisksctl, ['info', '-b', device]));
  if (!objectPath) throw new Error(`udisks2 does not know ${device}`);
  await runCommand(tools.busctl, udisksFormatArguments(objectPath, filesystem, label), 10 * 60_000);
}

/**
 * busctl's arguments for udisks' Block.Format. The label is a positional argument of busctl:
 * without the `--` a label `-h` was read as busctl's own option, which printed its help and
 * exited 0, a format that never ran reported as done.
 */
export function udisksFormatArguments(objectPath: string, filesystem: FilesystemKind, label: string | null): string[] {
  const options = [...(label ? ['label', 's', label] : []), 'auth.no_user_interaction', 'b', 'true'];
  return [
    'call',
    '--system',
    '--timeout=600',
    '--',
    'org.freedesktop.UDisks2',
    objectPath,
    'org.freedesktop.UDisks2.Block',
    'Format',
    'sa{sv}',
    filesystem,
    String(options.length / 3),
    ...options,
  ];
}

/** The object path `udisksctl info -b` starts with: "/org/freedesktop/UDisks2/block_devices/sdb1:". */
export function udisksObjectPath(info: string): string | null {
  const first =
    info
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  return /^\/org\/freedesktop\/UDisks2\/block_devices\/\w+:$/.test(first) ? first.slice(0, -1) : null;
}
