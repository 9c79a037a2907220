import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Lifecycle, type Area } from '../../src/lifecycle.ts';
import { createLogger } from '../../src/log.ts';

/*
 * The server's areas stop in the reverse of the order they started, whatever happens: closing
 * is never a hand-kept list that a new area can be forgotten in, and one area failing to stop
 * never leaves the database open or the data folder locked.
 */

function recordingLog() {
  const lines: { level: string; msg: string; [field: string]: unknown }[] = [];
  return { lines, log: createLogger('debug', (line) => lines.push(JSON.parse(line))) };
}

/** An area that records its start and its stop in `said`. */
function area(name: string, said: string[], options: { failStart?: boolean; failStop?: boolean } = {}): Area<void> {
  return {
    name,
    start: async () => {
      await Promise.resolve();
      if (options.failStart) throw new Error(`${name} would not start`);
      said.push(`start ${name}`);
      return {
        stop: async () => {
          await Promise.resolve();
          said.push(`stop ${name}`);
          if (options.failStop) throw new Error(`${name} would not stop`);
        },
      };
    },
  };
}

test('areas stop in the reverse of the order they started, each awaited before the next', async () => {
  const said: string[] = [];
  const lifecycle = new Lifecycle(createLogger('silent'));
  for (const name of ['data', 'web', 'jobs']) await lifecycle.start(area(name, said), undefined);
  await lifecycle.stop();
  assert.deepEqual(said, ['start data', 'start web', 'start jobs', 'stop jobs', 'stop web', 'stop data']);
});

test('a stop that fails is logged and does not keep the others from stopping', async () => {
  const said: string[] = [];
  const { lines, log } = recordingLog();
  const lifecycle = new Lifecycle(log);
  await lifecycle.start(area('data', said), undefined);
  await lifecycle.start(area('web', said, { failStop: true }), undefined);
  await lifecycle.start(area('jobs', said), undefined);
  await lifecycle.stop();
  assert.deepEqual(said.slice(3), ['stop jobs', 'stop web', 'stop data']);
  const errors = lines.filter((line) => line.level === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0]!.area, 'web');
  assert.match(String(errors[0]!.error), /web would not stop/);
});

test('a start that fails stops what had started, last first, and throws its error', async () => {
  const said: string[] = [];
  const lifecycle = new Lifecycle(createLogger('silent'));
  await lifecycle.start(area('data', said), undefined);
  await lifecycle.start(area('web', said), undefined);
  await assert.rejects(lifecycle.start(area('home network', said, { failStart: true }), undefined), /home network would not start/);
  assert.deepEqual(said, ['start data', 'start web', 'stop web', 'stop data']);
  // Nothing starts once stopping began, and stopping again stops nothing twice.
  await assert.rejects(lifecycle.start(area('late', said), undefined), /stopping/);
  await lifecycle.stop();
  assert.deepEqual(said, ['start data', 'start web', 'stop web', 'stop data']);
});
