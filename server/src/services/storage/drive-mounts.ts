import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import type { BlockDevice, FilesystemKind } from '../../platform/drives.ts';
import {
  FILESYSTEMS,
  MKFS,
  formatWithUdisks,
  listBlockDevicesProbed,
  lsblkInstalled,
  makeFilesystem,
  udisksCanFormat,
} from '../../platform/drives.ts';
import {
  isMountPoint,
  listMounts,
  mountDevice,
  mountPool,
  mountWithUdisks,
  udisksServiceAnswers,
  unmountDirect,
  unmountRefusedForRights,
  unmountWithUdisks,
  type MountEntry,
} from '../../platform/mounts.ts';
import { commandMissing, findExecutable } from '../../platform/run.ts';
import type { MountedMember, MountSpec } from '../../store/database/libraries.repo.ts';
import type { ServiceDeps } from '../common/context.ts';

/** A busy unmount is tried this many times, this far apart (about a second in all), before it is reported busy. */
const UNMOUNT_ATTEMPTS = 5;
const UNMOUNT_RETRY_MS = 250;

/** The folder on each drive that holds the server's files: the rest of the drive stays the owner's. */
export const LIBRARY_FOLDER = 'Hearth';

export interface Capability {
  available: boolean;
  reason?: string;
}

/** A file system an erase can write, and why not when this PC lacks its tool. */
export interface FilesystemCapability extends Capability {
  name: FilesystemKind;
}

export interface DriveCapabilities {
  format: Capability & { filesystems: FilesystemCapability[] };
  mount: Capability;
  pool: Capability;
}

/**
 * How the server changes drives: by itself when it runs as root, otherwise through udisks2,
 * as the desktop does for a USB disk; null when it can do neither.
 */
type DriveTools = { kind: 'direct' } | { kind: 'udisks'; udisksctl: string; busctl: string | null } | null;

const UDISKS_RECHECK_MS = 10_000;

/**
 * How the server mounts, unmounts, formats and pools drives on this machine, and brings them
 * back after a reboot or a replug. As root it mounts under `<mounts root>/hearth`; through
 * udisks2, udisks picks the mount point (under /media/<user>).
 */
export class DriveMounts {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Runs mount changes one after another: the drive check must not mount a drive again
   * while an eject is unmounting it, nor while a format is erasing it.
   */
  serially<T>(change: () => Promise<T>): Promise<T> {
    const result = this.tail.then(change);
    this.tail = result.catch(() => {});
    return result;
  }

  private udisksCheck: { answers: boolean; at: number } | null = null;

  private async tools(): Promise<DriveTools> {
    if (isRoot() && this.deps.config.driveTools !== 'udisks') return { kind: 'direct' };
    const udisksctl = findExecutable('udisksctl');
    if (!udisksctl || !(await this.udisksAnswers(udisksctl))) return null;
    return { kind: 'udisks', udisksctl, busctl: findExecutable('busctl') };
  }

  /**
   * Installed is not enough: without a system D-Bus (a container, a minimal server) udisksctl
   * is there and its service is not. Asked again after UDISKS_RECHECK_MS, so a service
   * started later is noticed.
   */
  private async udisksAnswers(udisksctl: string): Promise<boolean> {
    const now = Date.now();
    if (this.udisksCheck === null || now - this.udisksCheck.at > UDISKS_RECHECK_MS) {
      this.udisksCheck = { answers: await udisksServiceAnswers(udisksctl), at: now };
    }
    return this.udisksCheck.answers;
  }

  async capabilities(): Promise<DriveCapabilities> {
    if (process.platform !== 'linux') return linuxOnlyCapabilities(process.platform);
    if (!lsblkInstalled()) {
      const reason = 'Hearth finds drives with lsblk, which is not installed on this PC: install util-linux (sudo apt install util-linux).';
      return { format: unavailableFormat(reason), mount: { available: false, reason }, pool: { available: false, reason } };
    }
    const tools = await this.tools();
    const udisksSilent = tools === null && findExecutable('udisksctl') !== null;
    const withoutRoot = udisksSilent
      ? 'udisks2 is installed but its service does not answer (is udisks2.service running?)'
      : 'install udisks2';
    const mergerfs = findExecutable('mergerfs') !== null;
    const fuse = findExecutable('fusermount3') !== null || findExecutable('fusermount') !== null;
    return {
      format:
        tools?.kind === 'direct' || (tools?.kind === 'udisks' && tools.busctl !== null)
          ? { available: true, filesystems: await this.filesystems(tools) }
          : unavailableFormat(
              `Formatting needs udisks2 with busctl (systemd), or administrator rights: ${withoutRoot}, or run the server as root.`,
            ),
      mount: tools
        ? { available: true }
        : { available: false, reason: `Mounting needs udisks2 or administrator rights: ${withoutRoot}, or run the server as root.` },
      pool: !mergerfs
        ? { available: false, reason: 'Pooling drives needs mergerfs: install it (sudo apt install mergerfs).' }
        : !(tools?.kind === 'direct' || (tools?.kind === 'udisks' && fuse && this.poolRootWritable()))
          ? {
              available: false,
              reason: `Pooling needs administrator rights, or udisks2 with fuse3 and a mounts folder the server can write to (${this.serverRoot()}).`,
            }
          : { available: true },
    };
  }

  /**
   * Which file systems this PC can make: as root, those whose mkfs tool is installed; through
   * udisks2, those udisks says it can make (it runs the same tools).
   */
  private async filesystems(tools: Exclude<DriveTools, null>): Promise<FilesystemCapability[]> {
    return Promise.all(
      FILESYSTEMS.map(async (name): Promise<FilesystemCapability> => {
        const can =
          tools.kind === 'direct'
            ? findExecutable(MKFS[name].tool) !== null
            : tools.busctl === null
              ? false
              : ((await udisksCanFormat(tools.busctl, name)) ?? true);
        return can ? { name, available: true } : { name, available: false, reason: cannotMake(name) };
      }),
    );
  }

  async helperAvailable(): Promise<boolean> {
    return (await this.tools()) !== null;
  }

  /** Writes a new, empty file system on a device nothing has mounted. */
  async format(device: string, filesystem: FilesystemKind, label: string | null): Promise<void> {
    const tools = await this.tools();
    if (tools?.kind === 'direct') {
      // Removed since the capabilities were read: the same answer as if it had never been there.
      return makeFilesystem(device, filesystem, label).catch((error: unknown) => {
        throw commandMissing(error) ? new AppError('filesystem_unavailable', cannotMake(filesystem), { field: 'filesystem' }) : error;
      });
    }
    if (tools?.kind !== 'udisks' || tools.busctl === null) throw new AppError('helper_unavailable');
    return formatWithUdisks({ udisksctl: tools.udisksctl, busctl: tools.busctl }, device, filesystem, label);
  }

  /**
   * Flushes and unmounts a mount. A drive goes through udisks2 when that is how the server
   * works; a pool (FUSE, the server's own) never does. A refusal for lack of rights is
   * helper_unavailable, saying what to allow; any other failure (a drive in use) is left to
   * the caller.
   */
  async unmount(mount: MountEntry): Promise<void> {
    const tools = await this.tools();
    const viaUdisks = tools?.kind === 'udisks' && !mount.fsType.startsWith('fuse') && mount.source.startsWith('/dev/');
    for (let attempt = 1; ; attempt++) {
      try {
        await (viaUdisks ? unmountWithUdisks(tools.udisksctl, mount) : unmountDirect(mount));
        return;
      } catch (error) {
        if (unmountRefusedForRights(error)) {
          throw new AppError(
            'helper_unavailable',
            'The server is not allowed to unmount this drive: run it as root, or let its user unmount drives through udisks2.',
          );
        }
        // A file the server has just closed (a download that ended, through a FUSE pool) is
        // let go by the kernel a moment later: a drive busy for that moment is tried again.
        if (attempt >= UNMOUNT_ATTEMPTS) throw error;
        await new Promise((resolve) => setTimeout(resolve, UNMOUNT_RETRY_MS));
      }
    }
  }

  /** Unmounts whatever is mounted at `mountPoint` (nothing when nothing is). */
  async unmountAt(mountPoint: string): Promise<void> {
    const mount = listMounts().find((m) => m.mountPoint === mountPoint);
    if (mount) await this.unmount(mount);
  }

  /** Mounts a drive unless it is mounted already, and makes its library folder. */
  async mountMember(device: BlockDevice): Promise<MountedMember> {
    if (!device.uuid) throw new AppError('no_filesystem');
    const existing = device.mountpoints[0];
    const member: MountedMember = existing
      ? { uuid: device.uuid, device: device.path, mount_point: existing, mounted_by_server: false }
      : { uuid: device.uuid, device: device.path, mount_point: await this.mountFresh(device.path, device.uuid), mounted_by_server: true };
    try {
      fs.mkdirSync(path.join(member.mount_point, LIBRARY_FOLDER), { recursive: true });
    } catch (error) {
      await this.release([member]);
      throw new AppError('mount_failed', `The drive is mounted read-only or full: ${String(error).slice(0, 200)}`);
    }
    return member;
  }

  /** Joins members' library folders into one mergerfs mount. */
  async mountPool(members: MountedMember[], mountPoint: string, minFreeBytes: number): Promise<void> {
    const mergerfs = findExecutable('mergerfs');
    if (!mergerfs) throw new AppError('pool_unavailable');
    if (isMountPoint(mountPoint)) return;
    const branches = members.map((m) => path.join(m.mount_point, LIBRARY_FOLDER));
    if (branches.some((b) => /[:,=]/.test(b))) {
      throw new AppError('mount_failed', 'A drive is mounted at a path with ":", "," or "=", which mergerfs cannot take.');
    }
    try {
      await mountPool(mergerfs, branches, mountPoint, { minFreeBytes });
    } catch (error) {
      throw new AppError('mount_failed', `The pool could not be assembled: ${String(error).slice(0, 300)}`);
    }
  }

  /** Unmounts what the server mounted (the pool first, then its members), never a mount it found. */
  async release(members: MountedMember[], poolMountPoint?: string): Promise<void> {
    if (poolMountPoint) await this.releasePool(poolMountPoint);
    for (const member of members) {
      if (!member.mounted_by_server) continue;
      await this.unmountAt(member.mount_point);
      this.forgetMountPoint(member.mount_point);
    }
  }

  async releasePool(mountPoint: string): Promise<void> {
    await this.unmountAt(mountPoint);
    this.forgetMountPoint(mountPoint);
  }

  /** The empty folder the server mounted something on goes once unmounted; rmdir refuses anything mounted or not empty. */
  forgetMountPoint(mountPoint: string): void {
    if (!mountPoint.startsWith(this.serverRoot() + path.sep)) return;
    try {
      fs.rmdirSync(mountPoint);
    } catch {
      // still in use or not empty: not ours to force
    }
  }

  /**
   * Mounts a library's file system again (after a reboot or a replug) once every drive it
   * needs is plugged in. Answers the spec as mounted now (device names and mount points may
   * have changed), or null while a drive is missing.
   */
  async assemble(spec: MountSpec): Promise<MountSpec | null> {
    const wanted = spec.kind === 'drive' ? [spec.member] : spec.members;
    const devices = await listBlockDevicesProbed();
    const found = wanted.map((m) => devices.find((d) => d.uuid === m.uuid));
    if (found.some((d) => d === undefined)) return null;
    const mounted: MountedMember[] = [];
    try {
      for (const device of found as BlockDevice[]) mounted.push(await this.mountMember(device));
      if (spec.kind === 'drive') return { kind: 'drive', member: mounted[0]! };
      await this.mountPool(mounted, spec.mount_point, spec.min_free_bytes);
      return { ...spec, members: mounted };
    } catch (error) {
      await this.release(mounted).catch(() => {});
      throw error;
    }
  }

  /** Whether any drive of the library is still plugged in (an ejected drive stays ejected until it is unplugged). */
  async anyPresent(spec: MountSpec): Promise<boolean> {
    const uuids = new Set((spec.kind === 'drive' ? [spec.member] : spec.members).map((m) => m.uuid));
    return (await listBlockDevicesProbed()).some((d) => d.uuid !== null && uuids.has(d.uuid));
  }

  /** Where the server mounts what it mounts itself. */
  serverRoot(): string {
    return path.join(this.deps.config.mountsRoots[0] ?? '/media', 'hearth');
  }

  private async mountFresh(device: string, uuid: string): Promise<string> {
    const tools = await this.tools();
    if (!tools) throw new AppError('helper_unavailable');
    try {
      if (tools.kind === 'udisks') return await mountWithUdisks(tools.udisksctl, device);
      const mountPoint = path.join(this.serverRoot(), uuid);
      await mountDevice(device, mountPoint);
      return mountPoint;
    } catch (error) {
      const unsupported = /unknown filesystem type '([^']+)'/.exec(String(error));
      if (unsupported) {
        // The owner can act on this one: a kernel without the file system (exFAT before Linux 5.7).
        throw new AppError(
          'mount_failed',
          `This PC's system cannot open ${unsupported[1]} drives. Erase the drive for Hearth on this PC (ext4), or add ${unsupported[1]} support to the system.`,
        );
      }
      throw new AppError('mount_failed', `The drive could not be mounted: ${String(error).slice(0, 300)}`);
    }
  }

  private poolRootWritable(): boolean {
    try {
      fs.accessSync(fs.existsSync(this.serverRoot()) ? this.serverRoot() : path.dirname(this.serverRoot()), fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Off Linux the drive page still lists the disks, and says plainly what waits for Linux: the
 * server mounts, pools and erases drives with Linux tools (mount, mergerfs, mkfs).
 */
export function linuxOnlyCapabilities(platform: NodeJS.Platform): DriveCapabilities {
  const os = platform === 'win32' ? 'Windows' : platform === 'darwin' ? 'macOS' : platform;
  return {
    format: unavailableFormat(`Erasing a drive is Linux-only for now; on ${os}, use the system's own disk tool.`),
    mount: {
      available: false,
      reason: `Mounting a drive as a library is Linux-only for now; on ${os}, add a folder on the drive as a library instead.`,
    },
    pool: { available: false, reason: `Pooling drives (mergerfs) is Linux-only for now; ${os} cannot pool drives.` },
  };
}

/** Erasing is not possible at all here: no file system can be made, for the same reason. */
function unavailableFormat(reason: string): DriveCapabilities['format'] {
  return { available: false, reason, filesystems: FILESYSTEMS.map((name) => ({ name, available: false, reason })) };
}

/** What the owner is told when this PC lacks a file system's tool. */
export function cannotMake(filesystem: FilesystemKind): string {
  const { name, debianPackage } = MKFS[filesystem];
  return `This computer cannot make ${name} drives: install ${debianPackage} (sudo apt install ${debianPackage}).`;
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}
