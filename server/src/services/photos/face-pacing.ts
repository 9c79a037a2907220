import type { FaceSpeed } from '../../contract/face-finding-responses.ts';

/** The share of one core each speed may keep busy (the face worker is one process, one picture at a time). */
export const SPEED_SHARE: Record<FaceSpeed, number> = { gentle: 0.25, normal: 0.5, fast: 1 };

export interface FaceChoice {
  paused: boolean;
  speed: FaceSpeed;
}

export const DEFAULT_FACE_CHOICE: FaceChoice = { paused: false, speed: 'normal' };

/** Pictures the recent speed is measured over. */
const RECENT = 20;

/**
 * The rest after a picture whose work took `workMs` of the worker's CPU, so that work is the
 * speed's share of the time: a quarter (gentle) rests 3x the work, half rests as long, fast not at all.
 */
export function restAfter(workMs: number, speed: FaceSpeed): number {
  const share = SPEED_SHARE[speed];
  return Math.round((Math.max(0, workMs) * (1 - share)) / share);
}

/**
 * The owner's pause and speed as the face finder obeys them: it waits here while paused, and
 * rests here after each picture. A change wakes a waiting finder at once (a rest is cut to what
 * the new speed asks; a pause stops the worker, see FaceScanner). Also keeps the recent speed.
 */
export class FacePace {
  private choice: FaceChoice;
  /** Each recent picture's time, from its turn to the end of its rest. */
  private cycles: number[] = [];
  private last: { work_ms: number; rest_ms: number } | null = null;
  private wakeUp: (() => void) | null = null;
  private readonly changeListeners: (() => void)[] = [];
  private readonly pictureListeners: ((finished: boolean) => void)[] = [];

  constructor(choice: FaceChoice) {
    this.choice = { ...choice };
  }

  get paused(): boolean {
    return this.choice.paused;
  }

  get speed(): FaceSpeed {
    return this.choice.speed;
  }

  get lastPhoto(): { work_ms: number; rest_ms: number } | null {
    return this.last;
  }

  set(choice: FaceChoice): void {
    const changed = choice.paused !== this.choice.paused || choice.speed !== this.choice.speed;
    // The speed measured was another speed's (or a pause's): measured afresh.
    if (changed) this.cycles = [];
    this.choice = { ...choice };
    if (!changed) return;
    for (const listener of this.changeListeners) listener();
    this.wake();
  }

  /** Called with every change of the pause or speed (the scanner stops its worker on a pause). */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener);
  }

  /** Called after each picture (`false`) and when every picture is looked at (`true`). */
  onPicture(listener: (finished: boolean) => void): void {
    this.pictureListeners.push(listener);
  }

  finished(): void {
    for (const listener of this.pictureListeners) listener(true);
  }

  /** Resolves once not paused (or `stopped()` says the server is stopping and `wake` was called). */
  async untilRunning(stopped: () => boolean): Promise<void> {
    while (this.paused && !stopped()) await this.sleep(null);
  }

  /**
   * After a picture: rests as the speed asks. `workMs` is the worker's CPU time for it, `spentMs`
   * the wall time since its turn began. A change of speed during the rest cuts or lengthens it.
   */
  async rest(workMs: number, spentMs: number, stopped: () => boolean): Promise<void> {
    const planned = restAfter(workMs, this.speed);
    this.last = { work_ms: Math.round(workMs), rest_ms: planned };
    for (const listener of this.pictureListeners) listener(false);
    const began = performance.now();
    for (;;) {
      if (stopped() || this.paused) break;
      const left = restAfter(workMs, this.speed) - (performance.now() - began);
      if (left <= 0) break;
      await this.sleep(left);
    }
    this.cycles.push(spentMs + (performance.now() - began));
    if (this.cycles.length > RECENT) this.cycles.shift();
  }

  /** Photos a minute over the recent pictures, rests included; null before the first. */
  photosPerMinute(): number | null {
    if (this.paused || this.cycles.length === 0) return null;
    const total = this.cycles.reduce((a, b) => a + b, 0);
    return total > 0 ? (this.cycles.length * 60_000) / total : null;
  }

  /** Ends a wait at once (a change, or the server stopping). */
  wake(): void {
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  private sleep(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      const timer = ms === null ? null : setTimeout(done, ms);
      timer?.unref();
      function done() {
        if (timer) clearTimeout(timer);
        resolve();
      }
      this.wakeUp = done;
    });
  }
}
