/** Tries of a media job that fails for its own reasons, the first included, before it is given up. */
export const MAX_JOB_TRIES = 3;
const GROWTH = 4;
const LONGEST_DELAY_MS = 10 * 60_000;

/** How long a job waits after its `failures`-th failure: first, 4x, 16x... (5 s, 20 s), at most 10 minutes. */
export function retryDelayMs(failures: number, firstMs: number): number {
  return Math.min(LONGEST_DELAY_MS, firstMs * GROWTH ** Math.max(0, failures - 1));
}

/**
 * Back-off for media jobs that fail for their own reasons (a thumbnail that cannot be stored
 * for a reason other than the disk's state, an unexpected error): each waits longer before its
 * next try and is given up after MAX_JOB_TRIES, while the rest of the queue goes on. Failures
 * because the disk is full or read-only never come here: the whole queue waits for the disk
 * instead (StorageHealth), and those do not count against any job; nor does a drive that is
 * away, which MediaService counts in the database by starts. Counts are kept in memory: a
 * restart gives a job its tries again.
 */
export class JobBackoff {
  private readonly failures = new Map<string, number>();
  private readonly notBefore = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly now: () => number,
    /** Called when a waiting job may run again. */
    private readonly wake: () => void,
    private readonly firstDelayMs: number,
  ) {}

  /** Jobs waiting for their next try. */
  get waiting(): number {
    return this.notBefore.size;
  }

  ready(jobId: string): boolean {
    const at = this.notBefore.get(jobId);
    return at === undefined || at <= this.now();
  }

  /** Records a failure: `retryInMs` until its next try, or `giveUp` when it has had its tries. */
  fail(jobId: string): { giveUp: true; failures: number } | { giveUp: false; failures: number; retryInMs: number } {
    const failures = (this.failures.get(jobId) ?? 0) + 1;
    if (failures >= MAX_JOB_TRIES) {
      this.forget(jobId);
      return { giveUp: true, failures };
    }
    this.failures.set(jobId, failures);
    const retryInMs = retryDelayMs(failures, this.firstDelayMs);
    this.notBefore.set(jobId, this.now() + retryInMs);
    this.arm();
    return { giveUp: false, failures, retryInMs };
  }

  /** The job succeeded, was given up or is gone. */
  forget(jobId: string): void {
    this.failures.delete(jobId);
    this.notBefore.delete(jobId);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** One timer, for the earliest waiting job. */
  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.notBefore.size === 0) return;
    const next = Math.min(...this.notBefore.values());
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const now = this.now();
        for (const [id, at] of this.notBefore) if (at <= now) this.notBefore.delete(id);
        this.arm();
        this.wake();
      },
      Math.max(0, next - this.now()),
    );
    this.timer.unref();
  }
}
