import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../errors.ts';
import type { RateEventsRepo } from '../store/rate-events.repo.ts';

export interface RateLimits {
  maxFailures: number;
  windowMs: number;
  slowAfter: number;
  slowBaseMs: number;
  slowMaxMs: number;
}

/** The buckets one guess counts in. */
export interface GuessBuckets {
  /** Refused with 429 once `maxFailures` fill any of them: the guesser's address (or a link and address). */
  limited: readonly string[];
  /**
   * Never refused, only slowed: the account (or the link) under attack. Refusing here would
   * let anyone lock the rightful user out with ten wrong passwords.
   */
  slowed?: string | undefined;
}

/**
 * Counts failures per bucket in a sliding window. Counts live in the database: restarting
 * the server does not hand a guesser a fresh allowance.
 *
 * A guess (`guess`) is written down as a failure before anything slow happens, in the same
 * tick as the request's arrival, and struck out again only if it was right. So parallel
 * guesses all count: sixty wrong passwords sent at once get ten answers and fifty 429s, where
 * a check before the slow hash and a count after it let all sixty through. Guesses sharing a
 * bucket also run one at a time, so one address never holds more than one hash slot.
 */
export class RateLimiter {
  private readonly locks = new KeyedLock();

  constructor(
    private readonly repo: RateEventsRepo,
    private readonly limits: RateLimits,
    private readonly now: () => number,
    private readonly transaction: <T>(work: () => T) => T = (work) => work(),
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {}

  /**
   * Runs `verify` as one counted guess and answers whether it was right. Throws 429
   * `rate_limited` with `Retry-After` when a limited bucket is full; waits first when the
   * slowed bucket has seen many failures.
   */
  async guess(buckets: GuessBuckets, verify: () => Promise<boolean>): Promise<boolean> {
    const reservation = this.reserve(buckets);
    const keys = [...buckets.limited, ...(buckets.slowed === undefined ? [] : [buckets.slowed])];
    try {
      // Limited buckets (addresses) are taken first, so one address's queued guesses wait on
      // their own lock, not in the account's line ahead of someone else.
      const release = await this.locks.acquire(keys);
      try {
        if (reservation.slowedId !== undefined) await this.slowDown(buckets.slowed!, reservation.slowedId);
        const right = await verify();
        if (right) this.repo.remove(reservation.ids);
        // The next guess on the account waits from when this one failed, not from when it began.
        else if (reservation.slowedId !== undefined) this.repo.moveTo(reservation.slowedId, this.now());
        return right;
      } finally {
        release();
      }
    } catch (error) {
      // Nothing was tried (the hash queue was full): the attempt is no guess.
      this.repo.remove(reservation.ids);
      throw error;
    }
  }

  /** Throws 429 `rate_limited` with `Retry-After` when any bucket is full (for checks with no slow work). */
  check(buckets: readonly string[]): void {
    const now = this.now();
    for (const bucket of buckets) {
      const { count, oldest } = this.repo.countSince(bucket, now - this.limits.windowMs);
      if (count >= this.limits.maxFailures) {
        const retryMs = (oldest ?? now) + this.limits.windowMs - now;
        throw new AppError('rate_limited', undefined, {
          headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryMs / 1000))) },
        });
      }
    }
  }

  fail(buckets: readonly string[]): void {
    const now = this.now();
    for (const bucket of buckets) this.repo.add(bucket, now);
  }

  reset(bucket: string): void {
    this.repo.clear(bucket);
  }

  pruneExpired(): void {
    this.repo.prune(this.now() - this.limits.windowMs);
  }

  /** Checks and records the attempt in one synchronous step: no other request runs in between. */
  private reserve(buckets: GuessBuckets): { ids: number[]; slowedId: number | undefined } {
    return this.transaction(() => {
      this.check(buckets.limited);
      const now = this.now();
      const ids = buckets.limited.map((bucket) => this.repo.add(bucket, now));
      const slowedId = buckets.slowed === undefined ? undefined : this.repo.add(buckets.slowed, now);
      if (slowedId !== undefined) ids.push(slowedId);
      return { ids, slowedId };
    });
  }

  /** Waits until the delay the bucket's earlier failures call for has passed since the latest. */
  private async slowDown(bucket: string, ownId: number): Promise<void> {
    const now = this.now();
    const { count, latest } = this.repo.countBefore(bucket, now - this.limits.windowMs, ownId);
    const wait = latest === null ? 0 : latest + this.delayAfter(count) - now;
    if (wait > 0) await this.wait(wait);
  }

  private delayAfter(failures: number): number {
    const { slowAfter, slowBaseMs, slowMaxMs } = this.limits;
    if (failures < slowAfter) return 0;
    return Math.min(slowMaxMs, slowBaseMs * 2 ** Math.min(failures - slowAfter, 30));
  }
}

/**
 * The bucket key of a client address. IPv6 counts by /64: a home or a phone gets a whole
 * /64, so counting single addresses would give a guesser 2^64 fresh allowances.
 */
export function addressKey(ip: string | null): string {
  if (!ip) return 'unknown';
  const bare = ip.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  if (net.isIPv6(bare)) return `${expandIPv6(bare).slice(0, 4).join(':')}::/64`;
  return bare;
}

/** The eight groups of an IPv6 address, without leading zeros (an IPv4 tail becomes two groups). */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = tail === undefined ? [] : Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  return [...headGroups, ...zeros, ...tailGroups].map((g) => (parseInt(g, 16) || 0).toString(16));
}

/** First come, first served mutual exclusion per key; several keys are taken in the order given. */
class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async acquire(keys: readonly string[]): Promise<() => void> {
    const releases: (() => void)[] = [];
    for (const key of new Set(keys)) releases.push(await this.acquireOne(key));
    return () => {
      for (const release of releases.reverse()) release();
    };
  }

  private async acquireOne(key: string): Promise<() => void> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
