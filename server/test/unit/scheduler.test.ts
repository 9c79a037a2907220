import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';
import type { Job, Schedule } from '../../src/jobs/job.ts';
import { Scheduler } from '../../src/jobs/scheduler.ts';
import { jobOfSteps } from '../../src/jobs/steps.ts';
import { createLogger } from '../../src/log.ts';
import { StorageHealth } from '../../src/services/storage/storage-health.ts';
import { FakeClock, settle } from '../helpers/fake-clock.ts';
import { makeTempDir } from '../helpers/server.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Log lines as written, parsed. */
function recordingLog() {
  const lines: { level: string; msg: string; [field: string]: unknown }[] = [];
  return { lines, log: createLogger('debug', (line) => lines.push(JSON.parse(line))) };
}

/** A job that counts its runs and does what `body` says each time. */
function countingJob(name: string, schedule: Schedule, body: (signal: AbortSignal) => Promise<void> = async () => {}) {
  const job = {
    name,
    schedule,
    runs: 0,
    run: (signal: AbortSignal) => {
      job.runs++;
      return body(signal);
    },
  };
  return job satisfies Job;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('jobs run on their schedule: at start when asked, then every interval from the end of a run, and a daily one at its time of day', async () => {
  const clock = new FakeClock(new Date(2024, 4, 1, 1, 0).getTime());
  const upkeep = countingJob('upkeep', { everyMs: 10 * SECOND, atStart: true });
  const check = countingJob('check', { everyMs: 10 * SECOND });
  const nightly = countingJob('nightly', { dailyAt: { hour: 3, minute: 0 } });
  const scheduler = new Scheduler([upkeep, check, nightly], { log: recordingLog().log, clock });
  scheduler.start();
  assert.equal(upkeep.runs, 1, 'a job due at start has begun before start() returns');
  assert.equal(check.runs, 0, 'the others wait for their interval');

  await clock.advance(10 * SECOND - 1);
  assert.deepEqual([upkeep.runs, check.runs], [1, 0]);
  await clock.advance(1);
  assert.deepEqual([upkeep.runs, check.runs], [2, 1]);
  await clock.advance(10 * SECOND);
  assert.deepEqual([upkeep.runs, check.runs], [3, 2]);

  assert.equal(nightly.runs, 0);
  await clock.advanceTo(new Date(2024, 4, 1, 3, 0).getTime() - 1);
  assert.equal(nightly.runs, 0);
  await clock.advance(1);
  assert.equal(nightly.runs, 1, 'the daily job ran at 03:00');
  const status = scheduler.jobs().find((j) => j.name === 'nightly')!;
  assert.equal(status.nextRunAt, new Date(2024, 4, 2, 3, 0).getTime(), 'and runs next at 03:00 the next day');
  assert.equal(status.lastRunAt, new Date(2024, 4, 1, 3, 0).getTime());
  await scheduler.stop();
});

test('a slow run is never overlapped by the next: the interval counts from its end', async () => {
  const clock = new FakeClock();
  const slow = deferred();
  const job = countingJob('slow', { everyMs: 10 * SECOND, atStart: true }, () => slow.promise);
  const scheduler = new Scheduler([job], { log: recordingLog().log, clock });
  scheduler.start();
  await clock.advance(HOUR);
  assert.equal(job.runs, 1, 'still the first run');
  assert.equal(scheduler.jobs()[0]!.running, true);
  slow.resolve();
  await settle();
  assert.equal(scheduler.jobs()[0]!.nextRunAt, HOUR + 10 * SECOND);
  await scheduler.stop();
});

test('asked to run now, a job runs at once; asked while it runs, it runs once more after that run, for every caller', async () => {
  const clock = new FakeClock();
  let hold = deferred();
  const job = countingJob('upkeep', { everyMs: 10 * MINUTE }, () => hold.promise);
  const scheduler = new Scheduler([job], { log: recordingLog().log, clock });
  scheduler.start();

  const first = scheduler.runNow('upkeep');
  assert.equal(job.runs, 1);
  const second = scheduler.runNow('upkeep');
  const third = scheduler.runNow('upkeep');
  const firstHold = hold;
  hold = deferred();
  firstHold.resolve();
  await first;
  await settle();
  assert.equal(job.runs, 2, 'one run follows the one under way, for both callers');
  let secondDone = false;
  void second.then(() => (secondDone = true));
  await settle();
  assert.equal(secondDone, false, 'the callers wait for the run that follows, not the one that was under way');
  hold.resolve();
  await Promise.all([second, third]);
  assert.equal(job.runs, 2);
  assert.equal(scheduler.jobs()[0]!.nextRunAt, 10 * MINUTE, 'the schedule counts from the end of that run');
  await scheduler.stop();
});

test('stopping aborts the run under way and waits for it to end; nothing runs after, and an abort is not a failure', async () => {
  const clock = new FakeClock();
  const events: string[] = [];
  const job = countingJob('long', { everyMs: 10 * SECOND, atStart: true }, async (signal) => {
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    await settle();
    events.push('job ended');
    throw new Error('stopped half-way');
  });
  const other = countingJob('other', { everyMs: 10 * SECOND });
  const { lines, log } = recordingLog();
  const scheduler = new Scheduler([job, other], { log, clock });
  scheduler.start();
  await settle();
  assert.equal(scheduler.jobs()[0]!.running, true);

  await scheduler.stop().then(() => events.push('stopped'));
  assert.deepEqual(events, ['job ended', 'stopped']);
  assert.equal(clock.pending, 0, 'no timer left');
  await clock.advance(24 * HOUR);
  await scheduler.runNow('long');
  assert.deepEqual([job.runs, other.runs], [1, 0]);
  const status = scheduler.jobs()[0]!;
  assert.deepEqual([status.running, status.failures, status.lastFailureAt, status.nextRunAt], [false, 0, null, null]);
  assert.deepEqual(lines, []);
});

test('a failing job is retried later, later each time (30 s, 1 min, 2 min), its runs recorded, and back at its rhythm once it succeeds', async () => {
  const clock = new FakeClock(1_000_000);
  let failing = true;
  const job = countingJob('check', { everyMs: 15 * SECOND }, async () => {
    if (failing) throw new Error('the drive list could not be read');
  });
  const { lines, log } = recordingLog();
  const scheduler = new Scheduler([job], { log, clock });
  const status = () => scheduler.jobs()[0]!;
  scheduler.start();
  assert.deepEqual(status(), {
    name: 'check',
    schedule: { everyMs: 15 * SECOND },
    running: false,
    lastRunAt: null,
    lastSuccessAt: null,
    lastFailureAt: null,
    lastError: null,
    failures: 0,
    nextRunAt: 1_000_000 + 15 * SECOND,
  });

  await clock.advance(15 * SECOND);
  assert.equal(job.runs, 1);
  const failedAt = clock.now();
  assert.deepEqual([status().lastRunAt, status().lastFailureAt, status().failures, status().lastSuccessAt], [failedAt, failedAt, 1, null]);
  assert.match(status().lastError!, /the drive list could not be read/);

  for (const [failures, wait] of [
    [2, 30 * SECOND],
    [3, MINUTE],
    [4, 2 * MINUTE],
  ] as const) {
    assert.equal(status().nextRunAt, clock.now() + wait);
    await clock.advance(wait - 1);
    assert.equal(job.runs, failures - 1, 'no try before the wait is over');
    await clock.advance(1);
    assert.equal(job.runs, failures);
    assert.equal(status().failures, failures);
  }
  const errors = lines.filter((l) => l.msg === 'job failed');
  assert.equal(errors.length, 4, 'an error of its own is logged at each failure');
  assert.deepEqual(
    errors.map((l) => l.retry_in_ms),
    [30 * SECOND, MINUTE, 2 * MINUTE, 4 * MINUTE],
  );
  assert.equal(errors[0]!.job, 'check');

  failing = false;
  await clock.advance(4 * MINUTE);
  assert.equal(job.runs, 5);
  assert.deepEqual([status().failures, status().lastSuccessAt, status().nextRunAt], [0, clock.now(), clock.now() + 15 * SECOND]);
  assert.match(status().lastError!, /drive list/, 'the last failure stays on record');
  await clock.advance(15 * SECOND);
  assert.equal(job.runs, 6, 'every 15 s again');
  await scheduler.stop();
});

test('a job that keeps failing is tried at most an hour apart, and a daily job that failed is tried again before the next day', async () => {
  const clock = new FakeClock(new Date(2024, 4, 1, 1, 0).getTime());
  const stubborn = countingJob('stubborn', { everyMs: 15 * SECOND }, async () => {
    throw new Error('no');
  });
  const nightly = countingJob('nightly', { dailyAt: { hour: 2, minute: 0 } }, async () => {
    throw new Error('the backup drive is away');
  });
  const scheduler = new Scheduler([stubborn, nightly], { log: recordingLog().log, clock });
  scheduler.start();
  await clock.advance(24 * HOUR);
  const [s, n] = scheduler.jobs();
  assert.equal(s!.nextRunAt! - s!.lastFailureAt!, HOUR);
  assert.ok(s!.failures > 8 && s!.failures < 40, `${s!.failures} tries in a day`);
  assert.equal(nightly.runs > 1, true, 'the nightly job was tried again the same day');
  assert.ok(n!.nextRunAt! - n!.lastFailureAt! <= HOUR);
  await scheduler.stop();
});

test('a job failing on a full disk is logged once, by storage, not at every run, and backs off all the same', async () => {
  const dataDir = await makeTempDir('hearth-jobs-');
  dirs.push(dataDir);
  const clock = new FakeClock();
  const { lines, log } = recordingLog();
  const storage = new StorageHealth({ dataDir, reserveBytes: 0, recheckMs: HOUR, log, now: clock.now });
  const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
  const job = countingJob('upkeep', { everyMs: 10 * SECOND, atStart: true }, async () => {
    throw full;
  });
  const scheduler = new Scheduler([job], { log, clock, alreadyReported: (error) => storage.noteFailure(error) !== null });
  try {
    scheduler.start();
    await clock.advance(10 * MINUTE);
    assert.ok(job.runs >= 3, `${job.runs} runs`);
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['storage full: uploads and thumbnails wait until space is freed'],
    );
    assert.equal(scheduler.jobs()[0]!.failures, job.runs);
    assert.ok(job.runs < (10 * MINUTE) / (10 * SECOND), 'fewer runs than its interval alone would make');
  } finally {
    await scheduler.stop();
    await storage.stop();
  }
});

test('once what a job failed on is back (the disk takes writes again), a job backing off runs at its usual rhythm again', async () => {
  const clock = new FakeClock();
  let failing = true;
  const job = countingJob('check', { everyMs: 15 * SECOND }, async () => {
    if (failing) throw new Error('database or disk is full');
  });
  const scheduler = new Scheduler([job], { log: recordingLog().log, clock, alreadyReported: () => true });
  scheduler.start();
  await clock.advance(15 * SECOND + 30 * SECOND + MINUTE);
  assert.equal(job.runs, 3);
  assert.equal(scheduler.jobs()[0]!.nextRunAt, clock.now() + 2 * MINUTE);
  failing = false;
  scheduler.endBackoff();
  assert.equal(scheduler.jobs()[0]!.nextRunAt, clock.now() + 15 * SECOND);
  await clock.advance(15 * SECOND);
  assert.equal(job.runs, 4);
  assert.equal(scheduler.jobs()[0]!.failures, 0);
  await scheduler.stop();
});

test('a job of steps runs every step in order though one fails, logs that step by name, and stops between steps when asked', async () => {
  const clock = new FakeClock();
  const ran: string[] = [];
  const { lines, log } = recordingLog();
  const maintenance = jobOfSteps('maintenance', { everyMs: 10 * MINUTE }, [
    { name: 'sessions', run: () => ran.push('sessions') },
    {
      name: 'uploads',
      run: () => {
        ran.push('uploads');
        throw new Error('the upload folder is gone');
      },
    },
    { name: 'trash', run: async () => void ran.push('trash') },
  ]);
  const scheduler = new Scheduler([maintenance], { log, clock });
  scheduler.start();
  await scheduler.runNow('maintenance');
  assert.deepEqual(ran, ['sessions', 'uploads', 'trash'], 'the trash is emptied though the uploads step failed');
  assert.deepEqual(
    lines.map((l) => [l.msg, l.job, l.step]),
    [['job failed', 'maintenance', 'uploads']],
  );
  assert.match(scheduler.jobs()[0]!.lastError!, /uploads: Error: the upload folder is gone/);
  await scheduler.stop();

  const hold = deferred();
  const steps: string[] = [];
  const slow = jobOfSteps('slow', { everyMs: MINUTE, atStart: true }, [
    { name: 'first', run: () => (steps.push('first'), hold.promise) },
    { name: 'second', run: () => steps.push('second') },
  ]);
  const stopping = new Scheduler([slow], { log, clock });
  stopping.start();
  const stopped = stopping.stop();
  hold.resolve();
  await stopped;
  assert.deepEqual(steps, ['first'], 'the step under way finished; the next did not start');
});

test('jobs with the same name or with no usable schedule are refused when the scheduler is built', () => {
  const log = recordingLog().log;
  const job = (name: string, schedule: Schedule): Job => ({ name, schedule, run: async () => {} });
  assert.throws(() => new Scheduler([job('a', { everyMs: 1 }), job('a', { everyMs: 2 })], { log }), /two jobs are named a/);
  for (const schedule of [
    { everyMs: 0 },
    { everyMs: Number.NaN },
    { dailyAt: { hour: 24, minute: 0 } },
    { dailyAt: { hour: 3, minute: 60 } },
    { dailyAt: { hour: 1.5, minute: 0 } },
  ]) {
    assert.throws(() => new Scheduler([job('x', schedule)], { log }), /no usable schedule/, JSON.stringify(schedule));
  }
  assert.throws(() => new Scheduler([], { log }).runNow('missing'), /no job is named missing/);
});
