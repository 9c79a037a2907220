import type { ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Cached thumbnails under `DATA_DIR/thumbs`, one WebP per node, version and size. They are a
 * cache: losing them loses nothing (the media queue can make them again).
 */
export class ThumbnailStore {
  constructor(readonly root: string) {}

  pathOf(nodeId: string, version: number, size: number): string {
    if (!/^[0-9A-Za-z]{10,40}$/.test(nodeId)) throw new Error(`invalid node id ${JSON.stringify(nodeId)}`);
    return path.join(this.root, nodeId.slice(-2), `${nodeId}-v${version}-${size}.webp`);
  }

  async write(nodeId: string, version: number, size: number, data: Buffer): Promise<void> {
    const file = this.pathOf(nodeId, version, size);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.part`;
    try {
      await fs.writeFile(temp, data);
      await fs.rename(temp, file);
    } catch (error) {
      // A write cut short by a full disk would otherwise keep the space it took.
      await fs.rm(temp, { force: true }).catch(() => {});
      throw error;
    }
  }

  /** The cached thumbnail, or null when there is none (never made, or the cache was cleared). */
  async open(nodeId: string, version: number, size: number): Promise<ReadStream | null> {
    const handle = await fs.open(this.pathOf(nodeId, version, size)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    return handle?.createReadStream() ?? null;
  }

  async readBuffer(nodeId: string, version: number, size: number): Promise<Buffer | null> {
    return fs.readFile(this.pathOf(nodeId, version, size)).catch(() => null);
  }

  async stat(nodeId: string, version: number, size: number): Promise<{ size: number; mtimeMs: number } | null> {
    return fs.stat(this.pathOf(nodeId, version, size)).catch(() => null);
  }

  /** Removes a node's thumbnails, all of them or all but those of `keepVersion`. */
  async removeNode(nodeId: string, keepVersion?: number): Promise<void> {
    const dir = path.dirname(this.pathOf(nodeId, 1, 1));
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const name of names) {
      if (name.startsWith(`${nodeId}-`) && (keepVersion === undefined || !name.startsWith(`${nodeId}-v${keepVersion}-`))) {
        await fs.rm(path.join(dir, name), { force: true });
      }
    }
  }
}
