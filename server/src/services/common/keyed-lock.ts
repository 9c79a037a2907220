/** A promise that rejects when `signal` aborts (with its reason), for racing a wait against it. */
export function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    else signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

/**
 * First come, first served mutual exclusion per key; several keys are taken in the order
 * given. A waiter whose signal aborts leaves its place without breaking the line behind it.
 */
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(keys: readonly string[], signal: AbortSignal): Promise<() => void> {
    const releases: (() => void)[] = [];
    const releaseAll = () => {
      for (const release of releases.reverse()) release();
    };
    try {
      for (const key of new Set(keys)) releases.push(await this.acquireOne(key, signal));
    } catch (error) {
      releaseAll();
      throw error;
    }
    return releaseAll;
  }

  private async acquireOne(key: string, signal: AbortSignal): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    // Forgotten only once everything ahead is done too, so a newcomer never skips the line.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    try {
      await Promise.race([previous, aborted(signal)]);
    } catch (error) {
      // Whoever comes next waits for those ahead of this one, then goes straight on.
      release();
      throw error;
    }
    return release;
  }

  /** Runs `work` holding `key`: work under the same key runs one at a time, in the order asked. */
  async run<T>(key: string, work: () => Promise<T>, signal: AbortSignal = new AbortController().signal): Promise<T> {
    const release = await this.acquire([key], signal);
    try {
      return await work();
    } finally {
      release();
    }
  }
}
