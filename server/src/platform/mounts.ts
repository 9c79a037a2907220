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
    const inside = resolved === mount.mountPoint || resolved.startsWith(mount.mountPoint.endsWith('/') ? mount.mountPoint : `${mount.mountPoint}/`);
    if (inside && (!best || mount.mountPoint.length > best.mountPoint.length)) best = mount;
  }
  return best;
}

const NETWORK_TYPES = new Set(['nfs', 'nfs4', 'cifs', 'smb3', 'smbfs', 'sshfs', 'fuse.sshfs', '9p']);

export function isNetworkFs(fsType: string): boolean {
  return NETWORK_TYPES.has(fsType);
}

/**
 * Flushes and unmounts a mount point. Through udisks2 (`udisksctl`) when it is installed, so
 * the server needs no root; otherwise `umount`, which needs the privilege to unmount.
 */
export async function unmount(mount: MountEntry): Promise<void> {
  await runCommand('sync', ['-f', mount.mountPoint]).catch(() => runCommand('sync', []));
  const udisks = findExecutable('udisksctl');
  if (udisks && mount.source.startsWith('/dev/')) {
    await runCommand(udisks, ['unmount', '--no-user-interaction', '-b', mount.source], 60_000);
    return;
  }
  await runCommand('umount', [mount.mountPoint], 60_000);
}
