import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { isMountPoint } from './loop.ts';

/**
 * A small RAM disk (tmpfs) the test mounted itself, to fill to the last byte: what a family
 * PC's full disk does to the server, in seconds and without touching a real disk.
 */
export interface SmallDisk {
  mountPoint: string;
  /** Unmounts (lazily if something still holds it); safe to call twice. */
  destroy(): void;
}

export function mountTmpfs(mountPoint: string, sizeMb: number): SmallDisk {
  fs.mkdirSync(mountPoint, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', mountPoint], { stdio: 'pipe', timeout: 30_000 });
  return {
    mountPoint,
    destroy() {
      if (!isMountPoint(mountPoint)) return;
      try {
        execFileSync('umount', [mountPoint], { stdio: 'pipe', timeout: 30_000 });
      } catch {
        execFileSync('umount', ['-l', mountPoint], { stdio: 'pipe', timeout: 30_000 });
      }
    },
  };
}

/** Why a tmpfs cannot be mounted here, or null when it can (probed with a real one). */
export function tmpfsUnsupportedReason(dir: string): string | null {
  if (process.platform !== 'linux') return `tmpfs needs Linux (this is ${process.platform})`;
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return 'mounting a tmpfs needs root (run the tests as root, as CI does)';
  const probe = path.join(dir, 'tmpfs-probe');
  try {
    const disk = mountTmpfs(probe, 1);
    disk.destroy();
    return null;
  } catch (error) {
    return `cannot mount a tmpfs here: ${String(error).slice(0, 300)}`;
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
}

/** Free bytes for an unprivileged writer (statfs `bavail`). */
export function freeBytes(folder: string): number {
  const stats = fs.statfsSync(folder);
  return stats.bavail * stats.bsize;
}

/** Writes `file` until the disk refuses (ENOSPC): the disk is then full to the last byte. */
export function fillDisk(file: string, chunkBytes = 64 * 1024): number {
  const fd = fs.openSync(file, 'a');
  let written = 0;
  const chunk = Buffer.alloc(chunkBytes, 0x5a);
  try {
    for (;;) {
      try {
        written += fs.writeSync(fd, chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // A last write smaller than a chunk takes what is left, byte for byte.
        if (chunk.length === 1) return written;
        return written + fillDisk(file, Math.max(1, Math.floor(chunkBytes / 16)));
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** Resident memory of a process, in bytes (Linux). */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  if (!kb) throw new Error(`no VmRSS for process ${pid}`);
  return Number(kb) * 1024;
}
