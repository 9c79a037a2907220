import { runCommand } from './run.ts';

/** A block device as lsblk reports it. */
export interface BlockDevice {
  name: string;
  path: string;
  size: number;
  model: string | null;
  removable: boolean;
  type: string;
  fstype: string | null;
  label: string | null;
  uuid: string | null;
  mountpoints: string[];
  parent: string | null;
}

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
  const out = await runCommand('lsblk', ['-J', '-b', '-o', 'NAME,PATH,SIZE,MODEL,RM,TYPE,FSTYPE,LABEL,UUID,MOUNTPOINTS,PKNAME']);
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
    });
    for (const child of entry.children ?? []) walk(child, entry.name);
  };
  for (const entry of parsed.blockdevices) walk(entry, null);
  return flat;
}

export interface FilesystemProbe {
  filesystem: string | null;
  label: string | null;
  uuid: string | null;
}

/**
 * Every block device with its file system, label and UUID. lsblk learns those from udev,
 * which may not know them (containers, a fresh format): then the device itself is asked.
 */
export async function listBlockDevicesProbed(): Promise<BlockDevice[]> {
  return Promise.all(
    (await listBlockDevices()).map(async (d) => {
      if ((d.fstype !== null && d.uuid !== null) || d.size === 0) return d;
      const probe = await probeFilesystem(d.path);
      return { ...d, fstype: probe.filesystem, label: probe.label, uuid: probe.uuid };
    }),
  );
}

/** What is on a device now, read from the device itself (not a cache): its file system, label and UUID. */
export async function probeFilesystem(device: string): Promise<FilesystemProbe> {
  try {
    const out = await runCommand('blkid', ['-p', '-o', 'export', device]);
    const fields = Object.fromEntries(out.split('\n').filter(Boolean).map((line) => line.split(/=(.*)/s).slice(0, 2)));
    return { filesystem: fields.TYPE ?? null, label: fields.LABEL ?? null, uuid: fields.UUID ?? null };
  } catch {
    // blkid exits 2 when it finds nothing: an empty or unknown device.
    return { filesystem: null, label: null, uuid: null };
  }
}

export type FilesystemKind = 'ext4' | 'exfat';

/** Writes a new, empty file system. Destroys what was there: callers check every rule first. */
export async function makeFilesystem(device: string, filesystem: FilesystemKind, label: string | null): Promise<void> {
  if (filesystem === 'ext4') {
    await runCommand('mkfs.ext4', ['-F', '-q', ...(label ? ['-L', label] : []), device], 10 * 60_000);
  } else {
    await runCommand('mkfs.exfat', [...(label ? ['-L', label] : []), device], 10 * 60_000);
  }
}
