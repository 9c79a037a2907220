import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { heifImageSize } from '../../src/media/heif-header.ts';
import { processMedia } from '../../src/media/processor.ts';
import { DEFAULT_MEDIA_LIMITS, GRID_SIZE, type MediaTools } from '../../src/media/media-info.ts';
import { MediaWorkerPool } from '../../src/media/worker-pool.ts';
import { findExecutable } from '../../src/platform/run.ts';
import { mediaFixture } from '../helpers/fixtures.ts';
import { makeTempDir } from '../helpers/server.ts';

const NO_TOOLS: MediaTools = { ffmpeg: null, ffprobe: null, heifConvert: null, prlimit: null };
const SYSTEM_TOOLS: MediaTools = { ...NO_TOOLS, heifConvert: findExecutable('heif-convert'), prlimit: findExecutable('prlimit') };

/** A real HEIC whose `ispe` boxes now claim `width` x `height`. */
async function claiming(width: number, height: number): Promise<Buffer> {
  const file = Buffer.from(await mediaFixture('quadrants-1600x1200.heic'));
  let patched = 0;
  for (let at = file.indexOf('ispe'); at >= 0; at = file.indexOf('ispe', at + 4)) {
    file.writeUInt32BE(width, at + 8);
    file.writeUInt32BE(height, at + 12);
    patched++;
  }
  assert.ok(patched > 0);
  return file;
}

test('the image size of a HEIF is read from its boxes without decoding; a file with no meta box has none', async () => {
  const dir = await makeTempDir();
  try {
    const real = path.join(dir, 'real.heic');
    await fs.writeFile(real, await mediaFixture('quadrants-1600x1200.heic'));
    assert.deepEqual(await heifImageSize(real), { width: 1600, height: 1200 });
    const fake = path.join(dir, 'fake.heic');
    await fs.writeFile(fake, Buffer.concat([Buffer.from('0000001866747970686569630000000068656963', 'hex'), Buffer.alloc(4096, 0xff)]));
    assert.equal(await heifImageSize(fake), null);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a HEIC declaring 30000x30000 pixels is refused before any decoder runs, with or without heif-convert', async () => {
  const dir = await makeTempDir();
  try {
    const file = path.join(dir, 'bomb.heic');
    await fs.writeFile(file, await claiming(30_000, 30_000));
    for (const tools of [NO_TOOLS, SYSTEM_TOOLS]) {
      const info = await processMedia(file, 'image/heic', tools, DEFAULT_MEDIA_LIMITS, [GRID_SIZE]);
      assert.equal(info.thumbnails, null);
      assert.match(info.failure ?? '', /too many pixels \(30000x30000\)/);
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a HEIC larger than the limit is refused by its size, and one without an image size is not decoded at all', async () => {
  const dir = await makeTempDir();
  try {
    const big = path.join(dir, 'big.heic');
    await fs.writeFile(big, await mediaFixture('quadrants-640x480.heic'));
    await fs.truncate(big, DEFAULT_MEDIA_LIMITS.maxHeifBytes + 1);
    const tooBig = await processMedia(big, 'image/heic', NO_TOOLS, DEFAULT_MEDIA_LIMITS, [GRID_SIZE]);
    assert.match(tooBig.failure ?? '', /too large/);
    const sizeless = path.join(dir, 'sizeless.heic');
    await fs.writeFile(sizeless, Buffer.concat([Buffer.from('0000001866747970686569630000000068656963', 'hex'), Buffer.alloc(4096)]));
    const none = await processMedia(sizeless, 'image/heic', NO_TOOLS, DEFAULT_MEDIA_LIMITS, [GRID_SIZE]);
    assert.match(none.failure ?? '', /no image size/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a worker whose resident memory passes its limit is killed: its job fails alone, the next worker is fresh', async () => {
  const dir = await makeTempDir();
  // An idle worker with sharp loaded holds more than 40 MB: any job passes this limit.
  const starved = new MediaWorkerPool(1, NO_TOOLS, { ...DEFAULT_MEDIA_LIMITS, workerMemoryBytes: 40 * 1024 * 1024 });
  const healthy = new MediaWorkerPool(1, NO_TOOLS, DEFAULT_MEDIA_LIMITS);
  try {
    const file = path.join(dir, 'p.png');
    await fs.writeFile(
      file,
      await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#abc' } })
        .png()
        .toBuffer(),
    );
    const killed = await starved.process(file, 'image/png', [GRID_SIZE]);
    assert.equal(killed.thumbnails, null);
    assert.match(killed.failure ?? '', /memory/);
    const served = await healthy.process(file, 'image/png', [GRID_SIZE]);
    assert.equal(served.failure, null);
  } finally {
    starved.close();
    healthy.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});
