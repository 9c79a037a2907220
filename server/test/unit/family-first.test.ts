import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FamilyFirst } from '../../src/services/common/family-first.ts';

const settled = async (promise: Promise<void>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
};

test('an idle server gives background work its turn at once', async () => {
  const gauge = new FamilyFirst(60_000);
  assert.equal(await settled(gauge.turn()), true);
  assert.equal(gauge.busy, false);
});

test('while a request is answered the turn waits, and comes when the last request ends (each end counted once)', async () => {
  const gauge = new FamilyFirst(60_000);
  const first = gauge.answering();
  const second = gauge.answering();
  const turn = gauge.turn();
  assert.equal(await settled(turn), false);
  first();
  first();
  assert.equal(gauge.busy, true, 'ending the same request twice does not end the other');
  assert.equal(await settled(turn), false);
  second();
  assert.equal(await settled(turn), true);
  assert.equal(gauge.busy, false);
});

test('a busy server still gives a turn after the longest wait, so background work slows but never stops', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const gauge = new FamilyFirst(200);
  gauge.answering();
  const turn = gauge.turn();
  assert.equal(await settled(turn), false);
  t.mock.timers.tick(199);
  assert.equal(await settled(turn), false);
  t.mock.timers.tick(1);
  assert.equal(await settled(turn), true);
});

test('an aborted run gets its turn at once, to stop', async () => {
  const gauge = new FamilyFirst(60_000);
  gauge.answering();
  const abort = new AbortController();
  const turn = gauge.turn(abort.signal);
  assert.equal(await settled(turn), false);
  abort.abort();
  assert.equal(await settled(turn), true);
  assert.equal(await settled(gauge.turn(abort.signal)), true);
});

test('work in another process hears when the first request starts and when the last one ends, once each', () => {
  const first = new FamilyFirst();
  const heard: boolean[] = [];
  first.onBusy((busy) => heard.push(busy));
  const a = first.answering();
  const b = first.answering();
  a();
  a();
  assert.deepEqual(heard, [true], 'busy once, while any request is answered');
  b();
  assert.deepEqual(heard, [true, false]);
});
