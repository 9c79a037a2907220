/**
 * Background work (a backup) takes its turn behind the family's requests: before each chunk it
 * asks for a turn, and while a request is being answered it waits, at most `maxWaitMs` at a time,
 * so it slows down under use but never stops. This is the server's own "lower priority": the
 * copy runs on the same event loop and the same libuv pool as the answers, where the OS's nice
 * and ionice cannot tell the two apart.
 */
export class FamilyFirst {
  private inFlight = 0;
  private waiting: (() => void)[] = [];
  private readonly busyListeners: ((busy: boolean) => void)[] = [];

  constructor(private readonly maxWaitMs = 200) {}

  get busy(): boolean {
    return this.inFlight > 0;
  }

  /**
   * Told when the first request starts being answered (true) and when the last one ends (false):
   * work in another process (face finding) is held for the time, which turn() cannot do.
   */
  onBusy(listener: (busy: boolean) => void): void {
    this.busyListeners.push(listener);
  }

  /** A request is being answered until the returned function is called (once; later calls do nothing). */
  answering(): () => void {
    this.inFlight += 1;
    if (this.inFlight === 1) for (const listener of this.busyListeners) listener(true);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.inFlight -= 1;
      if (this.inFlight === 0) {
        for (const listener of this.busyListeners) listener(false);
        this.wakeAll();
      }
    };
  }

  /** Resolves at once when the server is idle, else when it becomes idle or after maxWaitMs. */
  turn(signal?: AbortSignal): Promise<void> {
    if (this.inFlight === 0 || signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const go = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', go);
        this.waiting = this.waiting.filter((waiter) => waiter !== go);
        resolve();
      };
      const timer = setTimeout(go, this.maxWaitMs);
      signal?.addEventListener('abort', go, { once: true });
      this.waiting.push(go);
    });
  }

  private wakeAll(): void {
    for (const go of [...this.waiting]) go();
  }
}
