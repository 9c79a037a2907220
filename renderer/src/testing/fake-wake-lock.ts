/**
 * navigator.wakeLock for tests in Node: every lock it handed out, and which are still held. A
 * request takes a moment, as a browser's does, so two requests can overlap.
 */
export class FakeWakeLock {
  readonly sentinels: FakeSentinel[] = [];
  /** Set to refuse the next requests, as a phone in battery saver does. */
  refuse = false;

  async request(type: 'screen'): Promise<WakeLockSentinel> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (this.refuse) throw new DOMException('Wake lock refused', 'NotAllowedError');
    const sentinel = new FakeSentinel(type);
    this.sentinels.push(sentinel);
    return sentinel as unknown as WakeLockSentinel;
  }

  get held(): number {
    return this.sentinels.filter((s) => !s.released).length;
  }

  /** The page was hidden: the browser lets go of every lock. */
  releaseAll(): void {
    for (const sentinel of this.sentinels) if (!sentinel.released) void sentinel.release();
  }
}

class FakeSentinel extends EventTarget {
  released = false;
  constructor(readonly type: 'screen') {
    super();
  }
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.dispatchEvent(new Event('release'));
  }
}
