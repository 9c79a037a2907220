import os from 'node:os';
import path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import { syncFile } from '../common/durable-file.ts';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';
import type { CopyOrder, CopyResult, StoreOrder, StoreResult } from './content-copy.ts';
import { CANCELLED, JOB_CELLS, TURNS, type CopyFailure, type FromCopyWorker, type ToCopyWorker } from './content-copy-protocol.ts';

/** As many threads as a restore copies files at once, and no more than the PC has cores. */
const MOST_THREADS = 4;
/** Threads left idle this long end: a restore or a check is an occasional thing. */
const IDLE_MS = 10_000;

interface Job {
  cells: Int32Array;
  resolve(result: CopyResult | StoreResult): void;
  reject(error: unknown): void;
  onBytes(n: number): void;
  pace: (() => Promise<void>) | undefined;
  thread: Thread;
}

interface Thread {
  worker: Worker;
  jobs: number;
  /** Its code loaded and listening: a thread lost before that could not start here at all. */
  ready: boolean;
}

/**
 * No thread could start here (a packaging whose worker file cannot be loaded): the caller copies
 * on the event loop instead, slower but the same bytes, so a restore never fails for it.
 */
export class CopiersUnavailable extends Error {
  constructor(cause: unknown) {
    super(`no copying thread could start: ${(cause as Error).message}`, { cause });
  }
}

/**
 * The worker threads that copy files into and out of a folder archive (content-copy-worker.ts):
 * encrypting, decrypting, hashing and writing a backup's or a restore's gigabytes there keeps
 * the server's event loop free for the family and spreads the work over the cores. Measured on a
 * 2-core PC (bench/backup.ts): on the event loop, the buffers of 1 GiB set off about 80 full
 * collections of the server's heap, 4.6 CPU seconds on V8's helper threads, a third of the
 * restore's CPU.
 */
export class ContentCopiers {
  private readonly threads: Thread[] = [];
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;
  private unavailable: CopiersUnavailable | null = null;

  /** `startThread`: how a thread is made (the bundled or TypeScript worker; a test gives one that cannot start). */
  constructor(private readonly startThread: () => Worker = startWorker) {}

  /** Threads started and still there (none before the first copy, and none once idle). */
  get threadCount(): number {
    return this.threads.length;
  }

  /**
   * Starts the threads before the first file of a long copy, while its caller still reads the
   * archive's manifests. A thread takes 50 to 90 ms to start (Node's worker, then this code). A
   * restore of 1 GiB started them at its first file and copied its first byte 0.2 s after
   * "Restore"; warmed, 0.15 s. Warm threads that get no job end like idle ones.
   */
  warm(): void {
    if (this.unavailable) return;
    while (this.threads.length < mostThreads()) this.start();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.endWhenIdle();
  }

  /** `handle` is the caller's: it stays open until this answers, and the caller closes it. */
  async copy(handle: FileHandle, order: CopyOrder, signal: AbortSignal, onBytes: (n: number) => void): Promise<CopyResult> {
    // A durable copy's fsync waits on the disk, not the CPU: the thread pool waits for it while the
    // copying thread goes on with the next file (measured, a restore of 1 GiB: 450 MiB/s with the
    // threads fsyncing, 570 without; cores sat idle while both threads waited on the disk).
    const copied = (await this.submit(
      (id, cells) => ({ kind: 'copy', id, cells, fd: handle.fd, order: { ...order, durable: false } }),
      signal,
      onBytes,
      undefined,
    )) as CopyResult;
    if (order.durable && order.target !== null) await syncFile(order.target);
    return copied;
  }

  /**
   * A file being backed up (`source`) written into a new archive file (`target`), encrypted when
   * the order says so. Both handles are the caller's, as for copy; `pace` is awaited every
   * megabyte or so (the run's turn behind the family's requests).
   */
  store(
    source: FileHandle,
    target: FileHandle,
    order: StoreOrder,
    signal: AbortSignal,
    onBytes: (n: number) => void,
    pace?: () => Promise<void>,
  ): Promise<StoreResult> {
    const paced = { ...order, paced: pace !== undefined };
    return this.submit(
      (id, cells) => ({ kind: 'store', id, cells, source: source.fd, target: target.fd, order: paced }),
      signal,
      onBytes,
      pace,
    ) as Promise<StoreResult>;
  }

  private submit(
    message: (id: number, cells: SharedArrayBuffer) => ToCopyWorker,
    signal: AbortSignal,
    onBytes: (n: number) => void,
    pace: (() => Promise<void>) | undefined,
  ): Promise<CopyResult | StoreResult> {
    signal.throwIfAborted();
    if (this.unavailable) return Promise.reject(this.unavailable);
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const thread = this.leastBusy();
    const id = this.nextId++;
    // A job's answer is awaited: the process stays up for it (a script restoring has nothing else to wait on).
    if (thread.jobs === 0) thread.worker.ref();
    thread.jobs += 1;
    const shared = new SharedArrayBuffer(JOB_CELLS * Int32Array.BYTES_PER_ELEMENT);
    const cells = new Int32Array(shared);
    return new Promise((resolve, reject) => {
      // A cancelled job answers (failed, aborted) once its reads have stopped: only then may the descriptor close.
      const cancel = () => {
        Atomics.store(cells, CANCELLED, 1);
        nextTurn(cells);
      };
      signal.addEventListener('abort', cancel, { once: true });
      const settle = () => {
        signal.removeEventListener('abort', cancel);
        thread.jobs -= 1;
        if (thread.jobs === 0) thread.worker.unref();
        this.jobs.delete(id);
        this.endWhenIdle();
      };
      this.jobs.set(id, {
        cells,
        thread,
        onBytes,
        pace,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      thread.worker.postMessage(message(id, shared));
    });
  }

  private leastBusy(): Thread {
    const free = this.threads.find((thread) => thread.jobs === 0);
    if (free) return free;
    if (this.threads.length < mostThreads()) return this.start();
    return this.threads.reduce((a, b) => (b.jobs < a.jobs ? b : a));
  }

  private start(): Thread {
    const worker = this.startThread();
    const thread: Thread = { worker, jobs: 0, ready: false };
    worker.on('message', (message: FromCopyWorker) => {
      if (message.kind === 'ready') {
        thread.ready = true;
        return;
      }
      const job = this.jobs.get(message.id);
      if (!job) return;
      if (message.kind === 'bytes') job.onBytes(message.n);
      else if (message.kind === 'pace') {
        const go = () => nextTurn(job.cells);
        void (job.pace ?? (() => Promise.resolve()))().then(go, go);
      } else if (message.kind === 'done') job.resolve(message.result);
      else job.reject(failureError(message.failure));
    });
    // A thread that dies takes its jobs with it: each fails, and the next job starts a new thread.
    const lost = (error: unknown) => {
      const at = this.threads.indexOf(thread);
      if (at >= 0) this.threads.splice(at, 1);
      if (!thread.ready && at >= 0) this.unavailable ??= new CopiersUnavailable(error);
      for (const job of [...this.jobs.values()]) if (job.thread === thread) job.reject(thread.ready ? error : this.unavailable);
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`the copying thread stopped (${code})`)));
    // Only after the listeners: Node refs a worker's message port again when its first 'message'
    // listener comes, so an idle thread kept the process up until the idle timer ended it (every
    // test file that restored stayed 10 s; one stayed for good). A job refs it while it runs.
    worker.unref();
    this.threads.push(thread);
    return thread;
  }

  private endWhenIdle(): void {
    if (this.jobs.size > 0) return;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.jobs.size > 0) return;
      for (const thread of this.threads.splice(0)) void thread.worker.terminate();
    }, IDLE_MS);
    this.idle.unref();
  }
}

function mostThreads(): number {
  return Math.max(1, Math.min(MOST_THREADS, os.availableParallelism()));
}

/** Lets a thread waiting for its turn go on (it waits on the cell). */
function nextTurn(cells: Int32Array): void {
  Atomics.add(cells, TURNS, 1);
  Atomics.notify(cells, TURNS);
}

/** The errors the event loop's copy would have thrown, made again from what the thread could send. */
function failureError(failure: CopyFailure): Error {
  if (failure.damaged) return new ArchiveFileDamaged(new Error(failure.message));
  if (failure.source) return new SourceUnreadable(Object.assign(new Error(failure.message), { code: failure.code }));
  const error = Object.assign(new Error(failure.message), failure.code === undefined ? {} : { code: failure.code });
  if (failure.aborted) error.name = 'AbortError';
  return error;
}

/**
 * The worker's entry: the bundled file beside the server; under tsx (development, tests) the
 * TypeScript source, loaded through tsx's own hooks, which a worker thread does not inherit.
 */
function startWorker(): Worker {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith('.ts')) return new Worker(path.join(path.dirname(here), 'content-copy-worker.js'));
  const source = pathToFileURL(path.join(path.dirname(here), 'content-copy-worker.ts')).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); });`, {
    eval: true,
  });
}

export const contentCopiers = new ContentCopiers();
