import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { DEFAULT_MEDIA_LIMITS, type MediaTools } from '../../src/media/processor.ts';
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
    await fs.writeFile(file, await sharp({ create: { width: 2000, height: 1500, channels: 3, background: '#abc' } }).png().toBuffer());
    const killed = await pool.process(file, 'image/png');
    assert.equal(killed.thumbnails, null);
    assert.match(killed.failure ?? '', /media worker stopped/);
    // The dead worker is replaced: the next job is answered (here again cut by the tiny limit), never left hanging.
    const again = await pool.process(file, 'image/png');
    assert.match(again.failure ?? '', /media worker stopped/);
    const served = await healthy.process(file, 'image/png');
    assert.equal(served.failure, null);
    assert.equal(served.width, 2000);
    assert.deepEqual([...served.thumbnails!.keys()], [512, 1024]);
  } finally {
    pool.close();
    healthy.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
