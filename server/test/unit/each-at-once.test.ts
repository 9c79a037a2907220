import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eachAtOnce } from '../../src/services/backup/each-at-once.ts';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('every item is worked on, never more than the limit at once', async () => {
  let running = 0;
  let most = 0;
  const done: number[] = [];
  await eachAtOnce([1, 2, 3, 4, 5, 6, 7, 8, 9], 3, async (item) => {
    running += 1;
    most = Math.max(most, running);
    for (let i = 0; i < item % 4; i++) await tick();
    running -= 1;
    done.push(item);
  });
  assert.deepEqual([...done].sort(), [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(most, 3);
});

test('the first failure stops new starts, the work under way ends before it is thrown, and later failures do not replace it', async () => {
  const started: number[] = [];
  const ended: number[] = [];
  await assert.rejects(
    eachAtOnce([1, 2, 3, 4, 5, 6], 2, async (item) => {
      started.push(item);
      if (item === 1) throw new Error('first');
      await tick();
      await tick();
      ended.push(item);
      if (item === 2) throw new Error('second');
    }),
    /first/,
  );
  assert.deepEqual(started, [1, 2]);
  assert.deepEqual(ended, [2], 'the file under way finished before the run gave up');
});
