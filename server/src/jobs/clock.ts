/** Time as the scheduler sees it: the system's, or a test's that moves only when told. */
export interface Clock {
  now(): number;
  /** Calls `fire` once, after about `ms`; answers how to cancel it. It never keeps the process alive. */
  after(ms: number, fire: () => void): () => void;
}

/** Node's timers take at most 2^31-1 ms; a longer wait is made of several (the scheduler checks the time when one fires). */
const LONGEST_TIMER_MS = 2 ** 31 - 1;

export const systemClock: Clock = {
  now: Date.now,
  after(ms, fire) {
    const timer = setTimeout(fire, Math.min(Math.max(0, ms), LONGEST_TIMER_MS));
    // A server stopping waits for no timer: the scheduler's stop() ends what runs.
    timer.unref();
    return () => clearTimeout(timer);
  },
};
