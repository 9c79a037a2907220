/** The pace is taken over this last stretch of the run: a pace from the start would keep the slow first seconds (the database, the listing) for the whole run. */
const WINDOW_MS = 30_000;
/** Under this much measured time, a pace is a guess: no estimate is given. */
const FAIR_AFTER_MS = 5_000;
/** One sample a second is plenty for a half-minute window. */
const SAMPLE_EVERY_MS = 1_000;

/**
 * How long a run has left, from how fast its bytes went lately. Told the bytes done as they go
 * (note), asked at any time (secondsLeft): a stall shows as a slower pace at once, since the
 * window ends at the moment asked, not at the last byte.
 */
export class TimeLeft {
  private samples: { at: number; done: number }[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  note(done: number): void {
    const at = this.now();
    const last = this.samples.at(-1);
    if (last !== undefined && at - last.at < SAMPLE_EVERY_MS) return;
    this.samples.push({ at, done });
    // Keeps one sample older than the window: the pace is always measured over the whole window once the run is that old.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - WINDOW_MS) this.samples.shift();
  }

  /** Whole seconds, or null while the pace is not known well enough (too early, or nothing moved in the window). */
  secondsLeft(done: number, total: number | null): number | null {
    if (total === null) return null;
    const at = this.now();
    const left = Math.max(0, total - done);
    if (left === 0) return 0;
    // The newest sample at or before the window's start (the oldest one while the run is younger than the window).
    let from = this.samples[0];
    for (const sample of this.samples) if (sample.at <= at - WINDOW_MS) from = sample;
    if (from === undefined || at - from.at < FAIR_AFTER_MS || done <= from.done) return null;
    const perMs = (done - from.done) / (at - from.at);
    return Math.ceil(left / perMs / 1000);
  }
}
