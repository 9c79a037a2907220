import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { Drive, DriveDetail, DrivesResponse, FormatResponse, Library } from '../../contract/storage-responses.ts';
import { readDriveContents } from './drive-contents.ts';
import { listBlockDevicesProbed, probeFilesystem, type BlockDevice, type FilesystemKind } from '../../platform/drives.ts';
import { isNetworkFs, mountOf } from '../../platform/mounts.ts';
import { findExecutable } from '../../platform/run.ts';
import { holdsContent } from '../../store/content/content-stores.ts';
import { readMarker } from '../../store/content/library-marker.ts';
import { parseMountSpec, type LibraryRow, type MountedMember, type MountSpec } from '../../store/database/libraries.repo.ts';
import { LIBRARY_FOLDER, type DriveMounts } from './drive-mounts.ts';
import type { LibraryService } from './libraries.ts';
import { checkedName } from './library-inputs.ts';
import { newId } from '../common/secrets.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';

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

  constructor(
    private readonly deps: ServiceDeps,
    private readonly libraries: LibraryService,
    private readonly mounts: DriveMounts,
  ) {}

  async list(actor: Actor): Promise<DrivesResponse> {
    requireAdmin(actor);
    return {
      items: await this.drives(),
      helper_available: await this.mounts.helperAvailable(),
      capabilities: await this.mounts.capabilities(),
    };
  }

  /**
   * One drive, with what is on it from a read-only look (the erase dialog shows it before
   * anything is destroyed). The look waits for a mount change in progress, never runs beside one.
   */
  async get(actor: Actor, id: string): Promise<DriveDetail> {
    requireAdmin(actor);
    return this.mounts.serially(async () => {
      const { drive, devices } = await this.find(id);
      const mayMount = process.platform === 'linux' && process.getuid?.() === 0;
      return { ...drive, contents: await readDriveContents(devices, drive.id, mayMount) };
    });
  }

  async format(actor: Actor, id: string, input: FormatInput): Promise<FormatResponse> {
    requireAdmin(actor);
    return this.exclusively(async () => {
      const { drive, devices } = await this.find(id);
      // Every refusal comes before anything touches the device.
      if (input.confirmation !== `FORMAT ${drive.device}`)
        throw new AppError('confirmation_mismatch', undefined, { field: 'confirmation' });
      if (drive.system) throw new AppError('system_drive');
      if (drive.library_id !== null) throw new AppError('drive_in_use');
      const label = input.label?.trim() || null;
      if (label !== null && (Buffer.byteLength(label) > LABEL_LIMITS[input.filesystem] || !/^[\w .-]+$/.test(label))) {
        throw new AppError(
          'invalid_input',
          `A ${input.filesystem} label is up to ${LABEL_LIMITS[input.filesystem]} letters, digits, spaces, dots or dashes.`,
          { field: 'label' },
        );
      }
      // A tool that read a label `-h` as an option reported a format that never ran.
      if (label?.startsWith('-')) throw new AppError('invalid_input', 'A label cannot start with a dash.', { field: 'label' });
      const can = (await this.mounts.capabilities()).format;
      if (!can.available) throw new AppError('helper_unavailable', can.reason);
      const kind = can.filesystems.find((f) => f.name === input.filesystem);
      if (!kind?.available) throw new AppError('filesystem_unavailable', kind?.reason, { field: 'filesystem' });
      // A server without root may not read the disk itself: udev's record is the next best account.
      const previous = (await probeFilesystem(drive.device)) ?? { filesystem: drive.filesystem, label: drive.label, uuid: drive.uuid };
      for (const device of [drive.device, ...descendants(devices, drive.id).map((d) => d.path)]) {
        const mounted = devices.find((d) => d.path === device)?.mountpoints ?? [];
        for (const mountPoint of mounted) {
          const mount = mountOf(mountPoint);
          if (!mount) continue;
          await this.mounts.unmount(mount).catch((error: unknown) => {
            throw error instanceof AppError ? error : new AppError('drive_busy');
          });
        }
      }
      this.deps.log.warn('formatting a drive', { device: drive.device, filesystem: input.filesystem });
      await this.mounts.format(drive.device, input.filesystem, label);
      const after = (await this.drives()).find((d) => d.id === drive.id) ?? drive;
      const now = await probeFilesystem(drive.device);
      const result = now ? { ...after, filesystem: now.filesystem, label: now.label, uuid: now.uuid } : after;
      // A new file system has a new UUID. The same one (or none) means the format did not
      // happen, whatever the tool answered: the owner must not be told the drive is empty.
      if (result.uuid === null || result.uuid === previous.uuid || result.filesystem !== input.filesystem) {
        this.deps.log.error('a format reported success but the drive did not change', { device: drive.device });
        throw new AppError('format_failed');
      }
      return { drive: result, previous };
    });
  }

  /**
   * Mounts a drive (unless it is mounted already) and makes its `Hearth` folder a library.
   * The rest of the drive is left as it is. A drive that was a library of this server, then
   * ejected, brings that same library back with its files.
   */
  async mount(actor: Actor, id: string, input: { name?: string | undefined; make_default?: boolean | undefined }): Promise<Library> {
    requireAdmin(actor);
    const name = input.name === undefined ? undefined : checkedName(input.name);
    return this.exclusively(async () => {
      const { drive, devices } = await this.find(id);
      // A library whose drive is plugged in again but not yet mounted comes back rather than being refused.
      const existing = drive.library_id === null ? undefined : this.deps.store.libraries.byId(drive.library_id);
      const comesBack = existing !== undefined && existing.kind !== 'pooled' && !this.libraries.isOnline(existing.id);
      const device = this.checkedMember(comesBack ? { ...drive, library_id: null } : drive, devices, 'already_registered');
      if (!(await this.mounts.helperAvailable())) throw new AppError('helper_unavailable');
      const member = await this.mounts.mountMember(device);
      const folder = path.join(member.mount_point, LIBRARY_FOLDER);
      try {
        const spec: MountSpec = { kind: 'drive', member };
        const known = this.knownLibrary(folder);
        if (known && this.deps.store.libraries.byId(known)?.kind === 'pooled') {
          throw new AppError(
            'drive_in_use',
            "This drive is part of a pool; plug in all of the pool's drives and it comes back on its own.",
          );
        }
        if (known) return await this.libraries.reattach(known, folder, spec, input.make_default === true);
        const kind = isNetworkFs(mountOf(folder)?.fsType ?? '') ? 'network' : 'external';
        return await this.libraries.add({
          name: name ?? defaultName(drive),
          kind,
          path: folder,
          spec,
          makeDefault: input.make_default === true,
        });
      } catch (error) {
        await this.mounts.release([member]).catch(() => {});
        throw error;
      }
    });
  }

  /** Combines drives into one library with mergerfs: new files go to the drive with the most room. */
  async pool(actor: Actor, input: { name: string; drive_ids: string[]; make_default?: boolean | undefined }): Promise<Library> {
    requireAdmin(actor);
    const name = checkedName(input.name);
    if (new Set(input.drive_ids).size !== input.drive_ids.length)
      throw new AppError('invalid_input', 'Each drive is named once.', { field: 'drive_ids' });
    const capability = (await this.mounts.capabilities()).pool;
    if (!capability.available)
      throw new AppError(findExecutable('mergerfs') ? 'helper_unavailable' : 'pool_unavailable', capability.reason);
    return this.exclusively(async () => {
      const devices = await listBlockDevicesProbed({ readEveryDevice: true });
      const drives = this.toDrives(devices);
      const chosen = input.drive_ids.map((id) => {
        const drive = drives.find((d) => d.id === id);
        if (!drive) throw new AppError('not_found', `There is no drive ${id}.`, { field: 'drive_ids' });
        return drive;
      });
      for (const drive of chosen) {
        const related = chosen.some((other) => other !== drive && isWithin(devices, drive.id, other.id));
        if (related)
          throw new AppError('invalid_input', 'A drive and one of its own partitions cannot be pooled together.', { field: 'drive_ids' });
      }
      const members = chosen.map((drive) => this.checkedMember(drive, devices, 'drive_in_use'));
      const mounted: MountedMember[] = [];
      const libraryId = newId();
      const libraryMount = path.join(this.mounts.serverRoot(), `pool-${libraryId}`);
      try {
        for (const device of members) {
          const member = await this.mounts.mountMember(device);
          mounted.push(member);
          if (this.knownLibrary(path.join(member.mount_point, LIBRARY_FOLDER)) !== null)
            throw new AppError('drive_in_use', 'A drive holds a library of this server already: mount it instead.');
        }
        const minFree = minFreeBytes(members.map((d) => d.size));
        await this.mounts.mountPool(mounted, libraryMount, minFree);
        const spec: MountSpec = { kind: 'pool', mount_point: libraryMount, min_free_bytes: minFree, members: mounted };
        return await this.libraries.add({
          id: libraryId,
          name,
          kind: 'pooled',
          path: libraryMount,
          spec,
          makeDefault: input.make_default === true,
        });
      } catch (error) {
        await this.mounts.release(mounted, libraryMount).catch(() => {});
        throw error;
      }
    });
  }

  /** One drive operation at a time: two at once on the same disks could destroy data. */
  private async exclusively<T>(operation: () => Promise<T>): Promise<T> {
    if (this.operationRunning) throw new AppError('drive_operation_running');
    this.operationRunning = true;
    try {
      return await this.mounts.serially(operation);
    } finally {
      this.operationRunning = false;
    }
  }

  /** A drive that may hold a library: not the system's, not in use by one, with a file system. */
  private checkedMember(drive: Drive, devices: BlockDevice[], inUse: 'already_registered' | 'drive_in_use'): BlockDevice {
    if (drive.system) throw new AppError('system_drive', "This drive holds the operating system or the server's data.");
    if (drive.library_id !== null) throw new AppError(inUse);
    const device = devices.find((d) => d.name === drive.id)!;
    if (!device.fstype || !device.uuid) {
      const partitioned = descendants(devices, device.name).some((d) => d.fstype);
      throw new AppError('no_filesystem', partitioned ? "Choose one of the drive's partitions." : undefined);
    }
    if (device.fstype === 'swap' || device.fstype.endsWith('_member') || device.fstype === 'crypto_LUKS') {
      throw new AppError('no_filesystem', `The drive holds ${device.fstype}, not a file system for files.`);
    }
    return device;
  }

  /** The library a folder's marker names, if this server knows it; a marker from another server is refused. */
  private knownLibrary(folder: string): string | null {
    const marked = readMarker(folder)?.id ?? null;
    if (marked === null) return null;
    if (this.deps.store.libraries.byId(marked)) return marked;
    // Another server's library, or one this server removed: a new library may take it over only when nothing is left in it.
    if (holdsContent(folder)) throw new AppError('foreign_library');
    return null;
  }

  private async find(id: string): Promise<{ drive: Drive; devices: BlockDevice[] }> {
    const devices = await listBlockDevicesProbed({ readEveryDevice: true });
    const drive = this.toDrives(devices).find((d) => d.id === id);
    if (!drive) throw new AppError('not_found');
    return { drive, devices };
  }

  private async drives(): Promise<Drive[]> {
    return this.toDrives(await listBlockDevicesProbed({ readEveryDevice: true }));
  }

  private toDrives(devices: BlockDevice[]): Drive[] {
    const candidates = devices.filter(
      (d) =>
        d.size > 0 && !NOT_DRIVES.has(d.type) && !d.name.startsWith('zram') && (d.type !== 'loop' || this.deps.config.includeLoopDevices),
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
      const library = libraries.find(
        (l) =>
          mounts.some((m) => l.path === m || l.path.startsWith(m.endsWith('/') ? m : `${m}/`)) ||
          // A pool's members, and a mounted drive while it is away, are known by their file system.
          (device.uuid !== null && memberUuids(l).includes(device.uuid)),
      );
      return {
        id: device.name,
        device: device.path,
        description: describe(device),
        model: device.model,
        vendor: device.vendor ?? disk.vendor ?? null,
        transport: device.transport ?? disk.transport ?? null,
        kind: device.type === 'part' ? 'partition' : device.type === 'loop' ? 'image' : 'disk',
        size: device.size,
        removable: device.removable,
        system,
        in_use: mounts.length > 0,
        usable: !system && library === undefined,
        mountpoints: mounts,
        filesystem: device.fstype,
        label: device.label,
        uuid: device.uuid,
        library_id: library?.id ?? null,
      };
    });
  }
}

function memberUuids(library: LibraryRow): string[] {
  const spec = parseMountSpec(library);
  if (!spec) return [];
  return (spec.kind === 'drive' ? [spec.member] : spec.members).map((m) => m.uuid);
}

/** A pool branch with less room than this takes no new files: 2% of the smallest drive, within 1 MiB to 4 GiB. */
function minFreeBytes(sizes: number[]): number {
  return Math.min(4 * 1024 ** 3, Math.max(1024 ** 2, Math.floor(Math.min(...sizes) * 0.02)));
}

function isWithin(devices: BlockDevice[], name: string, ancestor: string): boolean {
  return descendants(devices, ancestor).some((d) => d.name === name);
}

function defaultName(drive: Drive): string {
  return (drive.label ?? drive.model ?? `Drive ${drive.id}`).slice(0, 64);
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
  const kind =
    device.type === 'part' ? 'Partition' : device.removable ? 'Removable drive' : device.type === 'loop' ? 'Disk image' : 'Drive';
  return (
    [kind, device.model, size, device.label ? `"${device.label}"` : null].filter(Boolean).join(', ') + ` (${path.basename(device.path)})`
  );
}
