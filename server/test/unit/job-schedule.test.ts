import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FIRST_RETRY_MS, LONGEST_RETRY_MS, nextDailyAt, retryAt } from '../../src/jobs/schedule.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Runs `body` with this process's clock in time zone `zone` (Node reads TZ again when it is set). */
function inTimeZone(zone: string, body: () => void): void {
  const was = process.env.TZ;
  process.env.TZ = zone;
  try {
    body();
  } finally {
    if (was === undefined) delete process.env.TZ;
    else process.env.TZ = was;
  }
}

test('a daily job runs next at its time today if that is still ahead, else tomorrow, never twice in the same minute', () => {
  const at3 = { hour: 3, minute: 0 };
  assert.equal(nextDailyAt(new Date(2024, 4, 1, 1, 0).getTime(), at3), new Date(2024, 4, 1, 3, 0).getTime());
  assert.equal(
    nextDailyAt(new Date(2024, 4, 1, 3, 0).getTime(), at3),
    new Date(2024, 4, 2, 3, 0).getTime(),
    'a run at 03:00 is next at 03:00 tomorrow',
  );
  assert.equal(nextDailyAt(new Date(2024, 11, 31, 23, 0).getTime(), at3), new Date(2025, 0, 1, 3, 0).getTime(), 'over the new year');
});

test('a daily job keeps its time of day across summer time: 23 hours apart in spring, 25 in autumn, and a skipped time runs just after the gap', () => {
  inTimeZone('Europe/Berlin', () => {
    const at3 = { hour: 3, minute: 0 };
    // Clocks go forward at 02:00 on 31 March 2024 and back at 03:00 on 27 October.
    const spring = new Date(2024, 2, 30, 3, 0).getTime();
    const next = nextDailyAt(spring, at3);
    assert.equal(next - spring, 23 * HOUR);
    assert.equal(new Date(next).getHours(), 3);
    const autumn = new Date(2024, 9, 26, 3, 0).getTime();
    assert.equal(nextDailyAt(autumn, at3) - autumn, 25 * HOUR);
    const skipped = nextDailyAt(spring, { hour: 2, minute: 30 });
    assert.deepEqual([new Date(skipped).getDate(), new Date(skipped).getHours(), new Date(skipped).getMinutes()], [31, 3, 30]);
  });
});

test('a failing job waits 30 s, then twice as long each time, at most an hour; an interval job never more often than its interval', () => {
  const every = (everyMs: number) => ({ everyMs });
  assert.deepEqual(
    [1, 2, 3, 4, 8, 30].map((failures) => retryAt(every(15_000), 0, failures)),
    [FIRST_RETRY_MS, 2 * FIRST_RETRY_MS, 4 * FIRST_RETRY_MS, 8 * FIRST_RETRY_MS, LONGEST_RETRY_MS, LONGEST_RETRY_MS],
  );
  assert.equal(retryAt(every(10 * MINUTE), 0, 1), 10 * MINUTE, 'maintenance keeps its 10 minutes at first');
  assert.equal(retryAt(every(24 * HOUR), 0, 50), 24 * HOUR);
  assert.equal(retryAt(every(1_000), 0, 3, { firstMs: 100, longestMs: 250 }), 1_000);
  assert.equal(retryAt(every(10), 0, 3, { firstMs: 100, longestMs: 250 }), 250);
});

test('a daily job that failed is tried again within the hour, not the next day, and never after its own next time', () => {
  const at = new Date(2024, 4, 1, 3, 0).getTime();
  const daily = { dailyAt: { hour: 3, minute: 0 } };
  assert.equal(retryAt(daily, at, 1), at + FIRST_RETRY_MS);
  assert.equal(retryAt(daily, at, 20), at + LONGEST_RETRY_MS);
  const late = new Date(2024, 4, 2, 2, 50).getTime();
  assert.equal(retryAt(daily, late, 20), new Date(2024, 4, 2, 3, 0).getTime());
});
