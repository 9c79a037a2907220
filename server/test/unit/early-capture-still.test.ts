import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import sharp from 'sharp';
import { earlyCaptureTime, type CaptureMoment } from '../../src/media/early-capture.ts';
import { mediaFixture, type MediaFixture } from '../helpers/fixtures.ts';
import { makeTempDir } from '../helpers/server.ts';

// A PNG's eXIf chunk and a HEIC/HEIF/AVIF's Exif item are read as the upload completes, so the
// photo is in its month from the first moment; a broken or hostile file yields null, never an
// error, a hang or a read of more than its bounds.

const NOW = Date.UTC(2026, 0, 1);
let dir: string;
let files = 0;

before(async () => {
  dir = await makeTempDir('early-capture-');
});
after(() => fs.rm(dir, { recursive: true, force: true }));

async function captureOf(bytes: Buffer, mime: string): Promise<CaptureMoment | null> {
  const file = path.join(dir, `f${++files}`);
  await fs.writeFile(file, bytes);
  try {
    return await earlyCaptureTime(file, mime, NOW);
  } finally {
    await fs.rm(file, { force: true });
  }
}

function pngTaken(when: string, offset?: string): Promise<Buffer> {
  return sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 90, g: 120, b: 140 } } })
    .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when, ...(offset && { OffsetTimeOriginal: offset }) } })
    .png()
    .toBuffer();
}

/** A PNG's chunks, by type and data, to rebuild in another order. */
function chunks(png: Buffer): { type: string; whole: Buffer }[] {
  const out: { type: string; whole: Buffer }[] = [];
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString('latin1', at + 4, at + 8), whole: png.subarray(at, at + 12 + length) });
    at += 12 + length;
  }
  return out;
}

describe('PNG', () => {
  test('its eXIf chunk gives the capture time and offset', async () => {
    assert.deepEqual(await captureOf(await pngTaken('2018:06:07 08:09:10', '+02:00'), 'image/png'), {
      takenAt: Date.UTC(2018, 5, 7, 6, 9, 10),
      takenOffset: 120,
    });
  });

  test('an eXIf written after the picture data (some tools do) is found too', async () => {
    const png = await pngTaken('2015:01:02 03:04:05');
    const parts = chunks(png);
    const exif = parts.find((c) => c.type === 'eXIf')!;
    const rest = parts.filter((c) => c.type !== 'eXIf');
    const moved = Buffer.concat([png.subarray(0, 8), ...rest.slice(0, -1).map((c) => c.whole), exif.whole, rest.at(-1)!.whole]);
    assert.equal((await captureOf(moved, 'image/png'))?.takenAt, Date.UTC(2015, 0, 2, 3, 4, 5));
  });

  test('a PNG without EXIF, or whose eXIf claims 4 GB, has none', async () => {
    const bare = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    assert.equal(await captureOf(bare, 'image/png'), null);
    const png = await pngTaken('2018:06:07 08:09:10');
    const exifAt = png.indexOf('eXIf', 0, 'latin1') - 4;
    const lying = Buffer.from(png);
    lying.writeUInt32BE(0xffffffff, exifAt);
    assert.equal(await captureOf(lying, 'image/png'), null);
  });
});

describe('HEIF', () => {
  const cases: [MediaFixture, string, number, number | null][] = [
    ['exif-minus3.heic', 'image/heic', Date.UTC(2022, 1, 23, 1, 22, 22), -180],
    ['quadrants-640x480.heic', 'image/heic', Date.UTC(2016, 0, 2, 3, 4, 5), null],
    ['iphone-irot.heic', 'image/heif', Date.UTC(2019, 4, 6, 6, 8, 9), 60],
    ['exif-2017.avif', 'image/avif', Date.UTC(2017, 7, 9, 4, 41, 12), 330],
  ];
  for (const [name, mime, takenAt, takenOffset] of cases) {
    test(`${name}: its Exif item gives the capture time`, async () => {
      assert.deepEqual(await captureOf(await mediaFixture(name), mime), { takenAt, takenOffset });
    });
  }

  test('a HEIC without EXIF has none', async () => {
    assert.equal(await captureOf(await mediaFixture('quadrants-1600x1200.heic'), 'image/heic'), null);
  });

  test('a meta box claiming more than a photo could hold, or a file that is not HEIF, is not read', async () => {
    const heic = Buffer.from(await mediaFixture('exif-minus3.heic'));
    const metaAt = heic.indexOf('meta', 0, 'latin1') - 4;
    heic.writeUInt32BE(0x7fffffff, metaAt);
    assert.equal(await captureOf(heic, 'image/heic'), null);
    assert.equal(await captureOf(await pngTaken('2018:06:07 08:09:10'), 'image/heic'), null);
    assert.equal(await captureOf(Buffer.alloc(0), 'image/heic'), null);
  });
});

describe('hostile and broken files', () => {
  const sources: [string, () => Promise<Buffer>][] = [
    ['image/heic', () => mediaFixture('exif-minus3.heic')],
    ['image/avif', () => mediaFixture('exif-2017.avif')],
    ['image/png', () => pngTaken('2018:06:07 08:09:10', '+02:00')],
    ['image/jpeg', () => mediaFixture('paris-canon.jpg')],
  ];
  for (const [mime, load] of sources) {
    test(`${mime}: cut short anywhere or with bytes overwritten, it answers null or a plausible time, quickly, and never throws`, async () => {
      const original = await load();
      // Every cut in the first 2 KB (the boxes and chunks that matter), then a sample beyond.
      for (let cut = 0; cut < Math.min(original.length, 2048); cut += 7) {
        const moment = await captureOf(original.subarray(0, cut), mime);
        assert.ok(moment === null || (moment.takenAt > 0 && moment.takenAt <= NOW), `cut at ${cut}: ${JSON.stringify(moment)}`);
      }
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat({ max: Math.min(original.length, 4096) - 1 }), fc.integer({ min: 0, max: 255 })), {
            minLength: 1,
            maxLength: 8,
          }),
          async (edits) => {
            const bytes = Buffer.from(original);
            for (const [at, value] of edits) bytes[at] = value;
            const started = Date.now();
            const moment = await captureOf(bytes, mime);
            assert.ok(Date.now() - started < 2_000, 'answered quickly');
            assert.ok(moment === null || (moment.takenAt > 0 && moment.takenAt <= NOW));
          },
        ),
        { numRuns: 150, seed: 32 },
      );
    });
  }

  test('garbage of any length under any photo type is null', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.constantFrom('image/png', 'image/heic', 'image/avif'), async (bytes, mime) => {
        assert.equal(await captureOf(Buffer.from(bytes), mime), null);
      }),
      { numRuns: 100, seed: 32 },
    );
  });
});
