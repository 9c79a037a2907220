import path from 'node:path';
import type { DriveDto } from '../contract/dto.ts';
import { AppError } from '../errors.ts';
import { listBlockDevices, makeFilesystem, probeFilesystem, type BlockDevice, type FilesystemKind } from '../platform/drives.ts';
import { mountOf, unmount } from '../platform/mounts.ts';
import type { Actor, ServiceDeps } from './context.ts';
import { requireAdmin } from './settings.ts';

export interface FormatInput {
  filesystem: FilesystemKind;
  label?: string | undefined;
  confirmation: string;
}

const LABEL_LIMITS: Record<FilesystemKind, number> = { ext4: 16, exfat: 11 };
const NOT_DRIVES = new Set(['rom', 'ram']);

/**
 * The owner's disks: what is plugged in, and preparing a new one. Formatting destroys data,
 * so it takes the exact phrase `FORMAT <device>`, never touches the drive of the operating
 * system or of the server's data, nor one whose library is in use, and runs one at a time.
 */
export class DriveService {
  private operationRunning = false;

  constructor(private readonly deps: ServiceDeps) {}

  async list(actor: Actor): Promise<{ items: DriveDto[]; helper_available: boolean; capabilities: Capabilities }> {
    requireAdmin(actor);
    return { items: await this.drives(), helper_available: privileged(), capabilities: capabilities() };
  }

  async format(actor: Actor, id: string, input: FormatInput): Promise<{ drive: DriveDto; previous: { filesystem: string | null; label: string | null } }> {
    requireAdmin(actor);
    if (this.operationRunning) throw new AppError('drive_operation_running');
    this.operationRunning = true;
    try {
      const { drive, devices } = await this.find(id);
      // Every refusal comes before anything touches the device.
      if (input.confirmation !== `FORMAT ${drive.device}`) throw new AppError('confirmation_mismatch', undefined, { field: 'confirmation' });
      if (drive.system) throw new AppError('system_drive');
      if (drive.library_id !== null) throw new AppError('drive_in_use');
      const label = input.label?.trim() || null;
      if (label !== null && (Buffer.byteLength(label) > LABEL_LIMITS[input.filesystem] || !/^[\w .-]+$/.test(label))) {
        throw new AppError('invalid_input', `A ${input.filesystem} label is up to ${LABEL_LIMITS[input.filesystem]} letters, digits, spaces, dots or dashes.`, { field: 'label' });
      }
      const previous = await probeFilesystem(drive.device);
      for (const device of [drive.device, ...descendants(devices, drive.id).map((d) => d.path)]) {
        const mounted = devices.find((d) => d.path === device)?.mountpoints ?? [];
        for (const mountPoint of mounted) {
          const mount = mountOf(mountPoint);
          if (!mount) continue;
          await unmount(mount).catch(() => {
            throw new AppError('drive_busy');
          });
        }
      }
      this.deps.log.warn('formatting a drive', { device: drive.device, filesystem: input.filesystem });
      await makeFilesystem(drive.device, input.filesystem, label);
      const after = (await this.drives()).find((d) => d.id === drive.id) ?? drive;
      return { drive: { ...after, ...(await probeFilesystem(drive.device)) }, previous };
    } finally {
      this.operationRunning = false;
    }
  }

  private async find(id: string): Promise<{ drive: DriveDto; devices: BlockDevice[] }> {
    const devices = await this.withFilesystems(await listBlockDevices());
    const drive = this.toDrives(devices).find((d) => d.id === id);
    if (!drive) throw new AppError('not_found');
    return { drive, devices };
  }

  private async drives(): Promise<DriveDto[]> {
    return this.toDrives(await this.withFilesystems(await listBlockDevices()));
  }

  /** lsblk learns file systems from udev, which may not know them (containers, fresh formats): ask the device. */
  private async withFilesystems(devices: BlockDevice[]): Promise<BlockDevice[]> {
    return Promise.all(
      devices.map(async (d) => (d.fstype !== null || d.size === 0 ? d : { ...d, ...renameProbe(await probeFilesystem(d.path)) })),
    );
  }

  private toDrives(devices: BlockDevice[]): DriveDto[] {
    const candidates = devices.filter(
      (d) => d.size > 0 && !NOT_DRIVES.has(d.type) && !d.name.startsWith('zram') && (d.type !== 'loop' || this.deps.config.includeLoopDevices),
    );
    const systemPaths = new Set(this.deps.config.systemPaths);
    const dataMount = mountOf(this.deps.config.dataDir)?.mountPoint;
    const libraries = this.deps.store.libraries.all().filter((l) => l.kind !== 'internal' && l.status !== 'ejected');
    return candidates.map((device) => {
      // A drive is the whole disk: what holds the system on one partition makes all of it the system's.
      const disk = rootOf(devices, device);
      const family = [disk, ...descendants(devices, disk.name)];
      const own = [device, ...descendants(devices, device.name)];
      const mounts = own.flatMap((d) => d.mountpoints);
      const system = family.some((d) => d.mountpoints.some((m) => systemPaths.has(m) || m === dataMount));
      const library = libraries.find((l) => mounts.some((m) => l.path === m || l.path.startsWith(m.endsWith('/') ? m : `${m}/`)));
      return {
        id: device.name,
        device: device.path,
        description: describe(device),
        model: device.model,
        size: device.size,
        removable: device.removable,
        system,
        in_use: mounts.length > 0,
        usable: !system && library === undefined,
        mountpoints: mounts,
        filesystem: device.fstype,
        label: device.label,
        library_id: library?.id ?? null,
      };
    });
  }
}

interface Capabilities {
  format: { available: boolean; reason?: string };
}

function privileged(): boolean {
  return process.getuid?.() === 0;
}

function capabilities(): Capabilities {
  return privileged()
    ? { format: { available: true } }
    : { format: { available: false, reason: 'Formatting needs administrator rights: run the server as root or with its privileged helper.' } };
}

function rootOf(devices: BlockDevice[], device: BlockDevice): BlockDevice {
  let current = device;
  for (let i = 0; i < 8 && current.parent; i++) {
    const parent = devices.find((d) => d.name === current.parent);
    if (!parent) break;
    current = parent;
  }
  return current;
}

function descendants(devices: BlockDevice[], name: string): BlockDevice[] {
  const children = devices.filter((d) => d.parent === name);
  return children.flatMap((child) => [child, ...descendants(devices, child.name)]);
}

function renameProbe(probe: { filesystem: string | null; label: string | null }): { fstype: string | null; label: string | null } {
  return { fstype: probe.filesystem, label: probe.label };
}

function humanSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

function describe(device: BlockDevice): string {
  const size = humanSize(device.size);
  const kind = device.type === 'part' ? 'Partition' : device.removable ? 'Removable drive' : device.type === 'loop' ? 'Disk image' : 'Drive';
  return [kind, device.model, size, device.label ? `"${device.label}"` : null].filter(Boolean).join(', ') + ` (${path.basename(device.path)})`;
}
