import { describe, expect, test } from 'vitest';
import { instantOf, turned, wallClock } from './edits.ts';

describe('photo edits', () => {
  test('a quarter turn either way stays within 0, 90, 180, 270', () => {
    expect(turned(0, 1)).toBe(90);
    expect(turned(270, 1)).toBe(0);
    expect(turned(0, -1)).toBe(270);
    expect(turned(180, -1)).toBe(90);
  });

  test('the day and time on the clock where it was taken, and back to the same instant', () => {
    // 19:59 in Lisbon in summer (+01:00) is 18:59 UTC.
    const at = Date.UTC(2024, 7, 3, 18, 59);
    expect(wallClock(at, 60)).toEqual({ date: '2024-08-03', time: '19:59' });
    expect(instantOf('2024-08-03', '19:59', 60)).toBe(at);
    // No zone known: the camera's clock read as UTC.
    expect(wallClock(Date.UTC(2015, 5, 14, 9, 30), undefined)).toEqual({ date: '2015-06-14', time: '09:30' });
    expect(instantOf('2015-06-14', '', undefined)).toBe(Date.UTC(2015, 5, 14, 12, 0));
    expect(instantOf('', '10:00', undefined)).toBeNull();
    expect(wallClock(undefined, undefined)).toEqual({ date: '', time: '' });
  });
});
