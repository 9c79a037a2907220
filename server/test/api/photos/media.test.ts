import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { openConnection, type Db } from '../../../src/store/database/db.ts';
import sharp from 'sharp';
import WebSocket, { type RawData } from 'ws';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { mediaFixture, type MediaFixture } from '../../helpers/fixtures.ts';
import { HEX, quadrants } from '../../helpers/images.ts';
import { uploadFile, type UploadOptions } from '../../helpers/upload.ts';

// ---------------------------------------------------------------------------------------------
// Fixtures: images made here with sharp; HEIC and video read from fixtures/media (committed,
// made by `npm run fixtures`), so these tests need no system tool.
// ---------------------------------------------------------------------------------------------

type Rgb = [number, number, number];
const PALETTE: Record<string, Rgb> = {
  red: [255, 0, 0],
  blue: [0, 0, 255],
  green: [0, 255, 0],
  yellow: [255, 255, 0],
  magenta: [255, 0, 255],
  background: [232, 232, 232],
};

/** The upright picture of each EXIF orientation, as quadrant colours [[top-left, top-right], [bottom-left, bottom-right]]. */
const UPRIGHT: Record<number, string[][]> = {
  1: [
    ['red', 'blue'],
    ['green', 'yellow'],
  ],
  2: [
    ['blue', 'red'],
    ['yellow', 'green'],
  ], // mirrored
  3: [
    ['yellow', 'green'],
    ['blue', 'red'],
  ], // turned 180
  4: [
    ['green', 'yellow'],
    ['red', 'blue'],
  ], // flipped
  5: [
    ['red', 'green'],
    ['blue', 'yellow'],
  ], // transposed
  6: [
    ['green', 'red'],
    ['yellow', 'blue'],
  ], // turned 90 clockwise
  7: [
    ['yellow', 'blue'],
    ['green', 'red'],
  ], // transversed
  8: [
    ['blue', 'yellow'],
    ['red', 'green'],
  ], // turned 90 anticlockwise
};

async function solid(colour: string, width = 300, height = 200, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const img = sharp({ create: { width, height, channels: 3, background: HEX[colour] ?? colour } });
  return format === 'png' ? img.png().toBuffer() : img.jpeg().toBuffer();
}

interface Exif {
  DateTimeOriginal?: string;
  OffsetTimeOriginal?: string;
  SubSecTimeOriginal?: string;
  DateTimeDigitized?: string;
}

async function jpegWithExif(exif: Exif, ifd0: Record<string, string> = {}): Promise<Buffer> {
  return (await quadrants())
    .jpeg()
    .withExif({ IFD0: { Make: 'Hearth test', ...ifd0 }, IFD2: { ...exif } })
    .toBuffer();
}

interface Decoded {
  width: number;
  height: number;
  at(x: number, y: number): Rgb;
}

async function decode(image: Buffer): Promise<Decoded> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    width: info.width,
    height: info.height,
    at(x, y) {
      const i = (Math.floor(y) * info.width + Math.floor(x)) * info.channels;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

function colourName(rgb: Rgb): string {
  let best = 'unknown';
  let bestDistance = Infinity;
  for (const [name, ref] of Object.entries(PALETTE)) {
    const d = Math.hypot(rgb[0] - ref[0], rgb[1] - ref[1], rgb[2] - ref[2]);
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return bestDistance < 90 ? best : `unknown(${rgb.join(',')})`;
}

/** The colour at the centre of each quadrant. */
function quadrantColours(img: Decoded): string[][] {
  const xs = [img.width / 4, (img.width * 3) / 4];
  const ys = [img.height / 4, (img.height * 3) / 4];
  return ys.map((y) => xs.map((x) => colourName(img.at(x, y))));
}

/** A PNG whose header says 20000x20000 and whose data really inflates to that (1 bit grey, 48 KB). */
function pngBomb(side = 20_000): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rows = Buffer.alloc(side * (1 + Math.ceil(side / 8)));
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A real small JPEG whose frame header (SOF) is rewritten to claim 20000x20000. */
async function jpegBomb(): Promise<Buffer> {
  const jpeg = Buffer.from(await solid('red', 64, 64, 'jpeg'));
  for (let i = 2; i < jpeg.length - 9; i++) {
    if (jpeg[i] === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2)) {
      jpeg.writeUInt16BE(20_000, i + 5);
      jpeg.writeUInt16BE(20_000, i + 7);
      return jpeg;
    }
  }
  throw new Error('no SOF marker');
}

// ---------------------------------------------------------------------------------------------
// The server and its calls
// ---------------------------------------------------------------------------------------------

let t: TestServer;
let owner: SignedIn;
let stranger: SignedIn;
let db: Db;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  stranger = await createMember(t.client, owner, 'stranger');
  db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
});
after(async () => {
  db.close();
  await t.close();
});

function upload(data: Buffer, options: UploadOptions & { who?: SignedIn } = {}): Promise<string> {
  return uploadFile(t.api, (options.who ?? owner).access, data, options);
}

/** Uploads and waits until the media queue has done everything. */
async function uploadProcessed(data: Buffer, options: UploadOptions & { who?: SignedIn } = {}): Promise<string> {
  const id = await upload(data, options);
  await t.server.mediaIdle();
  return id;
}

async function nodeOf(id: string, who: SignedIn = owner): Promise<any> {
  const res = await t.client.get(`/nodes/${id}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function mkdir(name: string, parentId?: string, who: SignedIn = owner): Promise<string> {
  const res = await t.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

interface Got {
  status: number;
  headers: Headers;
  body: Buffer;
  json(): any;
}

async function fetchRaw(url: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: () => JSON.parse(body.toString('utf8')) };
}

/** GET /nodes/{id}/thumbnail with the owner's bearer token unless told otherwise (null: none). */
function thumbnail(id: string, query = '', options: { token?: string | null; headers?: Record<string, string> } = {}): Promise<Got> {
  const token = options.token === undefined ? owner.access : options.token;
  const headers = { ...options.headers, ...(token !== null && { authorization: `Bearer ${token}` }) };
  return fetchRaw(`${t.api}/nodes/${id}/thumbnail${query}`, headers);
}

function preview(id: string, options: { token?: string | null; accept?: string; query?: string } = {}): Promise<Got> {
  const token = options.token === undefined ? owner.access : options.token;
  const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return fetchRaw(`${t.api}/nodes/${id}/preview${options.query ?? ''}`, headers);
}

/** A token for the node's own URLs, minted by the owner. */
async function urlToken(id: string): Promise<string> {
  const res = await t.client.post(`/nodes/${id}/access-token`, undefined, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.access_token;
}

function assertError(got: Got, status: number, code: string, context = ''): void {
  assert.equal(got.status, status, `${context} ${got.body.toString('utf8').slice(0, 300)}`);
  assert.match(got.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(got.json().error.code, code, context);
}

/** The thumbnail of a node: 200, WebP, decoded. */
async function thumbnailImage(id: string, query = ''): Promise<Decoded> {
  const got = await thumbnail(id, query);
  assert.equal(got.status, 200, got.body.toString('utf8').slice(0, 300));
  assert.equal(got.headers.get('content-type'), 'image/webp');
  assert.equal((await sharp(got.body).metadata()).format, 'webp');
  return decode(got.body);
}

function mediaState(id: string): string | null {
  const row = db.prepare('SELECT media_state FROM nodes WHERE id = ?').get(id) as { media_state: string | null } | undefined;
  assert.ok(row, `node ${id} is in the database`);
  return row.media_state;
}

/** A node the server processed successfully: the size it reports and a thumbnail of that shape. */
async function assertProcessed(id: string, width: number, height: number, context = ''): Promise<any> {
  const node = await nodeOf(id);
  assert.equal(node.has_thumbnail, true, `${context} has_thumbnail`);
  assert.equal(node.image_width, width, `${context} image_width`);
  assert.equal(node.image_height, height, `${context} image_height`);
  assert.equal(mediaState(id), 'done', context);
  const thumb = await thumbnailImage(id);
  const long = Math.min(512, Math.max(width, height));
  const scale = long / Math.max(width, height);
  assert.ok(
    Math.abs(thumb.width - width * scale) <= 1 && Math.abs(thumb.height - height * scale) <= 1,
    `${context} thumbnail ${thumb.width}x${thumb.height} for ${width}x${height}`,
  );
  return node;
}

/** A node the server could not render: no thumbnail, a failed state, a 404 on /thumbnail. */
async function assertNotRendered(id: string, context = ''): Promise<any> {
  const node = await nodeOf(id);
  assert.equal(node.has_thumbnail, false, context);
  assert.equal(mediaState(id), 'failed', context);
  assertError(await thumbnail(id), 404, 'no_thumbnail', context);
  return node;
}

// ---------------------------------------------------------------------------------------------

describe('orientation', () => {
  for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
    const swapped = orientation >= 5;
    test(`a JPEG with EXIF orientation ${orientation} reports ${swapped ? '200x400' : '400x200'} and its thumbnail is the right way up`, async () => {
      const jpeg = await (await quadrants()).jpeg().withMetadata({ orientation }).toBuffer();
      assert.equal((await sharp(jpeg).metadata()).orientation, orientation, 'fixture carries the orientation');
      const id = await uploadProcessed(jpeg, { filename: `orientation-${orientation}.jpg` });
      await assertProcessed(id, swapped ? 200 : 400, swapped ? 400 : 200, `orientation ${orientation}`);
      const thumb = await thumbnailImage(id);
      assert.deepEqual(quadrantColours(thumb), UPRIGHT[orientation], `orientation ${orientation}`);
    });
  }

  for (const format of ['png', 'webp', 'tiff'] as const) {
    test(`orientation is honoured in a ${format.toUpperCase()} that carries it, not only in JPEG`, async () => {
      for (const orientation of [3, 6, 7]) {
        const image = await (await quadrants())[format]().withMetadata({ orientation }).toBuffer();
        assert.equal((await sharp(image).metadata()).orientation, orientation, `the ${format} fixture carries orientation ${orientation}`);
        const id = await uploadProcessed(image, { filename: `turned-${orientation}.${format}` });
        const swapped = orientation >= 5;
        await assertProcessed(id, swapped ? 200 : 400, swapped ? 400 : 200, `${format} ${orientation}`);
        assert.deepEqual(quadrantColours(await thumbnailImage(id)), UPRIGHT[orientation], `${format} ${orientation}`);
      }
    });
  }

  test('an AVIF turned by its irot box (with a matching EXIF orientation) reports the upright size and is turned once', async () => {
    const avif = await (await quadrants()).avif().withMetadata({ orientation: 6 }).toBuffer();
    const id = await uploadProcessed(avif, { filename: 'portrait.avif' });
    await assertProcessed(id, 200, 400, 'avif');
    assert.deepEqual(quadrantColours(await thumbnailImage(id)), UPRIGHT[6]);
  });

  test('a HEIF turned by its irot box, with the EXIF orientation an iPhone also writes, is turned once, not twice', async () => {
    // sharp writes the rotation as an irot box and keeps EXIF orientation 6, as iPhones do; the
    // brand makes it a plain HEIF, which goes through the system HEIF decoder.
    const heif = Buffer.from(await (await quadrants()).avif().withMetadata({ orientation: 6 }).toBuffer());
    heif.write('mif1', 8, 'latin1');
    const id = await uploadProcessed(heif, { filename: 'IMG_0001.HEIF' });
    const node = await assertProcessed(id, 200, 400, 'heif');
    assert.equal(node.mime_type, 'image/heif');
    assert.deepEqual(quadrantColours(await thumbnailImage(id)), UPRIGHT[6]);
  });
});

describe('iPhone HEIC', () => {
  test('a HEVC-coded HEIC turned by its irot box, with the EXIF orientation 6 an iPhone also writes, is turned once and keeps its capture time', async () => {
    const id = await uploadProcessed(await mediaFixture('iphone-irot.heic'), { filename: 'IMG_0001.HEIC' });
    const node = await assertProcessed(id, 200, 400, 'irot heic');
    assert.equal(node.mime_type, 'image/heic');
    assert.equal(node.taken_at, Date.UTC(2019, 4, 6, 6, 8, 9));
    assert.deepEqual(quadrantColours(await thumbnailImage(id)), UPRIGHT[6]);
  });
});

describe('capture time', () => {
  test('DateTimeOriginal with OffsetTimeOriginal +02:00 gives taken_at in UTC', async () => {
    const id = await uploadProcessed(await jpegWithExif({ DateTimeOriginal: '2021:07:04 10:20:30', OffsetTimeOriginal: '+02:00' }), {
      filename: 'plus2.jpg',
    });
    assert.equal((await nodeOf(id)).taken_at, Date.UTC(2021, 6, 4, 8, 20, 30));
  });

  test('DateTimeOriginal with OffsetTimeOriginal -05:30 gives taken_at in UTC', async () => {
    const id = await uploadProcessed(await jpegWithExif({ DateTimeOriginal: '2021:07:04 10:20:30', OffsetTimeOriginal: '-05:30' }), {
      filename: 'minus530.jpg',
    });
    assert.equal((await nodeOf(id)).taken_at, Date.UTC(2021, 6, 4, 15, 50, 30));
  });

  test('a DateTimeOriginal without an offset is read as UTC', async () => {
    const id = await uploadProcessed(await jpegWithExif({ DateTimeOriginal: '2021:07:04 10:20:30' }), { filename: 'no-offset.jpg' });
    assert.equal((await nodeOf(id)).taken_at, Date.UTC(2021, 6, 4, 10, 20, 30));
  });

  test('SubSecTimeOriginal adds its milliseconds, together with the offset', async () => {
    const exif = { DateTimeOriginal: '2021:07:04 10:20:30', OffsetTimeOriginal: '+02:00', SubSecTimeOriginal: '25' };
    const jpeg = await jpegWithExif(exif);
    const id = await uploadProcessed(jpeg, { filename: 'subsec.jpg' });
    assert.equal((await nodeOf(id)).taken_at, Date.UTC(2021, 6, 4, 8, 20, 30, 250));
  });

  test('orientation and capture time written together are both read', async () => {
    const jpeg = await (
      await quadrants()
    )
      .jpeg()
      .withMetadata({ orientation: 8 })
      .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: '2018:12:24 18:00:00', OffsetTimeOriginal: '+01:00' } })
      .toBuffer();
    const id = await uploadProcessed(jpeg, { filename: 'both.jpg' });
    const node = await assertProcessed(id, 200, 400);
    assert.equal(node.taken_at, Date.UTC(2018, 11, 24, 17, 0, 0));
    assert.deepEqual(quadrantColours(await thumbnailImage(id)), UPRIGHT[8]);
  });

  test('without DateTimeOriginal the CreateDate is the capture time', async () => {
    const id = await uploadProcessed(await jpegWithExif({ DateTimeDigitized: '2017:03:04 05:06:07' }), { filename: 'create-date.jpg' });
    assert.equal((await nodeOf(id)).taken_at, Date.UTC(2017, 2, 4, 5, 6, 7));
  });

  test('a photo without capture time has taken_at absent, not null and not defaulted, while its size is present', async () => {
    const id = await uploadProcessed(await (await quadrants()).jpeg().toBuffer(), { filename: 'no-exif.jpg' });
    const node = await assertProcessed(id, 400, 200);
    assert.equal('taken_at' in node, false, JSON.stringify(node));
    const listed = await t.client.get('/nodes?filter=gallery&limit=1000', { token: owner.access });
    const item = listed.body.items.find((n: any) => n.id === id);
    assert.ok(item);
    assert.equal('taken_at' in item, false);
  });

  test('a modification date alone (IFD0 DateTime, written by editors) is not a capture time', async () => {
    const id = await uploadProcessed(await jpegWithExif({}, { DateTime: '2023:05:06 07:08:09' }), { filename: 'edited.jpg' });
    const node = await nodeOf(id);
    assert.equal(node.has_thumbnail, true);
    assert.equal('taken_at' in node, false, JSON.stringify(node));
  });

  test('a PNG carrying EXIF DateTimeOriginal gets its taken_at', async () => {
    const png = await (
      await quadrants()
    )
      .png()
      .withExif({ IFD0: { Make: 'x' }, IFD2: { DateTimeOriginal: '2015:06:07 08:09:10', OffsetTimeOriginal: '+00:00' } })
      .toBuffer();
    assert.ok((await sharp(png).metadata()).exif, 'the PNG fixture carries EXIF');
    const id = await uploadProcessed(png, { filename: 'exif.png' });
    const node = await assertProcessed(id, 400, 200);
    assert.equal(node.taken_at, Date.UTC(2015, 5, 7, 8, 9, 10));
  });

  test('a HEIC carrying EXIF DateTimeOriginal gets its taken_at', async () => {
    // 2022:02:22 22:22:22 at -03:00
    const id = await uploadProcessed(await mediaFixture('exif-minus3.heic'), { filename: 'IMG_2222.HEIC' });
    const node = await assertProcessed(id, 400, 200);
    assert.equal(node.taken_at, Date.UTC(2022, 1, 23, 1, 22, 22));
  });
});

describe('formats', () => {
  test('JPEG, PNG, WebP, GIF, TIFF, AVIF and HEIC all get their size and a thumbnail', async () => {
    const base = await quadrants(640, 480);
    const png = await base.clone().png().toBuffer();
    const files: [string, Buffer, string][] = [
      ['a.jpg', await base.clone().jpeg().toBuffer(), 'image/jpeg'],
      ['a.png', png, 'image/png'],
      ['a.webp', await base.clone().webp().toBuffer(), 'image/webp'],
      ['a.gif', await base.clone().gif().toBuffer(), 'image/gif'],
      ['a.tiff', await base.clone().tiff().toBuffer(), 'image/tiff'],
      ['a.avif', await base.clone().avif().toBuffer(), 'image/avif'],
      ['a.heic', await mediaFixture('quadrants-640x480.heic'), 'image/heic'],
    ];
    const folder = await mkdir('formats');
    const ids = await Promise.all(files.map(([filename, data]) => upload(data, { filename, parentId: folder })));
    await t.server.mediaIdle();
    for (const [i, [filename, , mime]] of files.entries()) {
      const node = await assertProcessed(ids[i]!, 640, 480, filename);
      assert.equal(node.mime_type, mime, filename);
      assert.deepEqual(quadrantColours(await thumbnailImage(ids[i]!)), UPRIGHT[1], filename);
    }
  });

  test('content is sniffed: a JPEG named photo.png and declared text/plain is processed as a JPEG', async () => {
    const jpeg = await (await quadrants()).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const id = await uploadProcessed(jpeg, { filename: 'photo.png', filetype: 'text/plain' });
    const node = await assertProcessed(id, 200, 400);
    assert.equal(node.mime_type, 'image/jpeg');
  });

  test('a text file never gets a thumbnail, media fields or a place in the queue', async () => {
    const id = await uploadProcessed(Buffer.from('just some words\n'), { filename: 'notes.txt', filetype: 'text/plain' });
    const node = await nodeOf(id);
    assert.equal(node.has_thumbnail, false);
    assert.equal('image_width' in node || 'image_height' in node || 'taken_at' in node, false);
    assert.equal(mediaState(id), null);
    assertError(await thumbnail(id), 404, 'no_thumbnail');
  });
});

describe('video', () => {
  const cases: [string, MediaFixture, string][] = [
    ['MP4', 'clip.mp4', 'video/mp4'],
    ['MOV', 'clip.mov', 'video/quicktime'],
    ['WebM', 'clip.webm', 'video/webm'],
  ];
  for (const [label, filename, mime] of cases) {
    test(`a ${label} video gets a poster-frame thumbnail, its size and its creation time`, async () => {
      const id = await uploadProcessed(await mediaFixture(filename), { filename: `upload-${filename}` });
      const node = await assertProcessed(id, 320, 240, label);
      assert.equal(node.mime_type, mime);
      assert.equal(node.taken_at, Date.UTC(2020, 0, 2, 3, 4, 5));
    });
  }

  for (const fixture of ['rotated.mp4', 'rotated.mov'] as const) {
    test(`a video turned by its display matrix (${fixture}) reports the swapped size, an upright poster and its creation time`, async () => {
      const id = await uploadProcessed(await mediaFixture(fixture), { filename: `sideways-${fixture}` });
      const node = await assertProcessed(id, 240, 320, fixture);
      assert.equal(node.taken_at, Date.UTC(2021, 2, 4, 5, 6, 7));
    });
  }

  test('an iPhone HEVC .mov held sideways gets its poster, upright size and creation time', async () => {
    const id = await uploadProcessed(await mediaFixture('iphone-hevc.mov'), { filename: 'IMG_0100.MOV' });
    const node = await assertProcessed(id, 240, 320, 'HEVC');
    assert.equal(node.mime_type, 'video/quicktime');
    assert.equal(node.taken_at, Date.UTC(2022, 5, 7, 8, 9, 10));
  });
});

describe('hostile and broken files', () => {
  for (const [label, make] of [
    ['PNG', async () => pngBomb()],
    ['JPEG', jpegBomb],
  ] as [string, () => Promise<Buffer>][]) {
    test(`a 20000x20000 ${label} bomb gets its size but no thumbnail, a failed state, and the server stays healthy`, async () => {
      const bomb = await make();
      assert.ok(bomb.length < 100_000, `a small file (${bomb.length} bytes)`);
      const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
      assert.equal(meta.width, 20_000);
      const id = await uploadProcessed(bomb, { filename: `bomb.${label.toLowerCase()}` });
      const node = await assertNotRendered(id, label);
      assert.equal(node.image_width, 20_000);
      assert.equal(node.image_height, 20_000);
      const health = await t.client.get('/healthz');
      assert.equal(health.status, 200);
      assert.equal(health.body.status, 'ok');
      const next = await uploadProcessed(await solid('blue'), { filename: `after-${label}-bomb.png` });
      await assertProcessed(next, 300, 200, 'the next image');
    });
  }

  test('a truncated JPEG keeps the size from its intact header, gets no thumbnail, and the queue goes on', async () => {
    const whole = await sharp({
      create: { width: 1600, height: 1200, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
    })
      .jpeg()
      .toBuffer();
    const half = whole.subarray(0, whole.length >> 1);
    const [broken, good] = [
      await upload(half, { filename: 'truncated.jpg' }),
      await upload(await solid('green'), { filename: 'fine.png' }),
    ];
    await t.server.mediaIdle();
    const node = await assertNotRendered(broken, 'truncated');
    assert.equal(node.image_width, 1600);
    assert.equal(node.image_height, 1200);
    await assertProcessed(good, 300, 200, 'the image after it');
  });

  test('a JPEG cut inside its header has no media fields and no thumbnail', async () => {
    const id = await uploadProcessed((await solid('red', 64, 64, 'jpeg')).subarray(0, 24), { filename: 'stub.jpg' });
    const node = await assertNotRendered(id);
    assert.equal('image_width' in node, false);
    assert.equal('taken_at' in node, false);
  });

  test('a text file named like a JPEG is not rendered and does not stop the queue', async () => {
    const [fake, real] = [
      await upload(Buffer.from('definitely not a picture'), { filename: 'fake.jpg', filetype: 'image/jpeg' }),
      await upload(await solid('yellow'), { filename: 'real.png' }),
    ];
    await t.server.mediaIdle();
    await assertNotRendered(fake);
    await assertProcessed(real, 300, 200);
  });
});

describe('GET /nodes/{id}/thumbnail', () => {
  let bigId: string;
  before(async () => {
    bigId = await uploadProcessed(await (await quadrants(3000, 2000)).jpeg().toBuffer(), { filename: 'big.jpg' });
  });

  test('the default thumbnail of a large photo has a long edge of exactly 512', async () => {
    const thumb = await thumbnailImage(bigId);
    assert.equal(thumb.width, 512);
    // 3000x2000 scaled to a 512 long edge is 341.3 high; the resize may round it either way.
    assert.ok(thumb.height === 341 || thumb.height === 342, String(thumb.height));
  });

  test('?size=1024 gives the full-screen thumbnail: long edge 1024', async () => {
    const thumb = await thumbnailImage(bigId, '?size=1024');
    assert.equal(thumb.width, 1024);
    assert.ok(Math.abs(thumb.height - 683) <= 1, String(thumb.height));
    assert.deepEqual(quadrantColours(thumb), UPRIGHT[1]);
  });

  test('a size other than 512 or 1024 is refused with 400', async () => {
    const got = await thumbnail(bigId, '?size=300');
    assert.equal(got.status, 400);
  });

  test('a thumbnail carries an ETag and Cache-Control private, and If-None-Match answers 304 without a body', async () => {
    const first = await thumbnail(bigId);
    assert.equal(first.status, 200);
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[^"]+"$/);
    assert.match(first.headers.get('cache-control') ?? '', /\bprivate\b/);
    const again = await thumbnail(bigId, '', { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.get('etag'), etag);
    const stale = await thumbnail(bigId, '', { headers: { 'if-none-match': '"something-else"' } });
    assert.equal(stale.status, 200);
    assert.ok(stale.body.equals(first.body));
    const big = await thumbnail(bigId, '?size=1024');
    assert.notEqual(big.headers.get('etag'), etag, 'each size has its own validator');
  });

  test('with ?v= naming the current version the thumbnail is still private and revalidated before each use, never kept for good', async () => {
    const node = await nodeOf(bigId);
    const got = await thumbnail(bigId, `?v=${node.version}`);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('cache-control'), 'private, no-cache');
  });

  test('?access_token with a token minted for the node works on /thumbnail; no token is 401; another account gets 404 and mints nothing', async () => {
    const viaQuery = await thumbnail(bigId, `?access_token=${encodeURIComponent(await urlToken(bigId))}`, { token: null });
    assert.equal(viaQuery.status, 200);
    assert.equal(viaQuery.headers.get('content-type'), 'image/webp');
    assert.equal((await thumbnail(bigId, '', { token: null })).status, 401);
    assertError(await thumbnail(bigId, '', { token: stranger.access }), 404, 'not_found', 'bearer');
    assert.equal((await t.client.post(`/nodes/${bigId}/access-token`, undefined, { token: stranger.access })).status, 404);
  });
});

describe('node.thumbnail_ready', () => {
  interface Message {
    type: string;
    payload: any;
  }
  class Socket {
    readonly inbox: Message[] = [];
    private wake: (() => void) | null = null;
    constructor(readonly ws: WebSocket) {
      ws.on('message', (data: RawData) => {
        this.inbox.push(JSON.parse(data.toString()) as Message);
        this.wake?.();
      });
    }
    static open(who: SignedIn): Promise<Socket> {
      return new Promise((resolve, reject) => {
        const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/api/v1/ws`, { headers: { authorization: `Bearer ${who.access}` } });
        const socket = new Socket(ws);
        ws.once('open', () => resolve(socket));
        ws.once('error', reject);
      });
    }
    /** Waits for the first message that matches and returns it with everything before it. */
    async until(match: (m: Message) => boolean, timeoutMs = 10_000): Promise<{ found: Message; before: Message[] }> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const i = this.inbox.findIndex(match);
        if (i >= 0) return { found: this.inbox[i]!, before: this.inbox.slice(0, i) };
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching message; got ${JSON.stringify(this.inbox.map((m) => m.type))}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
    close(): void {
      this.ws.close();
    }
  }

  test('node.thumbnail_ready reaches the owner and an account the folder is shared with, never a stranger', async () => {
    const viewer = await createMember(t.client, owner, 'viewer');
    const folder = await mkdir('shared-photos');
    const grant = await t.client.post(`/nodes/${folder}/permissions`, { user_id: viewer.userId, role: 'viewer' }, { token: owner.access });
    assert.equal(grant.status, 201, JSON.stringify(grant.body));
    const [ownerWs, viewerWs, strangerWs] = await Promise.all([Socket.open(owner), Socket.open(viewer), Socket.open(stranger)]);
    try {
      const id = await upload(await (await quadrants()).jpeg().withMetadata({ orientation: 6 }).toBuffer(), {
        filename: 'event.jpg',
        parentId: folder,
      });
      const isReady = (nodeId: string) => (m: Message) => m.type === 'node.thumbnail_ready' && m.payload?.node?.id === nodeId;
      const seen = await ownerWs.until(isReady(id));
      assert.equal(seen.found.payload.node.has_thumbnail, true);
      assert.equal(seen.found.payload.node.image_width, 200);
      assert.equal(seen.found.payload.node.image_height, 400);
      assert.ok(
        seen.before.some((m) => m.type === 'node.created' && m.payload?.node?.id === id),
        'node.created came first',
      );
      // The thumbnail is there when the event says so.
      assert.equal((await thumbnail(id)).status, 200);
      await viewerWs.until(isReady(id));
      // The stranger's own thumbnail event comes after the owner's; nothing of the owner's may precede it.
      const own = await upload(await solid('red'), { filename: 'mine.png', who: stranger });
      const strangerSaw = await strangerWs.until(isReady(own));
      assert.deepEqual(
        strangerSaw.before.filter((m) => JSON.stringify(m).includes(id)),
        [],
      );
      assert.equal(
        strangerWs.inbox.some((m) => JSON.stringify(m).includes(id)),
        false,
      );
    } finally {
      ownerWs.close();
      viewerWs.close();
      strangerWs.close();
    }
    await t.server.mediaIdle();
  });
});

describe('gallery and taken sorting', () => {
  test('filter=gallery lists every image and video of the account flat from all folders, never a folder or another file', async () => {
    const gail = await createMember(t.client, owner, 'gail');
    const trip = await mkdir('Trip', undefined, gail);
    const day1 = await mkdir('Day 1', trip, gail);
    const expected = [
      await upload(await solid('red'), { filename: 'top.png', who: gail }),
      await upload(await solid('blue', 300, 200, 'jpeg'), { filename: 'in-trip.jpg', parentId: trip, who: gail }),
      await upload(await mediaFixture('clip.mp4'), { filename: 'deep.mp4', parentId: day1, who: gail }),
    ];
    await upload(Buffer.from('%PDF-1.4\n'), { filename: 'doc.pdf', parentId: trip, who: gail });
    await upload(Buffer.from('hello'), { filename: 'notes.txt', parentId: day1, who: gail });
    const trashed = await upload(await solid('green'), { filename: 'gone.png', parentId: trip, who: gail });
    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: gail.access })).status, 200);
    await upload(await solid('yellow'), { filename: 'not-gails.png', who: stranger });
    await t.server.mediaIdle();
    const res = await t.client.get('/nodes?filter=gallery', { token: gail.access });
    assert.equal(res.status, 200);
    const items = res.body.items as any[];
    assert.deepEqual(items.map((n) => n.id).sort(), [...expected].sort());
    assert.ok(items.every((n) => n.type === 'file'));
    assert.ok(items.every((n) => n.has_thumbnail === true && Number.isInteger(n.image_width)));
  });

  test('sort=taken orders by capture time and falls back to upload time for files without one, both ways; folders stay on top', async () => {
    const tina = await createMember(t.client, owner, 'tina');
    const folder = await mkdir('Album', undefined, tina);
    const sub = await mkdir('Sub', folder, tina);
    const put = async (name: string, data: Buffer) => {
      const id = await upload(data, { filename: name, parentId: folder, who: tina });
      await new Promise((resolve) => setTimeout(resolve, 5));
      return id;
    };
    // Uploaded in an order that is neither the taken order nor its reverse.
    // Next year: the latest capture time that still counts (later ones are ignored as implausible).
    const future = await put('future.jpg', await jpegWithExif({ DateTimeOriginal: `${new Date().getUTCFullYear() + 1}:12:31 00:00:00` }));
    const undatedFirst = await put('undated-1.png', await solid('red'));
    const past = await put('past.jpg', await jpegWithExif({ DateTimeOriginal: '2019:05:05 05:05:05', OffsetTimeOriginal: '+01:00' }));
    const undatedSecond = await put('undated-2.png', await solid('blue'));
    const ancient = await put('ancient.mp4', await mediaFixture('ancient.mp4')); // 2001-09-09
    await t.server.mediaIdle();
    const ascending = [ancient, past, undatedFirst, undatedSecond, future];

    const list = async (query: string) => {
      const res = await t.client.get(`/nodes?${query}`, { token: tina.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return (res.body.items as any[]).map((n) => n.id);
    };
    assert.deepEqual(await list(`parent_id=${folder}&sort=taken&order=asc`), [sub, ...ascending]);
    assert.deepEqual(await list(`parent_id=${folder}&sort=taken&order=desc`), [sub, ...[...ascending].reverse()]);
    assert.deepEqual(await list('filter=gallery&sort=taken&order=asc'), ascending);
    assert.deepEqual(await list('filter=gallery&sort=taken&order=desc'), [...ascending].reverse());
    // Paging through the taken order gives the same sequence.
    const first = await t.client.get('/nodes?filter=gallery&sort=taken&order=asc&limit=2', { token: tina.access });
    const second = await t.client.get(`/nodes?filter=gallery&sort=taken&order=asc&limit=10&cursor=${first.body.next_cursor}`, {
      token: tina.access,
    });
    assert.deepEqual(
      [...first.body.items, ...second.body.items].map((n: any) => n.id),
      ascending,
    );
  });
});

describe('new versions', () => {
  test('a new version is processed again: new size and capture time, the old thumbnail replaced, a new ETag', async () => {
    const v1 = await jpegWithExif({ DateTimeOriginal: '2020:02:02 02:02:02' });
    const id = await uploadProcessed(v1, { filename: 'evolving.jpg' });
    const before = await assertProcessed(id, 400, 200, 'v1');
    assert.equal(before.taken_at, Date.UTC(2020, 1, 2, 2, 2, 2));
    const oldThumb = await thumbnail(id);
    const oldEtag = oldThumb.headers.get('etag');

    const v2 = await (await quadrants(300, 600)).jpeg().withMetadata({ orientation: 3 }).toBuffer();
    assert.equal(await uploadFile(t.api, owner.access, v2, { filename: 'evolving.jpg', nodeId: id }), id);
    await t.server.mediaIdle();
    const after = await assertProcessed(id, 300, 600, 'v2');
    assert.equal(after.version, before.version + 1);
    assert.equal('taken_at' in after, false, 'the capture time of the old content is gone');
    const newThumb = await thumbnail(id);
    assert.notEqual(newThumb.headers.get('etag'), oldEtag);
    assert.equal((await thumbnail(id, '', { headers: { 'if-none-match': oldEtag! } })).status, 200, 'the old ETag no longer matches');
    const image = await decode(newThumb.body);
    assert.equal(image.width, 256);
    assert.equal(image.height, 512);
    assert.deepEqual(quadrantColours(image), UPRIGHT[3]);
    // Only the current version's thumbnails stay in the cache.
    assert.deepEqual(await cachedThumbnails(id), [`${id}-v${after.version}-512.webp`]);
  });
});

/** The files of a node in the thumbnail cache, sorted. */
async function cachedThumbnails(id: string): Promise<string[]> {
  const names = await fs.readdir(path.join(t.dataDir, 'thumbs', id.slice(-2))).catch(() => [] as string[]);
  return names.filter((f) => f.startsWith(`${id}-`)).sort();
}

describe('the full-screen size, made on its first request', () => {
  /** 3000x2000 stored, EXIF orientation 6: upright it is 2000x3000. */
  const sideways = async () => (await quadrants(3000, 2000)).jpeg().withMetadata({ orientation: 6 }).toBuffer();

  test('processing makes only the grid size; the first ?size=1024 makes the full-screen one, upright, and keeps it in the cache', async () => {
    const id = await uploadProcessed(await sideways(), { filename: 'tall.jpg' });
    const { version } = await nodeOf(id);
    assert.deepEqual(await cachedThumbnails(id), [`${id}-v${version}-512.webp`]);

    const got = await thumbnail(id, `?size=1024&v=${version}`);
    assert.equal(got.status, 200, got.body.toString('utf8').slice(0, 300));
    assert.equal(got.headers.get('content-type'), 'image/webp');
    assert.equal(got.headers.get('etag'), `"${id}-${version}-1024"`);
    assert.equal(got.headers.get('cache-control'), 'private, no-cache');
    const image = await decode(got.body);
    assert.ok(Math.abs(image.width - 683) <= 1 && image.height === 1024, `${image.width}x${image.height}`);
    assert.deepEqual(quadrantColours(image), UPRIGHT[6]);
    assert.deepEqual(await cachedThumbnails(id), [`${id}-v${version}-1024.webp`, `${id}-v${version}-512.webp`]);
  });

  test('a second request is answered from the cache, and If-None-Match answers 304 without making anything', async () => {
    const id = await uploadProcessed(await sideways(), { filename: 'cached.jpg' });
    const { version } = await nodeOf(id);
    const first = await thumbnail(id, '?size=1024');
    assert.equal(first.status, 200);
    // Swap the cached file for a marker image: what the next answer holds shows where it came from.
    const marker = await sharp({ create: { width: 683, height: 1024, channels: 3, background: HEX.magenta! } })
      .webp()
      .toBuffer();
    await fs.writeFile(path.join(t.dataDir, 'thumbs', id.slice(-2), `${id}-v${version}-1024.webp`), marker);
    const second = await thumbnail(id, '?size=1024');
    assert.equal(second.status, 200);
    assert.ok(second.body.equals(marker), 'served from the cache, not made again');
    assert.equal(second.headers.get('etag'), first.headers.get('etag'));

    const other = await uploadProcessed(await sideways(), { filename: 'never-opened.jpg' });
    const etag = `"${other}-${(await nodeOf(other)).version}-1024"`;
    const notModified = await thumbnail(other, '?size=1024', { headers: { 'if-none-match': etag } });
    assert.equal(notModified.status, 304);
    assert.equal(notModified.headers.get('etag'), etag);
    assert.equal(
      (await cachedThumbnails(other)).some((f) => f.endsWith('-1024.webp')),
      false,
      'a 304 makes nothing',
    );
  });

  test('requests arriving together while it is being made all get the same image', async () => {
    const id = await uploadProcessed(await sideways(), { filename: 'together.jpg' });
    const answers = await Promise.all([1, 2, 3, 4].map(() => thumbnail(id, '?size=1024')));
    for (const got of answers) {
      assert.equal(got.status, 200);
      assert.ok(got.body.equals(answers[0]!.body));
    }
    assert.equal((await cachedThumbnails(id)).length, 2);
  });

  test('a new version replaces it: the old one leaves the cache, the new one is made from the new content', async () => {
    const id = await uploadProcessed(await sideways(), { filename: 'replaced.jpg' });
    const old = await thumbnail(id, '?size=1024');
    assert.equal(old.status, 200);
    const oldEtag = old.headers.get('etag')!;

    const v2 = await (await quadrants(2400, 1200)).jpeg().withMetadata({ orientation: 3 }).toBuffer();
    assert.equal(await uploadFile(t.api, owner.access, v2, { filename: 'replaced.jpg', nodeId: id }), id);
    await t.server.mediaIdle();
    const { version } = await nodeOf(id);
    assert.deepEqual(await cachedThumbnails(id), [`${id}-v${version}-512.webp`], 'the old full-screen image is gone');

    const stale = await thumbnail(id, '?size=1024', { headers: { 'if-none-match': oldEtag } });
    assert.equal(stale.status, 200, 'the old ETag no longer matches');
    assert.notEqual(stale.headers.get('etag'), oldEtag);
    const image = await decode(stale.body);
    assert.deepEqual([image.width, image.height], [1024, 512]);
    assert.deepEqual(quadrantColours(image), UPRIGHT[3]);
    assert.deepEqual(await cachedThumbnails(id), [`${id}-v${version}-1024.webp`, `${id}-v${version}-512.webp`]);
  });

  test('access is checked before anything is made: a stranger gets 404, no token 401, an account it is shared with and a public link get it', async () => {
    const friend = await createMember(t.client, owner, 'fullscreen-friend');
    const folder = await mkdir('Full screen album');
    const grant = await t.client.post(`/nodes/${folder}/permissions`, { user_id: friend.userId, role: 'viewer' }, { token: owner.access });
    assert.equal(grant.status, 201, JSON.stringify(grant.body));
    const id = await uploadProcessed(await sideways(), { filename: 'guarded.jpg', parentId: folder });

    assertError(await thumbnail(id, '?size=1024', { token: stranger.access }), 404, 'not_found', 'bearer');
    assert.equal((await t.client.post(`/nodes/${id}/access-token`, undefined, { token: stranger.access })).status, 404, 'no URL token');
    assert.equal((await thumbnail(id, '?size=1024', { token: null })).status, 401);
    assert.equal(
      (await cachedThumbnails(id)).some((f) => f.endsWith('-1024.webp')),
      false,
      'refused requests make nothing',
    );

    const viaShare = await thumbnail(id, '?size=1024', { token: friend.access });
    assert.equal(viaShare.status, 200);
    assert.equal((await decode(viaShare.body)).height, 1024);

    const link = await t.client.post(`/nodes/${folder}/share`, {}, { token: owner.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    const viaLink = await fetchRaw(`${t.api}/s/${link.body.token}/thumbnail?node_id=${id}&size=1024`);
    assert.equal(viaLink.status, 200);
    assert.ok(viaLink.body.equals(viaShare.body));
  });

  test('a grid thumbnail lost from the cache is made again on request', async () => {
    const id = await uploadProcessed(await sideways(), { filename: 'lost.jpg' });
    const { version } = await nodeOf(id);
    const before = await thumbnail(id);
    await fs.rm(path.join(t.dataDir, 'thumbs', id.slice(-2), `${id}-v${version}-512.webp`));
    const again = await thumbnail(id);
    assert.equal(again.status, 200);
    assert.equal(again.headers.get('etag'), before.headers.get('etag'));
    const image = await decode(again.body);
    assert.deepEqual([image.width, image.height], [341, 512]);
    assert.deepEqual(quadrantColours(image), UPRIGHT[6]);
    assert.deepEqual(await cachedThumbnails(id), [`${id}-v${version}-512.webp`]);
  });

  test('HEIC and video, whose decoders are slow, get both sizes when processed', async () => {
    const photo = await uploadProcessed(await mediaFixture('quadrants-1600x1200.heic'), { filename: 'both.heic' });
    const v = (await nodeOf(photo)).version;
    assert.deepEqual(await cachedThumbnails(photo), [`${photo}-v${v}-1024.webp`, `${photo}-v${v}-512.webp`]);
    const full = await decode((await thumbnail(photo, '?size=1024')).body);
    assert.deepEqual([full.width, full.height], [1024, 768]);

    const video = await uploadProcessed(await mediaFixture('clip.mp4'), { filename: 'both.mp4' });
    const vv = (await nodeOf(video)).version;
    assert.deepEqual(await cachedThumbnails(video), [`${video}-v${vv}-1024.webp`, `${video}-v${vv}-512.webp`]);
  });
});

describe('GET /nodes/{id}/preview', () => {
  let folder: string;
  let ids: string[];
  const colours = ['red', 'green', 'blue', 'yellow', 'magenta'];

  before(async () => {
    folder = await mkdir('Preview me');
    ids = [];
    for (const colour of colours)
      ids.push(await uploadProcessed(await solid(colour, 400, 300), { filename: `${colour}.png`, parentId: folder }));
    await mkdir('a subfolder', folder);
    await upload(Buffer.from('text'), { filename: 'readme.txt', parentId: folder });
    await t.server.mediaIdle();
  });

  test('JSON lists the four newest children that have thumbnails, newest first, with working thumbnail URLs', async () => {
    const got = await preview(folder);
    assert.equal(got.status, 200);
    const items = got.json().items as { node_id: string; thumbnail_url: string }[];
    assert.deepEqual(
      items.map((i) => i.node_id),
      [ids[4], ids[3], ids[2], ids[1]],
    );
    for (const item of items) {
      const thumb = await fetchRaw(`${t.url}${item.thumbnail_url}`, { authorization: `Bearer ${owner.access}` });
      assert.equal(thumb.status, 200, item.thumbnail_url);
      assert.equal(thumb.headers.get('content-type'), 'image/webp');
    }
  });

  test('with Accept: image/webp the preview is one 512x512 WebP mosaic of those four, newest top left', async () => {
    const got = await preview(folder, { accept: 'image/webp' });
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/webp');
    const mosaic = await decode(got.body);
    assert.equal(mosaic.width, 512);
    assert.equal(mosaic.height, 512);
    assert.deepEqual(quadrantColours(mosaic), [
      ['magenta', 'yellow'],
      ['blue', 'green'],
    ]);
  });

  test('a bare */* (what fetch and curl send), a page navigation or no Accept at all gets JSON; an <img> request gets the mosaic', async () => {
    for (const accept of ['*/*', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json, */*']) {
      const got = await preview(folder, { accept });
      assert.equal(got.status, 200, accept);
      assert.match(got.headers.get('content-type') ?? '', /^application\/json/, accept);
      assert.equal(got.json().items.length, 4, accept);
    }
    const bare = await new Promise<{ type: string | undefined; body: string }>((resolve, reject) => {
      const req = http.get(`${t.api}/nodes/${folder}/preview`, { headers: { authorization: `Bearer ${owner.access}` } }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ type: res.headers['content-type'], body }));
      });
      req.on('error', reject);
    });
    assert.match(bare.type ?? '', /^application\/json/, 'no Accept header');
    assert.equal(JSON.parse(bare.body).items.length, 4);
    for (const accept of ['image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'image/*']) {
      const got = await preview(folder, { accept });
      assert.equal(got.status, 200, accept);
      assert.equal(got.headers.get('content-type'), 'image/webp', accept);
    }
  });

  test('a folder with fewer than four thumbnails fills the rest of the mosaic with the background', async () => {
    const small = await mkdir('Just one');
    await uploadProcessed(await solid('red'), { filename: 'only.png', parentId: small });
    const mosaic = await decode((await preview(small, { accept: 'image/webp' })).body);
    assert.deepEqual(quadrantColours(mosaic), [
      ['red', 'background'],
      ['background', 'background'],
    ]);
  });

  test('an empty folder previews as JSON items [] and as an image 404 no_thumbnail', async () => {
    const empty = await mkdir('Empty');
    const json = await preview(empty);
    assert.equal(json.status, 200);
    assert.deepEqual(json.json().items, []);
    assertError(await preview(empty, { accept: 'image/webp' }), 404, 'no_thumbnail');
  });

  test('?access_token with a token minted for the folder works on /preview; no token is 401; another account gets 404', async () => {
    const query = `?access_token=${encodeURIComponent(await urlToken(folder))}`;
    const json = await preview(folder, { token: null, query });
    assert.equal(json.status, 200);
    assert.equal(json.json().items.length, 4);
    const image = await preview(folder, { token: null, query, accept: 'image/webp' });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/webp');
    assert.equal((await preview(folder, { token: null })).status, 401);
    assertError(await preview(folder, { token: stranger.access }), 404, 'not_found');
    assert.equal((await t.client.post(`/nodes/${folder}/access-token`, undefined, { token: stranger.access })).status, 404);
  });
});

describe('public links', () => {
  test('a link to a folder serves /s/{token}/thumbnail?node_id= for an image inside, and not for one outside', async () => {
    const folder = await mkdir('Shared album');
    const inside = await uploadProcessed(await (await quadrants()).jpeg().withMetadata({ orientation: 6 }).toBuffer(), {
      filename: 'in.jpg',
      parentId: folder,
    });
    const outside = await uploadProcessed(await solid('red'), { filename: 'out.png' });
    const link = await t.client.post(`/nodes/${folder}/share`, {}, { token: owner.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    const token = link.body.token as string;

    const got = await fetchRaw(`${t.api}/s/${token}/thumbnail?node_id=${inside}`);
    assert.equal(got.status, 200, got.body.toString().slice(0, 200));
    assert.equal(got.headers.get('content-type'), 'image/webp');
    const image = await decode(got.body);
    assert.equal(image.width, 200);
    assert.equal(image.height, 400);
    assert.deepEqual(quadrantColours(image), UPRIGHT[6]);
    assert.ok(got.headers.get('etag'));

    assertError(await fetchRaw(`${t.api}/s/${token}/thumbnail`), 404, 'no_thumbnail', 'the folder itself');
    assertError(await fetchRaw(`${t.api}/s/${token}/thumbnail?node_id=${outside}`), 404, 'not_found', 'outside the link');
  });
});

describe('without system tools', () => {
  let bare: TestServer;
  let who: SignedIn;
  before(async () => {
    // Tools are looked up on PATH when the server starts: with an empty one it finds none of
    // the system's, and falls back to what npm installed.
    const saved = process.env.PATH;
    process.env.PATH = path.join(t.dataDir, 'no-tools-here');
    try {
      bare = await startTestServer();
    } finally {
      process.env.PATH = saved;
    }
    who = await setupOwner(bare.client);
  });
  after(() => bare.close());

  async function processedOnBare(data: Buffer, filename: string): Promise<any> {
    const id = await uploadFile(bare.api, who.access, data, { filename });
    await bare.server.mediaIdle();
    return (await bare.client.get(`/nodes/${id}`, { token: who.access })).body;
  }

  async function bareThumbnail(id: string): Promise<Decoded> {
    const got = await fetchRaw(`${bare.api}/nodes/${id}/thumbnail`, { authorization: `Bearer ${who.access}` });
    assert.equal(got.status, 200, got.body.toString('utf8').slice(0, 300));
    return decode(got.body);
  }

  test('without heif-convert a HEIC photo is decoded by the WebAssembly fallback: size, capture time and thumbnail', async () => {
    const node = await processedOnBare(await mediaFixture('quadrants-640x480.heic'), 'IMG_0042.HEIC');
    assert.equal(node.has_thumbnail, true, JSON.stringify(node));
    assert.equal(node.image_width, 640);
    assert.equal(node.image_height, 480);
    assert.equal(node.taken_at, Date.UTC(2016, 0, 2, 3, 4, 5));
    const thumb = await bareThumbnail(node.id);
    assert.equal(thumb.width, 512);
    assert.deepEqual(quadrantColours(thumb), UPRIGHT[1]);
  });

  test('the WebAssembly fallback turns an iPhone HEIC by its irot box once, not again by its EXIF orientation', async () => {
    const node = await processedOnBare(await mediaFixture('iphone-irot.heic'), 'IMG_0043.HEIC');
    assert.deepEqual([node.image_width, node.image_height], [200, 400], JSON.stringify(node));
    assert.equal(node.taken_at, Date.UTC(2019, 4, 6, 6, 8, 9));
    assert.deepEqual(quadrantColours(await bareThumbnail(node.id)), UPRIGHT[6]);
  });

  test('with FFMPEG_PATH unset and no ffmpeg on PATH, the ffmpeg shipped in node_modules makes the poster, upright size and creation time', async () => {
    for (const [fixture, takenAt] of [
      ['rotated.mp4', Date.UTC(2021, 2, 4, 5, 6, 7)],
      ['iphone-hevc.mov', Date.UTC(2022, 5, 7, 8, 9, 10)],
      ['clip.webm', Date.UTC(2020, 0, 2, 3, 4, 5)],
    ] as const) {
      const node = await processedOnBare(await mediaFixture(fixture), fixture);
      assert.equal(node.has_thumbnail, true, `${fixture}: ${JSON.stringify(node)}`);
      const upright = fixture === 'clip.webm' ? [320, 240] : [240, 320];
      assert.deepEqual([node.image_width, node.image_height], upright, fixture);
      assert.equal(node.taken_at, takenAt, fixture);
      const poster = await bareThumbnail(node.id);
      assert.deepEqual([poster.width, poster.height], upright, fixture);
    }
  });
});

describe('with an ffmpeg that fails', () => {
  let broken: TestServer;
  let who: SignedIn;
  before(async () => {
    broken = await startTestServer({ ffmpegPath: path.join(t.dataDir, 'no-such-ffmpeg') });
    who = await setupOwner(broken.client);
  });
  after(() => broken.close());

  test('a video gets no thumbnail, is still in the gallery, and the queue goes on', async () => {
    const id = await uploadFile(broken.api, who.access, await mediaFixture('clip.mp4'), { filename: 'clip.mp4' });
    const next = await uploadFile(broken.api, who.access, await solid('red'), { filename: 'after.png' });
    await broken.server.mediaIdle();
    const node = (await broken.client.get(`/nodes/${id}`, { token: who.access })).body;
    assert.equal(node.has_thumbnail, false);
    assert.equal(node.mime_type, 'video/mp4');
    const gallery = await broken.client.get('/nodes?filter=gallery', { token: who.access });
    assert.ok(gallery.body.items.some((n: any) => n.id === id));
    assert.equal((await broken.client.get(`/nodes/${next}`, { token: who.access })).body.has_thumbnail, true);
  });
});

describe('before processing', () => {
  test('until the queue has processed a photo, /thumbnail answers 404 no_thumbnail and its size is absent (its capture time, read as the upload completed, is there); a restart processes it', async () => {
    // A server whose queue runs no jobs: every photo stays where it is right after upload.
    const blocked = await startTestServer({ mediaConcurrency: 0 });
    let restarted: TestServer | undefined;
    try {
      const who = await setupOwner(blocked.client);
      const folder = (await blocked.client.post('/nodes/folder', { name: 'Waiting' }, { token: who.access })).body.id as string;
      const jpeg = await jpegWithExif({ DateTimeOriginal: '2021:07:04 10:20:30' });
      const id = await uploadFile(blocked.api, who.access, jpeg, { filename: 'waiting.jpg', parentId: folder });
      const node = (await blocked.client.get(`/nodes/${id}`, { token: who.access })).body;
      assert.equal(node.has_thumbnail, false);
      assert.equal('image_width' in node || 'image_height' in node, false, JSON.stringify(node));
      // Issue 32: placed in its month from the first moment, not under today until processed.
      assert.equal(node.taken_at, Date.UTC(2021, 6, 4, 10, 20, 30));
      const early = await fetchRaw(`${blocked.api}/nodes/${id}/thumbnail`, { authorization: `Bearer ${who.access}` });
      assertError(early, 404, 'no_thumbnail');
      const emptyPreview = await fetchRaw(`${blocked.api}/nodes/${folder}/preview`, {
        authorization: `Bearer ${who.access}`,
        accept: 'application/json',
      });
      assert.deepEqual(emptyPreview.json().items, []);
      // An upload is never held up by the queue: it already answered, and listings answer too.
      const gallery = await blocked.client.get('/nodes?filter=gallery', { token: who.access });
      assert.deepEqual(
        gallery.body.items.map((n: any) => n.id),
        [id],
      );

      await blocked.server.close();
      restarted = await startTestServer({ dataDir: blocked.dataDir });
      await restarted.server.mediaIdle();
      const done = (await restarted.client.get(`/nodes/${id}`, { token: who.access })).body;
      assert.equal(done.has_thumbnail, true);
      assert.equal(done.image_width, 400);
      assert.equal(done.taken_at, Date.UTC(2021, 6, 4, 10, 20, 30));
      const late = await fetchRaw(`${restarted.api}/nodes/${id}/thumbnail`, { authorization: `Bearer ${who.access}` });
      assert.equal(late.status, 200);
    } finally {
      if (restarted) await restarted.close();
      else await blocked.close();
    }
  });
});
