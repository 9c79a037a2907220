import { AppError } from '../errors.ts';
import type { RateEventsRepo } from '../store/rate-events.repo.ts';

/**
 * Counts failures per bucket (an account, a client address) in a sliding window and refuses
 * further attempts once any bucket is full. Counts live in the database: restarting the
 * server does not hand a guesser a fresh allowance.
 */
export class RateLimiter {
  constructor(
    private readonly repo: RateEventsRepo,
    private readonly limits: { maxFailures: number; windowMs: number },
    private readonly now: () => number,
  ) {}

  /** Throws 429 `rate_limited` with `Retry-After` when any bucket is full. */
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
}
