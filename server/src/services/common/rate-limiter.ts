import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../app-error.ts';
import { aborted, KeyedLock } from './keyed-lock.ts';
import type { RateEventsRepo } from '../../store/database/rate-events.repo.ts';

export interface RateLimits {
  maxFailures: number;
  windowMs: number;
  slowAfter: number;
  slowBaseMs: number;
  slowMaxMs: number;
  /** The longest a guess is held before its answer: the slow-down, the line ahead of it and its check, together. */
  maxHoldMs: number;
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
 *
 * Running one at a time puts a slowed bucket's guesses in a line, each waiting for its own
 * slow-down after the one ahead failed: four sent at once to an account at the 10 s step
 * held the last one for 40 s. So no guess is held past `maxHoldMs`: one whose turn, by the
 * line ahead of it and its slow-down, would come too late is answered at once with 429 and
 * the time its turn would have come (`Retry-After`); and one that is still waiting when its
 * time is up (a check took longer than expected, the hash line was long) gives up then. A
 * guess answered so was never checked: it is no guess and does not count.
 */
export class RateLimiter {
  private readonly locks = new KeyedLock();
  /** Per bucket, when the guesses admitted to its line are expected to be done. */
  private readonly lines = new Map<string, { doneAt: number; guesses: number }>();

  /**
   * `checkMs` is what one check is expected to take (a password hash), so that the wait
   * and the check together stay within the limit.
   */
  constructor(
    private readonly repo: RateEventsRepo,
    private readonly limits: RateLimits,
    private readonly now: () => number,
    private readonly transaction: <T>(work: () => T) => T = (work) => work(),
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
    private readonly checkMs: () => number = () => 0,
  ) {}

  /**
   * Runs `verify` as one counted guess and answers whether it was right. Throws 429
   * `rate_limited` with `Retry-After` when a limited bucket is full, or when the guess would
   * be held past `maxHoldMs`; waits first when the slowed bucket has seen many failures.
   * `verify` gets a signal that aborts when the guess has waited as long as it may, for the
   * waits inside it (the hash line); a check that has begun runs to its end.
   */
  async guess(buckets: GuessBuckets, verify: (signal: AbortSignal) => Promise<boolean>): Promise<boolean> {
    const arrival = this.now();
    const checkMs = this.checkMs();
    const reservation = this.reserve(buckets);
    const keys = [...new Set([...buckets.limited, ...(buckets.slowed === undefined ? [] : [buckets.slowed])])];
    const giveUp = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let admitted = false;
    try {
      this.admit(keys, buckets.slowed, reservation.slowedId, arrival, checkMs);
      admitted = true;
      const checkBy = arrival + this.limits.maxHoldMs - checkMs;
      timer = setTimeout(() => giveUp.abort(this.refusal(keys, this.now())), Math.max(0, checkBy - this.now()));
      // Limited buckets (addresses) are taken first, so one address's queued guesses wait on
      // their own lock, not in the account's line ahead of someone else.
      const release = await this.locks.acquire(keys, giveUp.signal);
      try {
        if (reservation.slowedId !== undefined) await this.slowDown(buckets.slowed!, reservation.slowedId, checkBy, keys, giveUp.signal);
        const right = await verify(giveUp.signal);
        if (right) this.repo.remove(reservation.ids);
        // The next guess on the account waits from when this one failed, not from when it began.
        else if (reservation.slowedId !== undefined) this.repo.moveTo(reservation.slowedId, this.now());
        return right;
      } finally {
        release();
      }
    } catch (error) {
      // Nothing was tried (refused at once, given up, or the hash queue was full): the attempt is no guess.
      this.repo.remove(reservation.ids);
      throw giveUp.signal.aborted ? giveUp.signal.reason : error;
    } finally {
      clearTimeout(timer);
      if (admitted) this.leave(keys);
    }
  }

  /**
   * Throws 429 `rate_limited` with `Retry-After` when any bucket is full (for checks with no
   * slow work): `maxFailures` in the window, or `max` for a bucket with a bound of its own.
   */
  check(buckets: readonly string[], max = this.limits.maxFailures): void {
    const now = this.now();
    for (const bucket of buckets) {
      const { count, oldest } = this.repo.countSince(bucket, now - this.limits.windowMs);
      if (count >= max) {
        const retryMs = (oldest ?? now) + this.limits.windowMs - now;
        throw new AppError('rate_limited', undefined, {
          headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryMs / 1000))) },
        });
      }
    }
  }

  /** Failures recorded in a bucket within the window (guesses being checked count as failures until they turn out right). */
  failures(bucket: string): number {
    return this.repo.countSince(bucket, this.now() - this.limits.windowMs).count;
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

  /**
   * Takes the guess into its buckets' lines, or refuses it at once when its turn would come
   * too late: after the guesses ahead in every line it joins, and, on a slowed bucket, after
   * the delay the failures before it call for (those ahead counted as failing: a guess that
   * turns out right only makes the estimate cautious).
   */
  private admit(keys: readonly string[], slowed: string | undefined, slowedId: number | undefined, now: number, checkMs: number): void {
    let turn = now;
    for (const key of keys) turn = Math.max(turn, this.lines.get(key)?.doneAt ?? now);
    if (slowed !== undefined && slowedId !== undefined) {
      const { count, latest } = this.repo.countBefore(slowed, now - this.limits.windowMs, slowedId);
      const lastFailure = Math.max(latest ?? -Infinity, this.lines.get(slowed)?.doneAt ?? -Infinity);
      if (lastFailure > -Infinity) turn = Math.max(turn, lastFailure + this.delayAfter(count, checkMs));
    }
    if (turn + checkMs - now > this.limits.maxHoldMs) throw rateLimited(turn - now);
    for (const key of keys) {
      const line = this.lines.get(key) ?? { doneAt: now, guesses: 0 };
      line.doneAt = Math.max(line.doneAt, turn + checkMs);
      line.guesses++;
      this.lines.set(key, line);
    }
  }

  private leave(keys: readonly string[]): void {
    for (const key of keys) {
      const line = this.lines.get(key);
      if (line && --line.guesses === 0) this.lines.delete(key);
    }
  }

  /** The refusal of a guess that waited as long as it may: try again when the lines are expected to be done. */
  private refusal(keys: readonly string[], now: number): AppError {
    let turn = now;
    for (const key of keys) turn = Math.max(turn, this.lines.get(key)?.doneAt ?? now);
    return rateLimited(turn - now);
  }

  /** Waits until the delay the bucket's earlier failures call for has passed since the latest. */
  private async slowDown(bucket: string, ownId: number, checkBy: number, keys: readonly string[], signal: AbortSignal): Promise<void> {
    const now = this.now();
    const { count, latest } = this.repo.countBefore(bucket, now - this.limits.windowMs, ownId);
    const wait = latest === null ? 0 : latest + this.delayAfter(count, this.checkMs()) - now;
    if (wait <= 0) return;
    if (now + wait > checkBy) throw rateLimited(wait);
    await Promise.race([this.wait(wait), aborted(signal)]);
  }

  /** The slow-down after `failures`, never so long that a guess alone in its line could not be checked in time. */
  private delayAfter(failures: number, checkMs: number): number {
    const { slowAfter, slowBaseMs, slowMaxMs, maxHoldMs } = this.limits;
    if (failures < slowAfter) return 0;
    return Math.min(slowMaxMs, maxHoldMs - checkMs, slowBaseMs * 2 ** Math.min(failures - slowAfter, 30));
  }
}

function rateLimited(retryMs: number): AppError {
  return new AppError('rate_limited', undefined, {
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryMs / 1000))) },
  });
}

/** Rejects when the signal aborts (with its reason); never settles otherwise. */

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
