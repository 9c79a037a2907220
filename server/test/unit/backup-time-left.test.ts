import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TimeLeft } from '../../src/services/backup/time-left.ts';

describe('the time a backup has left', () => {
  test('no guess in the first seconds; then from the last half minute, not from the start', () => {
    let now = 0;
    const left = new TimeLeft(() => now);
    const total = 1_000_000_000;
    let done = 0;
    left.note(done);
    // 1 MB a second for 3 seconds: too early to say.
    for (; now < 3_000; now += 100) left.note((done += 100_000));
    assert.equal(left.secondsLeft(done, total), null);
    // A slow start (1 MB/s for 60 s), then 10 MB/s for 40 s: the estimate follows the new pace.
    for (; now < 60_000; now += 100) left.note((done += 100_000));
    for (; now < 100_000; now += 100) left.note((done += 1_000_000));
    const seconds = left.secondsLeft(done, total)!;
    const atNewPace = (total - done) / 10_000_000;
    assert.ok(Math.abs(seconds - atNewPace) <= 1, `${seconds} s left, ${atNewPace} at the new pace`);
  });

  test('a stall longer than the window is "not known", never a number from a pace that stopped', () => {
    let now = 0;
    const left = new TimeLeft(() => now);
    for (let done = 0; now <= 10_000; now += 100, done += 10_000) left.note(done);
    assert.notEqual(left.secondsLeft(1_000_000, 10_000_000), null);
    now += 60_000;
    assert.equal(left.secondsLeft(1_000_000, 10_000_000), null);
  });

  test('nothing left is 0, whatever the pace; no total is null', () => {
    const left = new TimeLeft(() => 0);
    assert.equal(left.secondsLeft(5, 5), 0);
    assert.equal(left.secondsLeft(5, null), null);
  });
});
