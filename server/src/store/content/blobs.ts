import crypto, { type Hash } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { syncFile, syncFolder } from '../common/durable-file.ts';
import { PositionedFileWriter } from './positioned-writer.ts';

/**
 * How far an upload's bytes run ahead of the disk before an early fdatasync starts (see
 * PositionedFileWriter): small enough that the fsync a tus offset waits for finds little left
 * (a 32 MiB PATCH spent about 20 ms in it here, the client idle), large enough that the
 * flushes, one at a time, stay few (each commits the file's size to the journal).
 */
const EARLY_FLUSH_BYTES = 8 * 1024 * 1024;

/**
 * Content files on a library. A blob's file name is its id, never a user's file name, so
 * no name in the tree can reach the file system (no traversal, whatever the name). Writes
 * go to `tmp/` and are renamed into `blobs/` only when complete and fsynced: a blob path
 * either holds a whole file or nothing.
 */
export class BlobStore {
  constructor(readonly root: string) {}

  static async open(root: string): Promise<BlobStore> {
    const made = [
      await fs.mkdir(path.join(root, 'blobs'), { recursive: true }),
      await fs.mkdir(path.join(root, 'tmp'), { recursive: true }),
    ];
    // New folders are entries of the library folder: durable before anything inside them is.
    if (made.some((first) => first !== undefined)) await syncFolder(root);
    return new BlobStore(root);
  }

  pathOf(blob: string): string {
    assertBlobId(blob);
    return path.join(this.root, 'blobs', blob.slice(-2), blob);
  }

  tempPathOf(name: string): string {
    assertBlobId(name);
    return path.join(this.root, 'tmp', name);
  }

  /** Makes a finished temp file a blob: fsync the data, rename, fsync the directory. */
  async commitTemp(tempName: string, blob: string): Promise<void> {
    const from = this.tempPathOf(tempName);
    const to = this.pathOf(blob);
    await syncFile(from);
    await this.makeShard(to);
    await fs.rename(from, to);
    await syncFolder(path.dirname(to));
  }

  /** A blob's shard folder, made durable in blobs/ when it is new (fsync of the file's folder alone does not cover it). */
  private async makeShard(blobPath: string): Promise<void> {
    if ((await fs.mkdir(path.dirname(blobPath), { recursive: true })) !== undefined) await syncFolder(path.dirname(path.dirname(blobPath)));
  }

  /** A blob opened for reading, for work that reads it by its descriptor (a backup's copying thread). */
  open(blob: string): Promise<fs.FileHandle> {
    return fs.open(this.pathOf(blob), 'r');
  }

  read(blob: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.pathOf(blob), { ...range, highWaterMark: 1024 * 1024 });
  }

  async exists(blob: string): Promise<boolean> {
    try {
      await fs.access(this.pathOf(blob));
      return true;
    } catch {
      return false;
    }
  }

  async remove(blob: string): Promise<void> {
    await fs.rm(this.pathOf(blob), { force: true });
  }

  async removeTemp(name: string): Promise<void> {
    await fs.rm(this.tempPathOf(name), { force: true });
  }

  async createTemp(name: string): Promise<void> {
    const handle = await fs.open(this.tempPathOf(name), 'wx');
    await handle.close();
  }

  /** Bytes of a temp file on disk: the truth about how far an upload got. Null when missing. */
  async tempSize(name: string): Promise<number | null> {
    try {
      return (await fs.stat(this.tempPathOf(name))).size;
    } catch {
      return null;
    }
  }

  async truncateTemp(name: string, size: number): Promise<void> {
    await fs.truncate(this.tempPathOf(name), size);
  }

  /**
   * Writes `source` into a temp file from `offset`. Whatever arrives before an error or an
   * abort stays written (a resumable upload continues from there); `limit` caps the bytes
   * accepted. Returns the bytes written and, when asked, their digest. `sha256`, a running
   * hash of the file's bytes before `offset`, takes the bytes as they land on disk (see
   * PositionedFileWriter); `hashedTo` says how far into the file it then reaches.
   */
  async writeTemp(
    name: string,
    offset: number,
    source: Readable,
    options: { limit: number | null; digest?: string | undefined; sha256?: Hash | null; onProgress?: (written: number) => void },
  ): Promise<{ written: number; digest: Buffer | null; hashedTo: number; error: Error | null; overflow: boolean }> {
    const running = options.sha256 ?? null;
    // A SHA-256 checksum of a request from the first byte is the running hash itself: not hashed twice.
    const shared = options.digest === 'sha256' && offset === 0 && running !== null;
    const hash = options.digest && !shared ? crypto.createHash(options.digest) : null;
    let written = 0;
    let overflow = false;
    // Not fs.createWriteStream: see PositionedFileWriter (a full disk would misplace bytes).
    const out = new PositionedFileWriter(this.tempPathOf(name), offset, {
      highWaterMark: 4 * 1024 * 1024,
      hash: running,
      flushEvery: EARLY_FLUSH_BYTES,
    });
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (options.limit !== null && written + chunk.length > options.limit) {
          overflow = true;
          callback(new Error('upload exceeds its declared length'));
          return;
        }
        written += chunk.length;
        hash?.update(chunk);
        options.onProgress?.(written);
        callback(null, chunk);
      },
    });
    let error: Error | null = null;
    try {
      await pipeline(source, counter, out);
    } catch (caught) {
      error = caught as Error;
      // Bytes counted but still buffered may not all be written: the file size is the truth.
      if (!out.closed) await new Promise<void>((resolve) => out.once('close', resolve));
    }
    // The offset answered is a promise that these bytes are kept: on disk before it leaves, so
    // a power cut or a drive pulled right after the answer loses none of them. The first bytes
    // also make the file's own entry in tmp/ durable: done then rather than at creation, where
    // it would cost every upload a journal commit of its own (after the file's fsync it is
    // nearly free), and an upload with no byte yet has nothing to lose (its client starts again).
    await out.flushed();
    await syncFile(this.tempPathOf(name));
    if (offset === 0) await syncFolder(path.join(this.root, 'tmp'));
    const size = (await fs.stat(this.tempPathOf(name))).size;
    const digest = error ? null : shared ? running.copy().digest() : (hash?.digest() ?? null);
    return { written: Math.max(0, size - offset), digest, hashedTo: out.landedTo, error, overflow };
  }

  /** The SHA-256 (hex) of a whole temp file. */
  sha256OfTemp(name: string): Promise<string> {
    return sha256OfFile(this.tempPathOf(name));
  }

  /** The SHA-256 (hex) of a whole blob. */
  sha256Of(blob: string): Promise<string> {
    return sha256OfFile(this.pathOf(blob));
  }

  /** The first bytes of a temp file, to tell what it is. */
  headOfTemp(name: string, bytes = 4100): Promise<Buffer> {
    return readHead(this.tempPathOf(name), bytes);
  }

  headOf(blob: string, bytes = 4100): Promise<Buffer> {
    return readHead(this.pathOf(blob), bytes);
  }

  /**
   * Every file under `blobs/`, for the startup reconciliation: its name (the blob id) and
   * where it really is, which for a stray or misplaced file is not `pathOf(id)`.
   */
  async *list(): AsyncGenerator<{ id: string; file: string }> {
    const base = path.join(this.root, 'blobs');
    for (const shard of await fs.readdir(base).catch(() => [] as string[])) {
      for (const name of await fs.readdir(path.join(base, shard)).catch(() => [] as string[])) {
        yield { id: name, file: path.join(base, shard, name) };
      }
    }
  }

  async listTemp(): Promise<string[]> {
    return fs.readdir(path.join(this.root, 'tmp')).catch(() => []);
  }
}

/** Ids are generated by the server; anything else reaching here is a bug, not a path. */
function assertBlobId(id: string): void {
  if (!/^[A-Za-z0-9._-]{10,80}$/.test(id) || id.includes('..')) throw new Error(`invalid blob id: ${JSON.stringify(id)}`);
}

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(createReadStream(file, { highWaterMark: 1024 * 1024 }), hash);
  return hash.digest('hex');
}
