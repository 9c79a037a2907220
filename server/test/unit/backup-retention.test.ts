import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_RETENTION, snapshotsToKeep } from '../../src/services/backup/retention.ts';

/** A snapshot at local time y-m-d h:00, named after it. */
function at(y: number, m: number, d: number, h = 3): { id: string; at: number } {
  return { id: `${y}-${m}-${d}T${h}`, at: new Date(y, m - 1, d, h).getTime() };
}

test('retention keeps the newest snapshot of each of the last 7 days, 4 weeks and 12 months, and drops the rest', () => {
  const calendar = { ...DEFAULT_RETENTION, last: 0 };
  // One snapshot a night from 1 January to 30 June 2025, and a second one on the last day.
  const snapshots = [];
  for (let day = new Date(2025, 0, 1); day <= new Date(2025, 5, 30); day.setDate(day.getDate() + 1)) {
    snapshots.push(at(day.getFullYear(), day.getMonth() + 1, day.getDate()));
  }
  snapshots.push(at(2025, 6, 30, 15));
  const keep = [...snapshotsToKeep(snapshots, calendar)].sort();
  const expected = [
    // Days: 30 June (its newest, 15:00) back to 24 June.
    '2025-6-30T15',
    '2025-6-29T3',
    '2025-6-28T3',
    '2025-6-27T3',
    '2025-6-26T3',
    '2025-6-25T3',
    '2025-6-24T3',
    // Weeks (Monday to Sunday; 30 June is a Monday): the newest of this week, then the Sundays 29, 22 and 15 June.
    '2025-6-22T3',
    '2025-6-15T3',
    // Months: the last day of each; June's newest is already kept.
    '2025-5-31T3',
    '2025-4-30T3',
    '2025-3-31T3',
    '2025-2-28T3',
    '2025-1-31T3',
  ].sort();
  assert.deepEqual(keep, expected);
});

test('retention never empties a destination: the newest snapshot is kept even with all counts at zero', () => {
  const snapshots = [at(2025, 1, 1), at(2025, 1, 2), at(2025, 1, 3)];
  assert.deepEqual([...snapshotsToKeep(snapshots, { last: 0, daily: 0, weekly: 0, monthly: 0 })], ['2025-1-3T3']);
  assert.deepEqual([...snapshotsToKeep([], DEFAULT_RETENTION)], []);
});

test('weeks are ISO weeks: 29 December 2025 (a Monday) is in the same week as 1 January 2026', () => {
  const keep = snapshotsToKeep([at(2025, 12, 28), at(2025, 12, 29), at(2026, 1, 1)], { last: 0, daily: 0, weekly: 2, monthly: 0 });
  assert.deepEqual([...keep].sort(), ['2025-12-28T3', '2026-1-1T3']);
});

test('retention keeps the latest 5 snapshots whatever their day: a "Back up now" after a mistake never replaces the morning\'s good copy', () => {
  const nightly = [];
  for (let day = 20; day <= 30; day++) nightly.push(at(2025, 6, day));
  // 30 June: the 03:00 run, a folder deleted by mistake at 10:00 and backed up at 10:05, then once more at 15:00.
  const snapshots = [...nightly, at(2025, 6, 30, 10), at(2025, 6, 30, 15)];
  const keep = snapshotsToKeep(snapshots, DEFAULT_RETENTION);
  for (const id of ['2025-6-30T3', '2025-6-30T10', '2025-6-30T15']) assert.ok(keep.has(id), `${id} is kept`);
  assert.deepEqual(
    [...snapshotsToKeep(snapshots, { ...DEFAULT_RETENTION, last: 0 })].filter((id) => id.startsWith('2025-6-30')),
    ['2025-6-30T15'],
  );
});

test('the latest snapshots are a count: the sixth run of one day goes once five newer ones are there', () => {
  const runs = [1, 2, 3, 4, 5, 6, 7].map((hour) => at(2025, 6, 30, hour));
  assert.deepEqual([...snapshotsToKeep(runs, DEFAULT_RETENTION)].sort(), [
    '2025-6-30T3',
    '2025-6-30T4',
    '2025-6-30T5',
    '2025-6-30T6',
    '2025-6-30T7',
  ]);
  assert.equal(DEFAULT_RETENTION.last, 5);
});
