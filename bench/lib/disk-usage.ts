import fsp from 'node:fs/promises';
import path from 'node:path';

export interface DiskUsage {
  /** Blocks the files hold on the disk (st_blocks x 512), each file counted once however many names it has. */
  onDisk: number;
  /** The files' sizes added up per name (what `ls` shows; a hard link counted again). */
  apparent: number;
  files: number;
  /** Distinct files (inodes) among them. */
  inodes: number;
}

/**
 * What the regular files under `dir` really take on the disk, as `du` counts it: real blocks
 * (a sparse or compressed file is not charged its length), a hard-linked file once. Two names
 * for one content file, the way a deduplicating store may keep it, cost one file.
 */
export async function diskUsage(dir: string): Promise<DiskUsage> {
  const seen = new Set<string>();
  const usage: DiskUsage = { onDisk: 0, apparent: 0, files: 0, inodes: 0 };
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await fsp.readdir(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) await walk(full);
      if (!entry.isFile()) continue;
      const stat = await fsp.lstat(full, { bigint: true });
      usage.files += 1;
      usage.apparent += Number(stat.size);
      const inode = `${stat.dev}:${stat.ino}`;
      if (seen.has(inode)) continue;
      seen.add(inode);
      usage.inodes += 1;
      usage.onDisk += Number(stat.blocks) * 512;
    }
  };
  await walk(dir);
  return usage;
}
