import type { Drive } from './queries.ts';

/*
 * A drive in a parent's words first ("USB drive, 64 GB, SanDisk", "The computer's own disk");
 * what Linux calls it (/dev/sdb, ext4, mount points) is kept for the details.
 */

/** A drive's size as its box says it: makers count 1 GB as 1,000,000,000 bytes. */
export function driveSize(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 && unit > 0 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

const INSIDE = new Set(['sata', 'ata', 'nvme', 'scsi', 'sas', 'virtio', 'mmc']);

/** What sort of drive it is: "USB drive", "Disk inside this PC", "Disk image". */
export function driveKind(drive: Drive): string {
  if (drive.system) return drive.kind === 'partition' ? "Part of the computer's own disk" : "The computer's own disk";
  if (drive.kind === 'image') return 'Disk image';
  const transport = drive.transport?.toLowerCase() ?? null;
  const what =
    transport === 'usb' || drive.removable ? 'USB drive' : transport !== null && INSIDE.has(transport) ? 'Disk inside this PC' : 'Drive';
  return drive.kind === 'partition' ? `Part of a ${what.charAt(0).toLowerCase()}${what.slice(1)}` : what;
}

/** Who made it and which it is, without saying the maker twice ("SanDisk Ultra"). */
export function driveMaker(drive: Drive): string | null {
  const vendor = drive.vendor && !/^0x[0-9a-f]+$/i.test(drive.vendor) ? drive.vendor : null;
  const model = drive.model;
  if (vendor && model) return model.toLowerCase().includes(vendor.toLowerCase()) ? model : `${vendor} ${model}`;
  return model ?? vendor;
}

/** "USB drive, 64 GB, SanDisk Ultra": the kind, the size as its box says it, the maker. */
export function driveDescription(drive: Drive): string {
  return [driveKind(drive), driveSize(drive.size), driveMaker(drive)].filter(Boolean).join(', ');
}

/** The line under the name: what it is when the name is its label, its size (and maker) when the name says what it is. */
export function driveSubtitle(drive: Drive): string | null {
  if (drive.system) return [driveSize(drive.size), driveMaker(drive)].filter(Boolean).join(', ');
  return drive.label === null ? null : driveDescription(drive);
}

/** The drive's name in headings and buttons: the label the family gave it, else what it is. */
export function driveName(drive: Drive): string {
  if (drive.system) return driveKind(drive);
  return drive.label ?? driveDescription(drive);
}

/** What the drive holds, in one sentence. */
export function driveState(drive: Drive, libraryName: string | null): string {
  if (drive.system) return 'This PC runs from it, and Hearth keeps its own data on it, so Hearth never erases it.';
  if (libraryName !== null) return `Hearth keeps family files on it (${libraryName}).`;
  if (drive.filesystem === null && drive.mountpoints.length === 0) return 'It is not prepared for files yet: erase it to prepare it.';
  if (drive.mountpoints.length === 0) return 'It holds files of its own. Hearth can keep family files beside them, in a folder of its own.';
  return 'It is open on this PC and holds files of its own. Hearth can keep family files beside them, in a folder of its own.';
}

/** The file system as a technician names it; a drive in use whose type is not recognised is not "none". */
export function filesystemWords(drive: Pick<Drive, 'filesystem' | 'mountpoints'>): string {
  if (drive.filesystem) return drive.filesystem;
  return drive.mountpoints.length > 0 ? 'In use, type not recognised' : 'None found';
}
