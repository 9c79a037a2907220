import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JobBackoff, MAX_JOB_TRIES, retryDelayMs } from '../../src/services/photos/media-backoff.ts';

test('a failing media job waits longer after each failure (5 s, 20 s, 80 s...) and never more than 10 minutes', () => {
  assert.deepEqual(
    [1, 2, 3].map((n) => retryDelayMs(n, 5_000)),
    [5_000, 20_000, 80_000],
  );
  assert.equal(retryDelayMs(20, 5_000), 10 * 60_000);
});

test('a job that keeps failing is given up after its tries, and waits between them while the others run', async () => {
  let now = 1_000;
  let woken = 0;
  let wake!: () => void;
  const wokenUp = new Promise<void>((resolve) => (wake = resolve));
  const backoff = new JobBackoff(
    () => now,
    () => (woken++, wake()),
    5,
  );
  // The back-off's own timer does not hold the process open (a server stopping must not wait
  // for it): this one keeps the test alive until the wake.
  const keepAlive = setTimeout(() => {}, 10_000);
  try {
    assert.ok(backoff.ready('a'));
    const first = backoff.fail('a');
    assert.deepEqual(first, { giveUp: false, failures: 1, retryInMs: 5 });
    assert.equal(backoff.ready('a'), false, 'it waits');
    assert.ok(backoff.ready('b'), 'another job does not');
    assert.equal(backoff.waiting, 1);
    now += 5;
    // The back-off's timer is unref'd (it never keeps a server alive): something must keep
    // this test's event loop going while it waits, or the runner may find it empty first.
    const alive = setInterval(() => {}, 1_000);
    await wokenUp.finally(() => clearInterval(alive));
    assert.equal(woken, 1, 'the queue is woken when the wait is over');
    assert.ok(backoff.ready('a'));
    for (let tries = 2; tries < MAX_JOB_TRIES; tries++) assert.equal(backoff.fail('a').giveUp, false);
    assert.deepEqual(backoff.fail('a'), { giveUp: true, failures: MAX_JOB_TRIES });
    assert.equal(backoff.waiting, 0);
    assert.ok(backoff.ready('a'), 'a job given up is forgotten');
  } finally {
    clearTimeout(keepAlive);
    backoff.stop();
  }
});
