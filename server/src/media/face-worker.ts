import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FoundFace, Looks } from './face-model.ts';
import type { FaceJob, FaceReply } from './face-worker-main.ts';
import type { FoundThing } from './things.ts';

/** The lowest priority there is: faces are found with the CPU nobody else wants. */
const FACE_NICENESS = 19;
/** A picture that takes longer has hung its decoder: the worker is killed and the photo failed. */
const JOB_TIMEOUT_MS = 60_000;
/** An idle worker gives back its memory (the models, ~150 MB) after this long. */
const IDLE_EXIT_MS = 60_000;
const WORKER_HEAP_MB = 512;

/** Faces and things found (null for what was not looked for), or why the picture could not be looked at; `cpuMs`: the worker's CPU time for the picture (its wall time when it never answered). */
export type FaceResult = (
  { faces: FoundFace[] | null; things: FoundThing[] | null; failure: null } | { faces: null; things: null; failure: string }
) & { cpuMs: number };

/** One face worker process, one picture at a time, started on the first and stopped when idle. */
export class FaceWorker {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private pending: {
    id: number;
    child: ChildProcess;
    began: number;
    resolve: (r: FaceResult) => void;
    timer: NodeJS.Timeout;
  } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Set while the picture's process is stopped for the family: the timer that lets it go on. */
  private held: NodeJS.Timeout | null = null;

  find(file: string, looks: Looks = { faces: true, things: false }): Promise<FaceResult> {
    if (this.closed) return Promise.resolve({ faces: null, things: null, failure: 'server stopping', cpuMs: 0 });
    if (this.pending) throw new Error('one picture at a time');
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = (this.child ??= this.spawn());
    return new Promise((resolve) => {
      const job: FaceJob = { id: this.nextId++, file, looks };
      const timer = setTimeout(() => child.kill('SIGKILL'), JOB_TIMEOUT_MS);
      this.pending = { id: job.id, child, began: performance.now(), resolve, timer };
      child.send(job);
    });
  }

  close(): void {
    this.closed = true;
    this.halt('server stopping');
  }

  /**
   * Paused by the owner: the process goes with its picture (its answer, `failure: 'paused'`, is
   * not kept), so nothing runs and its memory is given back; the next picture starts another.
   */
  halt(why = 'paused'): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = this.child;
    this.child = null;
    child?.kill('SIGKILL');
    if (this.pending) this.settle(this.pending.child, { faces: null, things: null, failure: why, cpuMs: this.wallMs() });
  }

  /**
   * The family's requests first: the picture's process is stopped (SIGSTOP) while one is being
   * answered, for `maxMs` at most (slowed under use, never stopped for good), and goes on after.
   * Nice 19 alone left a request 2x slower at the median while a picture was worked on (two cores,
   * bench/family-while-faces.ts). Not on Windows, which has no such signal: there nice is all.
   */
  hold(maxMs: number): void {
    if (process.platform === 'win32' || !this.pending || this.held) return;
    const child = this.pending.child;
    if (!child.kill('SIGSTOP')) return;
    this.held = setTimeout(() => this.release(), maxMs);
  }

  release(): void {
    if (!this.held) return;
    clearTimeout(this.held);
    this.held = null;
    this.pending?.child.kill('SIGCONT');
  }

  private spawn(): ChildProcess {
    const child = fork(workerEntry.file, [], {
      execArgv: [...workerEntry.execArgv, `--max-old-space-size=${WORKER_HEAP_MB}`],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      if (child.pid) os.setPriority(child.pid, FACE_NICENESS);
    } catch {
      // Not permitted here: it runs at normal priority, and still waits for the family (face-scanner.ts).
    }
    child.on('message', (reply: FaceReply) => {
      if (reply.id !== this.pending?.id) return;
      const cpuMs = reply.cpu_ms;
      this.settle(
        child,
        reply.failure === null
          ? { faces: reply.faces?.map(revive) ?? null, things: reply.things, failure: null, cpuMs }
          : { faces: null, things: null, failure: reply.failure, cpuMs },
      );
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      this.settle(child, { faces: null, things: null, failure: `face worker stopped (${signal ?? `exit ${code}`})`, cpuMs: this.wallMs() });
    });
    return child;
  }

  private wallMs(): number {
    return this.pending ? performance.now() - this.pending.began : 0;
  }

  private settle(child: ChildProcess, result: FaceResult): void {
    const pending = this.pending;
    // An old process's exit (one halted by a pause) never answers the picture a new one is given.
    if (!pending || pending.child !== child) return;
    this.release();
    this.pending = null;
    clearTimeout(pending.timer);
    pending.resolve(result);
    if (!this.closed && this.child === child) {
      this.idleTimer = setTimeout(() => {
        if (this.pending === null && this.child === child) {
          this.child = null;
          child.kill();
        }
      }, IDLE_EXIT_MS);
      this.idleTimer.unref();
    }
  }
}

/** Structured clone keeps Float32Array, but a reply is typed as it was sent: made sure of here. */
function revive(face: FoundFace): FoundFace {
  return { ...face, embedding: face.embedding instanceof Float32Array ? face.embedding : Float32Array.from(face.embedding) };
}

/** The worker's entry: the TypeScript source under tsx, the bundled file beside the server otherwise. */
const workerEntry = (() => {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith('.ts')) {
    return { file: path.join(path.dirname(here), 'face-worker-main.ts'), execArgv: ['--import', import.meta.resolve('tsx')] };
  }
  return { file: path.join(path.dirname(here), 'face-worker.js'), execArgv: [] };
})();
