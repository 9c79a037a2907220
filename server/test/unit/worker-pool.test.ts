import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { DEFAULT_MEDIA_LIMITS, GRID_SIZE, type MediaTools } from '../../src/media/media-info.ts';
import { MediaWorkerPool } from '../../src/media/worker-pool.ts';
import { makeTempDir } from '../helpers/server.ts';

const NO_TOOLS: MediaTools = { ffmpeg: null, ffprobe: null, heifConvert: null, prlimit: null };

test('a worker that overruns its time is killed: its job fails alone, the pool starts a fresh worker for the next job, and a pool with sane limits renders', async () => {
  const dir = await makeTempDir();
  // A timeout of 1 ms (doubled by the pool) is shorter than any decode, even of a tiny image.
  const pool = new MediaWorkerPool(1, NO_TOOLS, { ...DEFAULT_MEDIA_LIMITS, timeoutMs: 1 });
  const healthy = new MediaWorkerPool(1, NO_TOOLS, DEFAULT_MEDIA_LIMITS);
  try {
    const file = path.join(dir, 'p.png');
    await fs.writeFile(
      file,
      await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#abc' } })
        .png()
        .toBuffer(),
    );
    const killed = await pool.process(file, 'image/png', [GRID_SIZE]);
    assert.equal(killed.thumbnails, null);
    assert.match(killed.failure ?? '', /media worker stopped/);
    // The dead worker is replaced: the next job is answered (here again cut by the tiny limit), never left hanging.
    const again = await pool.process(file, 'image/png', [GRID_SIZE]);
    assert.match(again.failure ?? '', /media worker stopped/);
    const served = await healthy.process(file, 'image/png', [GRID_SIZE]);
    assert.equal(served.failure, null);
    assert.equal(served.width, 2000);
    assert.deepEqual([...served.thumbnails!.keys()], [512]);
  } finally {
    pool.close();
    healthy.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a pool renders the sizes asked for from one decode, and an urgent job goes before the queued ones', async () => {
  const dir = await makeTempDir();
  const pool = new MediaWorkerPool(1, NO_TOOLS, DEFAULT_MEDIA_LIMITS);
  try {
    const file = path.join(dir, 'wide.jpg');
    await fs.writeFile(
      file,
      await sharp({ create: { width: 3000, height: 1500, channels: 3, background: '#369' } })
        .jpeg()
        .toBuffer(),
    );
    const both = await pool.process(file, 'image/jpeg', [512, 1024]);
    const widths = await Promise.all([...both.thumbnails!].map(async ([size, data]) => [size, (await sharp(data).metadata()).width]));
    assert.deepEqual(widths, [
      [512, 512],
      [1024, 1024],
    ]);

    // One worker: the first job takes it, the rest wait; the urgent one, asked for last, is answered second.
    const order: string[] = [];
    const track = (name: string, job: Promise<unknown>) => job.then(() => order.push(name));
    await Promise.all([
      track('queued 1', pool.process(file, 'image/jpeg', [512])),
      track('queued 2', pool.process(file, 'image/jpeg', [512])),
      track('queued 3', pool.process(file, 'image/jpeg', [512])),
      track('urgent', pool.process(file, 'image/jpeg', [1024], { urgent: true })),
    ]);
    assert.deepEqual(order, ['queued 1', 'urgent', 'queued 2', 'queued 3']);
  } finally {
    pool.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a pool without workers (media processing turned off) answers at once with a failure', async () => {
  const pool = new MediaWorkerPool(0, NO_TOOLS, DEFAULT_MEDIA_LIMITS);
  const info = await pool.process('/nonexistent.jpg', 'image/jpeg', [1024], { urgent: true });
  assert.equal(info.thumbnails, null);
  assert.match(info.failure ?? '', /no media workers/);
});

/** This process's live children (Linux). */
function children(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) =>
    readFileSync(`/proc/self/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
}

test('warm() starts every worker before any job, once however often it is called; they take jobs as usual and close() ends them', async () => {
  const dir = await makeTempDir();
  const before = children();
  const pool = new MediaWorkerPool(2, NO_TOOLS, DEFAULT_MEDIA_LIMITS);
  try {
    pool.warm();
    pool.warm();
    const started = children().filter((pid) => !before.includes(pid));
    assert.equal(started.length, 2);
    const file = path.join(dir, 'p.png');
    await fs.writeFile(
      file,
      await sharp({ create: { width: 800, height: 600, channels: 3, background: '#abc' } })
        .png()
        .toBuffer(),
    );
    const [a, b] = await Promise.all([pool.process(file, 'image/png', [GRID_SIZE]), pool.process(file, 'image/png', [GRID_SIZE])]);
    assert.equal(a.failure, null);
    assert.equal(b.failure, null);
    assert.deepEqual(
      children()
        .filter((pid) => !before.includes(pid))
        .sort(),
      started.sort(),
      'the jobs ran in the warm workers',
    );
  } finally {
    pool.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
  // SIGKILLed workers are reaped when their exit is noticed: a bounded wait for that.
  for (let i = 0; i < 100 && children().some((pid) => !before.includes(pid)); i++) await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(
    children().filter((pid) => !before.includes(pid)),
    [],
  );
});

test('a job asked of a closed pool is answered at once with a failure: a server stopping never waits for a worker that will not come', async () => {
  const pool = new MediaWorkerPool(1, NO_TOOLS, DEFAULT_MEDIA_LIMITS);
  pool.close();
  const info = await pool.process('/nonexistent.jpg', 'image/jpeg', [1024]);
  assert.equal(info.thumbnails, null);
  assert.match(info.failure ?? '', /server stopping/);
});
