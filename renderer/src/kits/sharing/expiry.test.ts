import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayInput, expiryOf } from './expiry.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Noon on 14 May 2024 in New York, where these tests run (vitest.config.ts). */
const NOW = Date.UTC(2024, 4, 14, 16, 0);

/** Every day from 1970 to 2100, as <input type=date> gives it. */
const dayArbitrary = fc
  .date({ min: new Date(1970, 0, 2), max: new Date(2100, 0, 1), noInvalidDate: true })
  .map((at) => dayInput(at.getTime()));

describe("a link's expiry, from the choices of the share form", () => {
  it('runs in a zone behind UTC with daylight saving, so that local days are tested as local', () => {
    expect(new Date(2024, 0, 15).getTimezoneOffset()).toBe(300);
    expect(new Date(2024, 6, 15).getTimezoneOffset()).toBe(240);
  });

  it('"keep" leaves the expiry as it is, "never" makes the link last, a day and a week count from now', () => {
    expect(expiryOf('keep', '', NOW)).toBeUndefined();
    expect(expiryOf('never', '', NOW)).toBeNull();
    expect(expiryOf('day', '', NOW)).toBe(NOW + DAY);
    expect(expiryOf('week', '', NOW)).toBe(NOW + 7 * DAY);
  });

  it('"a month" ends on the same day and hour of the next month, here', () => {
    const at = new Date(expiryOf('month', '', NOW)!);
    expect([at.getFullYear(), at.getMonth(), at.getDate(), at.getHours()]).toEqual([2024, 5, 14, 12]);
    // Across the new year.
    const december = new Date(expiryOf('month', '', new Date(2024, 11, 10, 9, 30).getTime())!);
    expect([december.getFullYear(), december.getMonth(), december.getDate(), december.getHours(), december.getMinutes()]).toEqual([
      2025, 0, 10, 9, 30,
    ]);
  });

  it('a chosen day counts whole: the link ends at the midnight that ends it, here, not in UTC', () => {
    const end = expiryOf('date', '2024-05-20', NOW)!;
    expect(end).toBe(new Date(2024, 4, 21).getTime());
    // Midnight in New York is 04:00 UTC in May.
    expect(new Date(end).toISOString()).toBe('2024-05-21T04:00:00.000Z');
    // The last day of a month and of a year.
    expect(expiryOf('date', '2024-02-29', NOW)).toBe(new Date(2024, 2, 1).getTime());
    expect(expiryOf('date', '2024-12-31', NOW)).toBe(new Date(2025, 0, 1).getTime());
  });

  it('for any day, its last moment is still that day and the expiry is the next one; the day the clocks go forward has 23 hours', () => {
    fc.assert(
      fc.property(dayArbitrary, (day) => {
        const end = expiryOf('date', day, NOW)!;
        expect(dayInput(end - 1)).toBe(day);
        expect(dayInput(end)).not.toBe(day);
        expect(new Date(end).getHours()).toBe(0);
      }),
    );
    // 10 March 2024: New York moved from 02:00 to 03:00.
    expect(expiryOf('date', '2024-03-10', NOW)! - expiryOf('date', '2024-03-09', NOW)!).toBe(23 * HOUR);
    expect(expiryOf('date', '2024-11-03', NOW)! - expiryOf('date', '2024-11-02', NOW)!).toBe(25 * HOUR);
  });

  it('an empty or unfinished date changes nothing', () => {
    for (const bad of ['', '2024', '2024-05', 'not a date', '2024-00-10', '0-05-10'])
      expect(expiryOf('date', bad, NOW), bad).toBeUndefined();
  });

  it('the form shows a stored expiry as the local day it falls on', () => {
    expect(dayInput(new Date(2024, 0, 5, 23, 59).getTime())).toBe('2024-01-05');
    // 03:00 UTC on 1 March is still 29 February in New York.
    expect(dayInput(Date.UTC(2024, 2, 1, 3))).toBe('2024-02-29');
    fc.assert(fc.property(dayArbitrary, (day) => dayInput(expiryOf('date', day, NOW)! - 1) === day));
  });
});
