/**
 * How fast the bytes leave lately: the total sent, sampled about once a second, over the last
 * few seconds. Sampled on a clock rather than on progress events, so a stall brings it down to
 * nothing instead of freezing the last speed on screen.
 */
export class Rate {
  private samples: { at: number; sent: number }[] = [];

  constructor(
    private readonly windowMs = 10_000,
    /** Less than this much history is not yet a speed. */
    private readonly minimumMs = 1_500,
  ) {}

  add(at: number, sent: number): void {
    const last = this.samples.at(-1);
    // Fewer bytes than before: an upload restarted from where the server had it, or finished
    // ones were cleared away. What came before says nothing about what comes now.
    if (last && sent < last.sent) this.samples = [];
    this.samples.push({ at, sent });
    // Keep one sample at or beyond the window's start, so the span always covers the window.
    while (this.samples.length > 2 && this.samples[1]!.at <= at - this.windowMs) this.samples.shift();
  }

  /** Bytes per second over the window; 0 while there is too little history to tell. */
  perSecond(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.at - first.at < this.minimumMs) return 0;
    return (last.sent - first.sent) / ((last.at - first.at) / 1000);
  }

  /** The connection dropped: the speed from before says nothing of the speed after. */
  reset(): void {
    this.samples = [];
  }
}
