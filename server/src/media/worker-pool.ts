import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { failedWith, type MediaInfo, type MediaLimits, type MediaTools, type ThumbnailSize } from './media-info.ts';
import type { WorkerJob, WorkerReply } from './worker-main.ts';

/** Below the server's own priority: requests first, thumbnails with what is left. */
const WORKER_NICENESS = 10;
/** A worker's JavaScript heap: its own objects are small; pictures live in buffers and libvips. */
const WORKER_HEAP_MB = 256;
/** How often a busy worker's resident memory is looked at. */
const MEMORY_CHECK_MS = 100;

interface Slot {
  child: ChildProcess | null;
  busy: boolean;
}

interface Pending {
  job: WorkerJob;
  urgent: boolean;
  resolve: (info: MediaInfo) => void;
}

/**
 * Worker processes for media jobs. A job whose worker dies (a decoder crash) or overruns
 * its time fails alone; a fresh worker takes the next one.
 */
export class MediaWorkerPool {
  private readonly slots: Slot[];
  private readonly waiting: Pending[] = [];
  private readonly running = new Map<
    ChildProcess,
    { pending: Pending; timer: NodeJS.Timeout; watch: NodeJS.Timeout; overMemory: boolean }
  >();
  private nextId = 1;
  private closed = false;

  constructor(
    size: number,
    private readonly tools: MediaTools,
    private readonly limits: MediaLimits,
  ) {
    this.slots = Array.from({ length: size }, () => ({ child: null, busy: false }));
  }

  /**
   * Processes one file into the thumbnail `sizes`. An `urgent` job (someone is waiting for its
   * answer) goes before the queued ones and takes the next worker that comes free.
   */
  process(file: string, mime: string, sizes: ThumbnailSize[], options: { urgent?: boolean } = {}): Promise<MediaInfo> {
    if (this.slots.length === 0) return Promise.resolve(failed('no media workers'));
    // A job asked for after close() would wait for a worker that never comes, and so would the
    // server's stop, which waits for the media queue to go idle.
    if (this.closed) return Promise.resolve(failed('server stopping'));
    return new Promise((resolve) => {
      const urgent = options.urgent ?? false;
      const pending = { job: { id: this.nextId++, file, mime, sizes, tools: this.tools, limits: this.limits }, urgent, resolve };
      const firstQueued = this.waiting.findIndex((p) => !p.urgent);
      if (urgent && firstQueued !== -1) this.waiting.splice(firstQueued, 0, pending);
      else this.waiting.push(pending);
      this.dispatch();
    });
  }

  /** Starts every worker now, so the first jobs do not wait for (and pay for) their start. */
  warm(): void {
    if (this.closed) return;
    for (const slot of this.slots) slot.child ??= this.spawn(slot);
  }

  close(): void {
    this.closed = true;
    for (const slot of this.slots) slot.child?.kill('SIGKILL');
    for (const pending of this.waiting.splice(0)) pending.resolve(failed('server stopping'));
  }

  private dispatch(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (slot.busy || this.waiting.length === 0) continue;
      const pending = this.waiting.shift()!;
      slot.busy = true;
      const child = (slot.child ??= this.spawn(slot));
      const timer = setTimeout(() => child.kill('SIGKILL'), this.limits.timeoutMs * 2);
      const run = { pending, timer, watch: setInterval(() => this.checkMemory(child, run), MEMORY_CHECK_MS), overMemory: false };
      this.running.set(child, run);
      child.send(pending.job);
    }
  }

  /**
   * The resident-memory guard: a decoder that runs away (a hostile file the checks before
   * decoding did not catch) is killed before it takes the machine's memory, and its job
   * fails alone. An address-space limit cannot do this for a Node process: WebAssembly
   * reserves several GB of address space for each module's memory up front.
   */
  private checkMemory(child: ChildProcess, run: { overMemory: boolean }): void {
    const rss = child.pid ? residentBytes(child.pid) : null;
    if (rss !== null && rss > this.limits.workerMemoryBytes) {
      run.overMemory = true;
      child.kill('SIGKILL');
    }
  }

  private spawn(slot: Slot): ChildProcess {
    const child = fork(workerEntry.file, [], {
      execArgv: [...workerEntry.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`],
      env: { ...process.env, HEARTH_WASM_MEMORY_BYTES: String(this.limits.wasmMemoryBytes) },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      if (child.pid) os.setPriority(child.pid, WORKER_NICENESS);
    } catch {
      // Not permitted here: the worker runs at normal priority.
    }
    child.on('message', (reply: WorkerReply) => this.finish(slot, child, fromReply(reply)));
    child.on('exit', (code, signal) => {
      if (slot.child === child) slot.child = null;
      const why = this.running.get(child)?.overMemory
        ? `used more than ${this.limits.workerMemoryBytes} bytes of memory`
        : `stopped (${signal ?? `exit ${code}`})`;
      this.finish(slot, child, failed(`media worker ${why} on this file`));
    });
    return child;
  }

  private finish(slot: Slot, child: ChildProcess, info: MediaInfo): void {
    const run = this.running.get(child);
    if (!run) return;
    clearTimeout(run.timer);
    clearInterval(run.watch);
    this.running.delete(child);
    slot.busy = false;
    run.pending.resolve(info);
    this.dispatch();
  }
}

/** The worker's entry: the TypeScript source under tsx, the bundled file beside the server otherwise. */
const workerEntry = (() => {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    return { file: path.join(path.dirname(here), 'worker-main.ts'), execArgv: ['--import', import.meta.resolve('tsx')] };
  }
  return { file: path.join(path.dirname(here), 'media-worker.js'), execArgv: [] };
})();

/** A process's resident memory from /proc (Linux); null where there is no /proc. */
function residentBytes(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

function fromReply(reply: WorkerReply): MediaInfo {
  return {
    width: reply.width,
    height: reply.height,
    takenAt: reply.takenAt,
    details: reply.details,
    thumbnails: reply.thumbnails
      ? new Map(reply.thumbnails.map(([size, data]) => [size as ThumbnailSize, Buffer.from(data.buffer, data.byteOffset, data.byteLength)]))
      : null,
    failure: reply.failure,
    missingTool: reply.missingTool,
  };
}

function failed(reason: string): MediaInfo {
  return failedWith(reason);
}
