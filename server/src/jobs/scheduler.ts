import type { Logger } from '../log.ts';
import { systemClock, type Clock } from './clock.ts';
import type { Job, Schedule } from './job.ts';
import { nextRunAt, retryAt } from './schedule.ts';
import { StepsFailed } from './steps.ts';

/** What is known of a job's runs since the server started (kept in memory only). */
export interface JobStatus {
  readonly name: string;
  readonly schedule: Schedule;
  readonly running: boolean;
  /** When the last run started (ms since the epoch), or null before the first. */
  readonly lastRunAt: number | null;
  /** When the last run that succeeded ended. */
  readonly lastSuccessAt: number | null;
  /** When the last run that failed ended, and what it said. */
  readonly lastFailureAt: number | null;
  readonly lastError: string | null;
  /** Failures in a row: 0 once a run succeeds. */
  readonly failures: number;
  /** When it runs next on its own, or null while it runs or once stopped. */
  readonly nextRunAt: number | null;
}

export interface SchedulerOptions {
  log: Logger;
  clock?: Clock;
  /**
   * Whether an error is one that something else already reports: a full or read-only disk,
   * which StorageHealth marks and logs once when the disk changes state (storage.noteFailure).
   * The scheduler then logs nothing for it, rather than the same line every run.
   */
  alreadyReported?: (error: unknown) => boolean;
  /** How long a failing job waits before its next try (defaults in schedule.ts). */
  retry?: { firstMs: number; longestMs: number };
}

interface Entry {
  job: Job;
  status: { -readonly [K in keyof JobStatus]: JobStatus[K] };
  cancelTimer: (() => void) | null;
  controller: AbortController | null;
  /** The run under way; it settles once its outcome is recorded and never rejects. */
  running: Promise<void> | null;
  /** A run asked for while one was under way: it starts when that one ends. */
  again: Promise<void> | null;
}

/**
 * Starts the server's jobs on their schedules, one run of each at a time, and stops them.
 * A job that fails is tried again later, later each time it fails again (never in a loop that
 * keeps the disk or the log busy, as the media queue once did on a full disk), and at its
 * usual rhythm again once it succeeds.
 */
export class Scheduler {
  private readonly entries = new Map<string, Entry>();
  private readonly clock: Clock;
  private started = false;
  private stopped = false;
  private stopping: Promise<void> | null = null;

  constructor(
    jobs: readonly Job[],
    private readonly options: SchedulerOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    for (const job of jobs) {
      if (this.entries.has(job.name)) throw new Error(`two jobs are named ${job.name}`);
      checkSchedule(job);
      this.entries.set(job.name, {
        job,
        status: {
          name: job.name,
          schedule: job.schedule,
          running: false,
          lastRunAt: null,
          lastSuccessAt: null,
          lastFailureAt: null,
          lastError: null,
          failures: 0,
          nextRunAt: null,
        },
        cancelTimer: null,
        controller: null,
        running: null,
        again: null,
      });
    }
  }

  /** Runs the jobs due at start at once (their first steps before this returns) and sets the others' timers. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    for (const entry of this.entries.values()) {
      const { schedule } = entry.job;
      if ('everyMs' in schedule && schedule.atStart) void this.launch(entry);
      else this.arm(entry, nextRunAt(schedule, this.clock.now()));
    }
  }

  /** Stops the timers, asks the runs under way to stop, and resolves once they have. */
  stop(): Promise<void> {
    this.stopped = true;
    return (this.stopping ??= (async () => {
      for (const entry of this.entries.values()) {
        this.disarm(entry);
        entry.controller?.abort();
      }
      await Promise.all([...this.entries.values()].map((entry) => entry.again ?? entry.running));
    })());
  }

  /**
   * Runs `name` now, whatever its schedule or back-off, and resolves when that run has ended
   * (it never rejects: the outcome is in jobs()). Asked while a run is under way, that run
   * may have passed what the caller just changed: another follows it.
   */
  runNow(name: string): Promise<void> {
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`no job is named ${name}`);
    if (this.stopped) return Promise.resolve();
    if (!entry.running) return this.launch(entry);
    return (entry.again ??= entry.running.then(() => {
      entry.again = null;
      return this.stopped ? undefined : this.launch(entry);
    }));
  }

  /**
   * What the failing jobs were waiting for is back (the disk takes writes again): those that
   * were backing off run at their usual rhythm again instead of after their longer wait.
   */
  endBackoff(): void {
    if (!this.started || this.stopped) return;
    for (const entry of this.entries.values()) {
      if (entry.status.failures > 0 && !entry.running) this.arm(entry, nextRunAt(entry.job.schedule, this.clock.now()));
    }
  }

  /** Each job's runs so far (a copy: nothing here changes them). */
  jobs(): JobStatus[] {
    return [...this.entries.values()].map((entry) => Object.freeze({ ...entry.status }));
  }

  private launch(entry: Entry): Promise<void> {
    this.disarm(entry);
    const controller = new AbortController();
    entry.controller = controller;
    entry.status.running = true;
    entry.status.lastRunAt = this.clock.now();
    // Started in this turn (a job's first step runs before start() returns), settled in a later one.
    const run = (async () => entry.job.run(controller.signal))();
    entry.running = run
      .then(
        () => this.succeeded(entry),
        (error: unknown) => (controller.signal.aborted ? undefined : this.failed(entry, error)),
      )
      .finally(() => {
        entry.status.running = false;
        entry.controller = null;
        entry.running = null;
        if (entry.again || this.stopped) return;
        const now = this.clock.now();
        this.arm(
          entry,
          entry.status.failures > 0
            ? retryAt(entry.job.schedule, now, entry.status.failures, this.options.retry)
            : nextRunAt(entry.job.schedule, now),
        );
      });
    return entry.running;
  }

  private succeeded(entry: Entry): void {
    entry.status.lastSuccessAt = this.clock.now();
    entry.status.failures = 0;
  }

  private failed(entry: Entry, error: unknown): void {
    const { status } = entry;
    status.failures++;
    status.lastFailureAt = this.clock.now();
    status.lastError = String(error);
    const retryInMs = retryAt(entry.job.schedule, status.lastFailureAt, status.failures, this.options.retry) - status.lastFailureAt;
    const failures = error instanceof StepsFailed ? error.failures : [{ step: undefined, error }];
    for (const failure of failures) {
      if (this.options.alreadyReported?.(failure.error)) continue;
      this.options.log.error('job failed', {
        job: status.name,
        step: failure.step,
        error: String(failure.error),
        failures: status.failures,
        retry_in_ms: retryInMs,
      });
    }
  }

  private arm(entry: Entry, at: number): void {
    this.disarm(entry);
    if (this.stopped) return;
    entry.status.nextRunAt = at;
    entry.cancelTimer = this.clock.after(at - this.clock.now(), () => {
      entry.cancelTimer = null;
      if (this.stopped || entry.running) return;
      // A long wait is made of several timers: this one may have fired before the time.
      if (this.clock.now() < at) this.arm(entry, at);
      else void this.launch(entry);
    });
  }

  private disarm(entry: Entry): void {
    entry.cancelTimer?.();
    entry.cancelTimer = null;
    entry.status.nextRunAt = null;
  }
}

function checkSchedule(job: Job): void {
  const { schedule } = job;
  const ok =
    'everyMs' in schedule
      ? Number.isFinite(schedule.everyMs) && schedule.everyMs > 0
      : Number.isInteger(schedule.dailyAt.hour) &&
        schedule.dailyAt.hour >= 0 &&
        schedule.dailyAt.hour < 24 &&
        Number.isInteger(schedule.dailyAt.minute) &&
        schedule.dailyAt.minute >= 0 &&
        schedule.dailyAt.minute < 60;
  if (!ok) throw new Error(`job ${job.name} has no usable schedule: ${JSON.stringify(schedule)}`);
}
