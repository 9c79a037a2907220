import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A small ext4 drive made from an image file and attached to a loop device the test created
 * itself: tests never touch a real disk. `destroy()` unmounts, detaches and removes the image,
 * and is safe to call more than once and after a partial setup.
 */
export interface LoopDrive {
  image: string;
  device: string;
  mountPoint: string;
  mount(): void;
  unmount(): void;
  isMounted(): boolean;
  destroy(): void;
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
}

/**
 * Waits until udev (when it runs here) has seen the latest change to a device: lsblk reads
 * udev's records, which lag a change (a new label, a new device) by a few milliseconds.
 */
export function settleUdev(): void {
  if (!fs.existsSync('/run/udev/control')) return;
  try {
    run('udevadm', ['settle', '--timeout=10']);
  } catch {
    // udev without udevadm, or slow: lsblk may then lag, as on any machine
  }
}

/** Labels an ext4 drive, and waits until the drive listing can see the label. */
export function setLabel(device: string, label: string): void {
  run('e2label', [device, label]);
  settleUdev();
}

/** Mount points as the kernel sees them now (octal escapes decoded). */
export function mountPoints(): string[] {
  const text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => (line.split(' ')[4] ?? '').replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
}

export function isMountPoint(dir: string): boolean {
  return mountPoints().includes(dir);
}

/**
 * Makes `<dir>/<name>.img` (ext4, `sizeMb`), attaches it to a free loop device and mounts it
 * at `mountPoint` (created when missing).
 */
export function createLoopDrive(dir: string, name: string, mountPoint: string, sizeMb = 64): LoopDrive {
  const image = path.join(dir, `${name}.img`);
  let device = '';
  const drive: LoopDrive = {
    image,
    get device() {
      return device;
    },
    mountPoint,
    mount() {
      fs.mkdirSync(mountPoint, { recursive: true });
      run('mount', [device, mountPoint]);
    },
    unmount() {
      if (isMountPoint(mountPoint)) run('umount', [mountPoint]);
    },
    isMounted: () => isMountPoint(mountPoint),
    destroy() {
      try {
        if (isMountPoint(mountPoint)) {
          try {
            run('umount', [mountPoint]);
          } catch {
            run('umount', ['-l', mountPoint]);
          }
        }
      } catch {
        // best effort: still detach and remove below
      }
      if (device !== '') {
        try {
          run('losetup', ['-d', device]);
        } catch {
          // already detached
        }
        device = '';
      }
      fs.rmSync(image, { force: true });
    },
  };
  try {
    run('truncate', ['-s', `${sizeMb}M`, image]);
    run('mkfs.ext4', ['-q', '-F', image]);
    device = run('losetup', ['--find', '--show', image]).trim();
    if (!device.startsWith('/dev/loop')) throw new Error(`losetup answered ${JSON.stringify(device)}`);
    drive.mount();
    settleUdev();
  } catch (error) {
    drive.destroy();
    throw error;
  }
  return drive;
}

/** Why loop drives cannot be used here, or null when they can (probed with a real one). */
export function loopUnsupportedReason(dir: string): string | null {
  if (process.platform !== 'linux') return `loop devices need Linux (this is ${process.platform})`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return 'mounting a loop device needs root (run the tests as root, as CI does)';
  let drive: LoopDrive | undefined;
  try {
    drive = createLoopDrive(dir, 'probe', path.join(dir, 'probe-mount'), 8);
    if (!drive.isMounted()) return 'the probe image did not show up in /proc/self/mountinfo';
    return null;
  } catch (error) {
    return `cannot make a loop drive here: ${String(error).slice(0, 300)}`;
  } finally {
    drive?.destroy();
    fs.rmSync(path.join(dir, 'probe-mount'), { recursive: true, force: true });
  }
}

/** A loop device on a zero-filled image: a drive with no file system at all. */
export interface BlankLoopDevice {
  image: string;
  device: string;
  destroy(): void;
}

/** Makes `<dir>/<name>.img` (zeros, `sizeMb`) and attaches it to a free loop device; nothing is mounted. */
export function createBlankLoopDevice(dir: string, name: string, sizeMb = 16): BlankLoopDevice {
  const image = path.join(dir, `${name}.img`);
  let device = '';
  const blank: BlankLoopDevice = {
    image,
    get device() {
      return device;
    },
    destroy() {
      if (device !== '') {
        try {
          run('losetup', ['-d', device]);
        } catch {
          // already detached
        }
        device = '';
      }
      fs.rmSync(image, { force: true });
    },
  };
  try {
    fs.writeFileSync(image, Buffer.alloc(sizeMb * 1024 * 1024));
    device = run('losetup', ['--find', '--show', image]).trim();
    if (!device.startsWith('/dev/loop')) throw new Error(`losetup answered ${JSON.stringify(device)}`);
    settleUdev();
  } catch (error) {
    blank.destroy();
    throw error;
  }
  return blank;
}

/**
 * Unmounts every mount point at or below `dir` (FUSE mounts too), deepest first, falling back
 * to `fusermount3 -u` and then a lazy unmount. Returns the mount points still there afterwards.
 */
export function unmountAllUnder(dir: string): string[] {
  const below = () => {
    const prefix = dir.endsWith('/') ? dir : `${dir}/`;
    return [...new Set(mountPoints().filter((m) => m === dir || m.startsWith(prefix)))].sort((a, b) => b.length - a.length);
  };
  for (let pass = 0; pass < 4; pass++) {
    const now = below();
    if (now.length === 0) return [];
    for (const mountPoint of now) {
      for (const [command, args] of [
        ['umount', [mountPoint]],
        ['fusermount3', ['-u', mountPoint]],
        ['umount', ['-l', mountPoint]],
      ] as const) {
        try {
          run(command, [...args]);
          break;
        } catch {
          // try the next way
        }
      }
    }
  }
  return below();
}

/**
 * The drive's power is cut, as far as its file system can tell: ext4's shutdown ioctl
 * (EXT4_IOC_SHUTDOWN = _IOR('X', 125, __u32), the number XFS_IOC_GOINGDOWN shares) with
 * EXT4_GOING_FLAGS_NOLOGFLUSH (2): the journal is dropped without being written, so whatever
 * was not fsynced (and committed) is lost, and every later access fails with EIO until the
 * drive is unmounted and mounted again. Node has no ioctl; perl, part of every Debian base
 * system (perl-base), makes the one call.
 */
export function cutPower(mountPoint: string): void {
  const script =
    'sysopen(my $fh, $ARGV[0], 0) or die "open: $!\\n"; my $flags = pack("L", 2); ioctl($fh, 0x8004587D, $flags) or die "ioctl: $!\\n";';
  run('perl', ['-e', script, mountPoint]);
}
