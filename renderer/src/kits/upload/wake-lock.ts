/** The part of the Screen Wake Lock API used here: `navigator.wakeLock`. */
export interface WakeLockPort {
  request(type: 'screen'): Promise<WakeLockSentinel>;
}

/**
 * Keeps the screen on while uploads are under way, where the browser offers it: a phone whose
 * screen goes dark stops its page, and the uploads with it. The API exists only in secure
 * contexts (on a plain-HTTP home address it is absent: nothing happens, the panel's words
 * remain); the browser lets go of the lock whenever the page is hidden, so it is taken again
 * when the page shows. Requests are made one at a time: two at once would hold two locks, and
 * the second would never be let go.
 */
export class ScreenAwake {
  private sentinel: WakeLockSentinel | null = null;
  private wanted = false;
  private tail: Promise<void> = Promise.resolve();

  constructor(
    private readonly lock: () => WakeLockPort | undefined,
    private readonly visible: () => boolean,
  ) {}

  /** Whether the screen should stay on; also called when the page shows again. */
  want(wanted: boolean): Promise<void> {
    this.wanted = wanted;
    this.tail = this.tail.then(() => this.settle());
    return this.tail;
  }

  /** Asked again as things stand (the page became visible). */
  recheck(): Promise<void> {
    return this.want(this.wanted);
  }

  get held(): boolean {
    return this.sentinel !== null;
  }

  private async settle(): Promise<void> {
    const port = this.lock();
    if (this.wanted && !this.sentinel && port && this.visible()) {
      try {
        const sentinel = await port.request('screen');
        sentinel.addEventListener('release', () => {
          if (this.sentinel === sentinel) this.sentinel = null;
        });
        this.sentinel = sentinel;
      } catch {
        // Refused (battery saver, the page hidden meanwhile): the uploads go on, the screen may sleep.
      }
    }
    if (!this.wanted && this.sentinel) {
      const sentinel = this.sentinel;
      this.sentinel = null;
      await sentinel.release().catch(() => undefined);
    }
  }
}
