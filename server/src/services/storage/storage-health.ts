import path from 'node:path';
import type { StorageState } from '../../contract/server-responses.ts';
import { AppError } from '../../app-error.ts';
import type { Logger } from '../../log.ts';
import { deviceOf, freeBytes, makeReserve, probeWrite, releaseReserve, reserveSize } from '../../store/common/disk-space.ts';
import { storageFaultOf, type StorageFault } from '../../store/common/storage-faults.ts';

/** Below this much free space a disk counts as full, whether or not a write failed yet. */
export const LOW_BYTES = 256 * 1024;
/** SQLite's shared-memory file (-shm) takes 32 KiB at open, written page by page. */
const SHARED_MEMORY_BYTES = 64 * 1024;
/** Free space is looked at on demand (requests, health checks) at most this often. */
const LOOK_INTERVAL_MS = 1_000;

export interface StorageHealthOptions {
  dataDir: string;
  /** The space reserve kept in the data folder (0: none). */
  reserveBytes: number;
  /** How often a full or read-only disk is looked at again, until it takes writes. */
  recheckMs: number;
  log: Logger;
  now: () => number;
}

interface Volume {
  /** A folder on this file system to look at. */
  folder: string;
  state: StorageState;
  lookedAt: number;
  /** Content writes (upload data) under way on this disk. */
  writers: number;
  /** The reserve waits to be given back until those writes have stopped. */
  releasePending: boolean;
}

const SEVERITY: Record<StorageState, number> = { ok: 0, full: 1, read_only: 2 };

/**
 * Whether the disks the server writes to take writes: `ok`, `full`, or `read_only`. A write
 * that fails for lack of space (or on a drive the kernel made read-only) marks its disk here,
 * wherever it happened (a request, the media queue, upkeep); from then on the writers that
 * would fail again wait (uploads answer 507 at once, the media queue pauses) and the disk is
 * looked at every few seconds, until it has room again, by itself: nobody has to restart
 * anything. The database keeps the rest working: the reserve is given back when the data
 * folder's disk fills, so sign-in and deleting still have room.
 */
export class StorageHealth {
  private readonly volumes = new Map<string, Volume>();
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | null = null;
  private reserving: Promise<void> | null = null;
  private defaultFolder: () => string | null = () => null;
  private stopped = false;

  constructor(private readonly options: StorageHealthOptions) {}

  get dataDir(): string {
    return this.options.dataDir;
  }

  /** Free space a full disk needs before it takes uploads again (and the reserve is made again). */
  get resumeBytes(): number {
    return Math.max(2 * this.options.reserveBytes, 4 * LOW_BYTES);
  }

  /**
   * Before the database opens. A full disk gives back the reserve first; when even then there
   * is no room for SQLite's shared-memory file, the database is opened without it (SQLite
   * keeps its index in memory instead: `sharedMemory: false`), since extending a shared-memory
   * file on a disk with no room fails the open (SQLITE_IOERR_SHMSIZE).
   */
  beforeOpen(): { sharedMemory: boolean } {
    const data = this.volume(this.dataDir);
    const probe = probeWrite(this.dataDir);
    const before = freeBytes(this.dataDir) ?? Infinity;
    // A reserve given back (by an earlier run that met the full disk) and not made again
    // means the disk has not had room since: it is still full, even with a little space.
    const reserveGone = this.options.reserveBytes > 0 && reserveSize(this.dataDir) < this.options.reserveBytes;
    if (probe === 'read_only') this.mark(data, 'read_only', 'the data folder was read-only at start');
    else if (probe === 'full' || before < LOW_BYTES || (reserveGone && before < this.resumeBytes))
      this.mark(data, 'full', 'the disk was full at start');
    // A read-only disk keeps its shared-memory file as it was: SQLite reads through it.
    const free = freeBytes(this.dataDir);
    return { sharedMemory: data.state === 'read_only' || free === null || free >= SHARED_MEMORY_BYTES };
  }

  /** Once serving: looks again, and makes the reserve when there is room for it. */
  start(defaultFolder: () => string | null): void {
    this.defaultFolder = defaultFolder;
    this.look(this.volume(this.dataDir), true);
    this.keepReserve();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.reserving;
  }

  /** Called whenever a disk changes state (the listener asks what it needs). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The state of the disk under `folder` (the data folder's by default), looked at again when due. */
  state(folder: string = this.dataDir): StorageState {
    const volume = this.volume(folder);
    this.look(volume, false);
    return volume.state;
  }

  /** What the family is told: the worse of the data folder's disk and the disk new files go to. */
  summary(): StorageState {
    const data = this.state(this.dataDir);
    const target = this.defaultFolder();
    const other = target ? this.state(target) : 'ok';
    return SEVERITY[other] > SEVERITY[data] ? other : data;
  }

  /**
   * Refuses a write that would fail: 507 `storage_full` or 503 `storage_read_only`, and 507
   * for a file of `bytes` that cannot fit in what is left (that disk is not full, the file is
   * too big for it: `field` is `Upload-Length`).
   */
  assertWritable(folder: string, bytes = 0): void {
    const state = this.state(folder);
    if (state !== 'ok') throw this.refusal(state);
    if (bytes > 0) {
      const free = freeBytes(folder);
      if (free !== null && bytes > free - LOW_BYTES) {
        // `field` tells the apps that this file, not the disk, is the matter: waiting will not help.
        throw new AppError(
          'storage_full',
          `This file is ${megabytes(bytes)}, but Hearth's disk has only ${megabytes(Math.max(0, free - LOW_BYTES))} left.`,
          {
            field: 'Upload-Length',
          },
        );
      }
    }
  }

  /**
   * Marks a content write (an upload's data) under way on the disk of `folder`, until the
   * returned function is called. The reserve is given back only once those have stopped:
   * uploads writing when the disk filled would otherwise take the room meant for the
   * database (new ones are refused as soon as the disk is full, so they stop quickly).
   */
  beginWrite(folder: string): () => void {
    const volume = this.volume(folder);
    volume.writers++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      volume.writers--;
      if (volume.writers === 0 && volume.releasePending) this.releaseReserve(volume);
    };
  }

  refusal(fault: StorageFault, headers: Record<string, string> = {}): AppError {
    return new AppError(fault === 'full' ? 'storage_full' : 'storage_read_only', undefined, { headers });
  }

  /**
   * Whether `error` means the disk refused the write (then the disk is marked), and which way.
   * `folder` is where the write went; errors naming a path say it themselves; by default the
   * data folder (the database, thumbnails).
   */
  noteFailure(error: unknown, folder?: string): StorageFault | null {
    const where = folder ?? folderOf(error) ?? this.dataDir;
    const fault = this.classify(error, where);
    if (fault) this.mark(this.volume(where), fault, describe(error));
    return fault;
  }

  /** As noteFailure, without marking anything. */
  classify(error: unknown, folder: string = this.dataDir): StorageFault | null {
    const kind = storageFaultOf(error);
    if (kind !== 'io') return kind;
    // SQLite's I/O errors do not say why: the disk does.
    const probe = probeWrite(folder);
    if (probe === 'read_only' || probe === 'full') return probe;
    const free = freeBytes(folder);
    return free !== null && free < LOW_BYTES ? 'full' : null;
  }

  private volume(folder: string): Volume {
    // A folder not made yet (a thumbnail shard, say) is on the disk of the nearest one that is.
    let device = deviceOf(folder);
    for (let up = path.resolve(folder); device === null && path.dirname(up) !== up;) {
      up = path.dirname(up);
      device = deviceOf(up);
    }
    const key = device === null ? `path:${path.resolve(folder)}` : `dev:${device}`;
    let volume = this.volumes.get(key);
    if (!volume) {
      volume = { folder, state: 'ok', lookedAt: 0, writers: 0, releasePending: false };
      this.volumes.set(key, volume);
    }
    return volume;
  }

  private look(volume: Volume, force: boolean): void {
    const now = this.options.now();
    if (!force && now - volume.lookedAt < LOOK_INTERVAL_MS) return;
    volume.lookedAt = now;
    const free = freeBytes(volume.folder);
    if (volume.state === 'ok') {
      if (free !== null && free < LOW_BYTES) this.mark(volume, 'full', 'free space ran out');
      return;
    }
    const probe = probeWrite(volume.folder);
    if (probe === 'read_only' || probe === 'error') return;
    if (probe === 'ok' && (free === null || free >= this.resumeBytes)) {
      this.mark(volume, 'ok', 'space is free again');
      if (volume === this.volume(this.dataDir)) this.keepReserve();
    } else if (volume.state === 'read_only') {
      this.mark(volume, 'full', 'the disk takes writes again but has too little room');
    }
  }

  private mark(volume: Volume, state: StorageState, reason: string): void {
    if (volume.state === state) return;
    const was = volume.state;
    volume.state = state;
    const isData = volume === this.volume(this.dataDir);
    const free = freeBytes(volume.folder);
    if (state === 'ok') {
      volume.releasePending = false;
      this.options.log.info('storage takes writes again: uploads and thumbnails continue', {
        folder: volume.folder,
        free_bytes: free,
        was,
      });
    } else {
      this.options.log.warn(
        state === 'full'
          ? 'storage full: uploads and thumbnails wait until space is freed'
          : 'storage read-only: nothing new can be saved until the disk is repaired',
        {
          folder: volume.folder,
          free_bytes: free,
          reason,
        },
      );
      if (isData) {
        volume.releasePending = true;
        if (volume.writers === 0) this.releaseReserve(volume);
      }
    }
    this.schedule();
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (error) {
        this.options.log.error('storage listener failed', { error: String(error) });
      }
    }
  }

  /** Looks again every few seconds while any disk is full or read-only; idle otherwise. */
  private schedule(): void {
    const waiting = [...this.volumes.values()].some((v) => v.state !== 'ok');
    if (waiting && !this.timer && !this.stopped) {
      this.timer = setInterval(() => {
        for (const volume of this.volumes.values()) if (volume.state !== 'ok') this.look(volume, true);
      }, this.options.recheckMs);
      this.timer.unref();
    } else if (!waiting && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private releaseReserve(volume: Volume): void {
    volume.releasePending = false;
    if (volume.state !== 'ok' && releaseReserve(this.dataDir)) {
      this.options.log.info('space reserve given back so that sign-in and deleting keep working', { bytes: this.options.reserveBytes });
    }
  }

  private keepReserve(): void {
    const bytes = this.options.reserveBytes;
    if (bytes <= 0 || this.reserving || this.stopped) return;
    if (reserveSize(this.dataDir) >= bytes) return;
    const free = freeBytes(this.dataDir);
    // Made only with room to spare: the reserve itself must never be what fills the disk.
    if (free === null || free < this.resumeBytes) return;
    this.reserving = makeReserve(this.dataDir, bytes)
      .catch((error: unknown) => {
        if (!this.noteFailure(error, this.dataDir)) this.options.log.warn('space reserve not made', { error: String(error) });
      })
      .finally(() => (this.reserving = null));
  }
}

function folderOf(error: unknown): string | null {
  const file = (error as { path?: unknown } | null)?.path;
  return typeof file === 'string' && file !== '' ? path.dirname(file) : null;
}

function describe(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return [code, message].filter((part) => typeof part === 'string' || typeof part === 'number').join(': ') || String(error);
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
