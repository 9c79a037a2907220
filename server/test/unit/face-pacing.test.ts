/**
 * Face finding's pace: after each photo it rests in proportion to the CPU the photo took, so
 * its work is the speed's share of one core; a pause holds it, and a change wakes it at once.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FacePace, restAfter } from '../../src/services/photos/face-pacing.ts';

test('gentle rests three times the work (25% of a core), normal as long (50%), fast not at all', () => {
  assert.equal(restAfter(400, 'gentle'), 1200);
  assert.equal(restAfter(400, 'normal'), 400);
  assert.equal(restAfter(400, 'fast'), 0);
  for (const speed of ['gentle', 'normal', 'fast'] as const) assert.equal(restAfter(-5, speed), 0, 'a clock gone back rests nothing');
});

test('a faster speed chosen during a rest ends it at once, and the photo is counted in the speed', async () => {
  const pace = new FacePace({ paused: false, speed: 'gentle' });
  const pictures: boolean[] = [];
  pace.onPicture((finished) => pictures.push(finished));
  // A whole minute of rest, unless the owner changes the speed.
  const resting = pace.rest(20_000, 5, () => false);
  assert.deepEqual(pace.lastPhoto, { work_ms: 20_000, rest_ms: 60_000 });
  pace.set({ paused: false, speed: 'fast' });
  await resting;
  assert.deepEqual(pictures, [false]);
  assert.ok(pace.photosPerMinute()! > 0);
});

test('paused, the finder waits until resumed; a pause during a rest ends the rest', async () => {
  const pace = new FacePace({ paused: true, speed: 'normal' });
  let running = false;
  const waiting = pace.untilRunning(() => false).then(() => (running = true));
  await new Promise((r) => setImmediate(r));
  assert.equal(running, false);
  assert.equal(pace.photosPerMinute(), null, 'no speed while paused');
  pace.set({ paused: false, speed: 'normal' });
  await waiting;
  assert.equal(running, true);
  const resting = pace.rest(60_000, 1, () => false);
  pace.set({ paused: true, speed: 'normal' });
  await resting;
});

test('choosing what is already chosen changes nothing and wakes nobody', () => {
  const pace = new FacePace({ paused: false, speed: 'normal' });
  let changes = 0;
  pace.onChange(() => changes++);
  pace.set({ paused: false, speed: 'normal' });
  pace.set({ paused: false, speed: 'fast' });
  assert.equal(changes, 1);
});
