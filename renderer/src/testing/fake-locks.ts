/**
 * navigator.locks for tests in Node: exclusive locks by name, granted in the order asked, as
 * the Web Locks API grants them. One instance stands for the browser: every "tab" of a test
 * shares it.
 */
export class FakeLockManager {
  private readonly tails = new Map<string, Promise<unknown>>();
  /** The names asked for, in order: what a test checks the lock was taken under. */
  readonly requested: string[] = [];
  held = 0;
  mostHeldAtOnce = 0;

  request<T>(name: string, callback: (lock: { name: string; mode: 'exclusive' }) => Promise<T> | T): Promise<T> {
    this.requested.push(name);
    const before = this.tails.get(name) ?? Promise.resolve();
    const run = before.then(async () => {
      this.held += 1;
      this.mostHeldAtOnce = Math.max(this.mostHeldAtOnce, this.held);
      try {
        return await callback({ name, mode: 'exclusive' });
      } finally {
        this.held -= 1;
      }
    });
    this.tails.set(
      name,
      run.catch(() => undefined),
    );
    return run;
  }
}
