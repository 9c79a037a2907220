import type { Schedule } from './job.ts';
import { nextDailyAt } from '../services/common/daily-time.ts';

// A time of day is the services' too (a backup says when it runs next): it lives with them.
export { nextDailyAt };

/** A run that failed is tried again after this long, twice as long after each further failure... */
export const FIRST_RETRY_MS = 30_000;
/** ...but never more than this apart, however long it keeps failing. */
export const LONGEST_RETRY_MS = 60 * 60_000;

/** When a job that last succeeded (or has not run yet) runs next, for a run that ended at `now`. */
export function nextRunAt(schedule: Schedule, now: number): number {
  return 'everyMs' in schedule ? now + schedule.everyMs : nextDailyAt(now, schedule.dailyAt);
}

/**
 * When a job that failed `failures` times in a row runs next: 30 s, 1 min, 2 min... at most an
 * hour after `now`. An interval job never runs more often than its interval; a daily one is
 * tried again the same night rather than the next, but never later than its own time.
 */
export function retryAt(
  schedule: Schedule,
  now: number,
  failures: number,
  retry = { firstMs: FIRST_RETRY_MS, longestMs: LONGEST_RETRY_MS },
): number {
  const wait = Math.min(retry.longestMs, retry.firstMs * 2 ** Math.max(0, failures - 1));
  const usual = nextRunAt(schedule, now);
  return 'everyMs' in schedule ? Math.max(usual, now + wait) : Math.min(usual, now + wait);
}
