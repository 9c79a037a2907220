import type { BlockDevice } from './block-device.ts';

/** One entry of systeminformation's blockDevices() (its Systeminformation.BlockDevicesData). */
export interface SiBlockDevice {
  name: string;
  identifier: string;
  type: string;
  fsType: string;
  mount: string;
  size: number | string;
  physical: string;
  uuid: string;
  label: string;
  model: string;
  removable: boolean;
  device?: string;
}

/** What is not a disk of this PC: optical drives, network shares, RAM disks, unknown kinds. */
const NOT_LOCAL = new Set(['CD/DVD', 'Network', 'RAM', 'NoRoot', 'Unknown']);

/**
 * The disks of a Windows or macOS PC, from systeminformation (PowerShell's Win32_LogicalDisk,
 * macOS's `diskutil info -all`), in the shape lsblk gives on Linux, so the drive page lists
 * them the same way. Windows lists volumes (C:, E:), macOS disks and their partitions
 * (disk2, disk2s1; APFS volumes nest one level more: disk3s1s1).
 */
export function blockDevicesFromSysteminformation(entries: SiBlockDevice[], platform: NodeJS.Platform): BlockDevice[] {
  return entries
    .filter((e) => !NOT_LOCAL.has(e.physical) && e.type !== 'virtual')
    .map((e) => {
      const windows = platform === 'win32';
      // An id that is safe in a URL path: "C:" becomes "C".
      const name = (windows ? e.name || e.identifier : e.identifier || e.name.replace(/^\/dev\//, '')).replace(/[^A-Za-z0-9._-]/g, '');
      const parent = windows ? null : (/^(disk\d+(?:s\d+)*)s\d+$/.exec(name)?.[1] ?? null);
      return {
        name,
        path: windows ? e.name || e.identifier : e.name || `/dev/${name}`,
        size: Number(e.size) || 0,
        model: e.model?.trim() || null,
        removable: e.removable === true,
        type: e.type === 'part' ? 'part' : 'disk',
        fstype: e.fsType ? e.fsType.toLowerCase() : null,
        label: e.label?.trim() || null,
        uuid: e.uuid?.trim() || null,
        mountpoints: e.mount ? [e.mount] : [],
        parent,
      };
    });
}

/** Lists the disks through systeminformation (loaded only off Linux, where lsblk does it). */
export async function listBlockDevicesOther(platform: NodeJS.Platform = process.platform): Promise<BlockDevice[]> {
  const si = await import('systeminformation');
  return blockDevicesFromSysteminformation((await si.blockDevices()) as SiBlockDevice[], platform);
}
