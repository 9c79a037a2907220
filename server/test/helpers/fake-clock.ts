import type { Clock } from '../../src/jobs/clock.ts';

/** Lets every promise chain started so far settle: microtasks all run before the next macrotask. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * A clock that moves only when the test says: timers fire in order as it passes their time,
 * so a test of a schedule sleeps for nothing and asserts on what ran, never on how long it took.
 */
export class FakeClock implements Clock {
  private time: number;
  private nextId = 0;
  private readonly timers = new Map<number, { at: number; fire: () => void }>();

  constructor(start = 0) {
    this.time = start;
  }

  now = (): number => this.time;

  after(ms: number, fire: () => void): () => void {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + Math.max(0, ms), fire });
    return () => this.timers.delete(id);
  }

  /** Timers waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves `ms` forward, firing each timer due on the way at its own time and letting what it starts settle. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      await settle();
      let due: [number, { at: number; fire: () => void }] | undefined;
      for (const timer of this.timers) if (timer[1].at <= until && (!due || timer[1].at < due[1].at)) due = timer;
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].fire();
    }
    this.time = until;
    await settle();
  }

  /** Moves to `at` (ms since the epoch). */
  advanceTo(at: number): Promise<void> {
    return this.advance(at - this.time);
  }
}
