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

/** Faces and things found (null for what was not looked for), or why the picture could not be looked at. */
export type FaceResult =
  { faces: FoundFace[] | null; things: FoundThing[] | null; failure: null } | { faces: null; things: null; failure: string };

/** One face worker process, one picture at a time, started on the first and stopped when idle. */
export class FaceWorker {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private pending: { id: number; resolve: (r: FaceResult) => void; timer: NodeJS.Timeout } | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private closed = false;

  find(file: string, looks: Looks = { faces: true, things: false }): Promise<FaceResult> {
    if (this.closed) return Promise.resolve({ faces: null, things: null, failure: 'server stopping' });
    if (this.pending) throw new Error('one picture at a time');
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const child = (this.child ??= this.spawn());
    return new Promise((resolve) => {
      const job: FaceJob = { id: this.nextId++, file, looks };
      const timer = setTimeout(() => child.kill('SIGKILL'), JOB_TIMEOUT_MS);
      this.pending = { id: job.id, resolve, timer };
      child.send(job);
    });
  }

  close(): void {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.child?.kill('SIGKILL');
    this.settle(null, { faces: null, things: null, failure: 'server stopping' });
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
      this.settle(
        child,
        reply.failure === null
          ? { faces: reply.faces?.map(revive) ?? null, things: reply.things, failure: null }
          : { faces: null, things: null, failure: reply.failure },
      );
    });
    child.on('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      this.settle(child, { faces: null, things: null, failure: `face worker stopped (${signal ?? `exit ${code}`})` });
    });
    return child;
  }

  private settle(child: ChildProcess | null, result: FaceResult): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = null;
    clearTimeout(pending.timer);
    pending.resolve(result);
    if (child && !this.closed) {
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
