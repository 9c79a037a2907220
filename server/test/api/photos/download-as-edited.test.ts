import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { jpeg } from '../../helpers/albums.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// "Download as edited": the photo made again as the family edited it (turned, its corrected
// date and place in its EXIF); the plain download stays the original; nobody else's photo is found.

let t: TestServer;
let mum: SignedIn;
let dad: SignedIn;

async function get(who: SignedIn, path: string) {
  const res = await fetch(`${t.api}${path}`, { headers: { authorization: `Bearer ${who.access}` } });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The colour at a point of a picture, named as the quadrants fixtures name theirs. */
async function colourAt(body: Buffer, x: number, y: number): Promise<string> {
  const { data } = await sharp(body).extract({ left: x, top: y, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
  const [r, g, b] = [data[0]! > 128, data[1]! > 128, data[2]! > 128];
  if (r && g && !b) return 'yellow';
  if (r && !g && !b) return 'red';
  if (!r && g && !b) return 'green';
  if (!r && !g && b) return 'blue';
  return `rgb(${data[0]}, ${data[1]}, ${data[2]})`;
}

/** What a picture's four corners show, from the top left, clockwise. */
async function corners(body: Buffer): Promise<string[]> {
  const { width = 0, height = 0 } = await sharp(body).metadata();
  const inset = 10;
  return Promise.all([
    colourAt(body, inset, inset),
    colourAt(body, width - inset, inset),
    colourAt(body, width - inset, height - inset),
    colourAt(body, inset, height - inset),
  ]);
}

/** EXIF's ASCII values, read off the raw block: enough to find what was written. */
const exifText = (exif: Buffer | undefined) => (exif ?? Buffer.alloc(0)).toString('latin1');

before(async () => {
  t = await startTestServer();
  const admin = await setupOwner(t.client);
  mum = await createMember(t.client, admin, 'mum');
  dad = await createMember(t.client, admin, 'dad');
});
after(() => t.close());

describe('GET /photos/{id}/edited', () => {
  test('after a quarter turn the download as edited is turned (its sides swapped), with the corrected date and place in its EXIF; the plain download is the original', async () => {
    const original = await jpeg('2020:05:01 10:00:00');
    const id = await uploadFile(t.api, mum.access, original, { filename: 'Beach.jpg' });
    await t.server.mediaIdle();
    const was = await sharp(original).metadata();
    assert.ok(was.width! > was.height!, 'a landscape photo');

    const edited = await t.client.patch(
      `/photos/${id}/edits`,
      { rotation: 90, taken_at: Date.UTC(2015, 5, 14, 9, 30), taken_offset: 60, place: { name: 'Lisbon' } },
      { token: mum.access },
    );
    assert.equal(edited.status, 200, JSON.stringify(edited.body));

    const got = await get(mum, `/photos/${id}/edited`);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-type'), 'image/jpeg');
    assert.match(got.headers.get('content-disposition') ?? '', /attachment;.*Beach \(edited\)\.jpg/);
    const meta = await sharp(got.body).metadata();
    assert.deepEqual([meta.width, meta.height], [was.height, was.width], 'width and height swapped by the turn');
    assert.ok(!meta.orientation || meta.orientation === 1, 'upright as it is, with no turn left for a viewer to make');
    const exif = exifText(meta.exif);
    assert.ok(exif.includes('2015:06:14 10:30:00'), 'the corrected date, on the clock where it was taken');
    assert.ok(exif.includes('+01:00'), 'and its zone');
    const lisbon = edited.body.node.place;
    assert.ok(lisbon && Math.abs(lisbon.latitude - 38.7) < 0.2, JSON.stringify(lisbon));
    assert.ok(meta.exif && meta.exif.includes(Buffer.from('N\0')) && meta.exif.includes(Buffer.from('W\0')), 'a position north and west');

    const plain = await get(mum, `/nodes/${id}/download`);
    assert.equal(plain.status, 200);
    assert.ok(plain.body.equals(original), 'the download is still the original file');
  });

  test("someone else's photo is not found; a video or a file that is not a photo cannot be downloaded as edited", async () => {
    const id = await uploadFile(t.api, mum.access, await jpeg('2021:01:01 10:00:00'), { filename: 'Mine.jpg' });
    const other = await get(dad, `/photos/${id}/edited`);
    assert.equal(other.status, 404);
    assert.equal(JSON.parse(other.body.toString()).error.code, 'not_found');
    const text = await uploadFile(t.api, mum.access, Buffer.from('a note'), { filename: 'note.txt' });
    const refused = await get(mum, `/photos/${text}/edited`);
    assert.equal(refused.status, 400);
    assert.equal(JSON.parse(refused.body.toString()).error.code, 'not_a_photo');
  });

  test('an iPhone photo (HEIC) is made again as a JPEG, upright by its own turn once (irot, not again by its EXIF), then turned as the family turned it', async () => {
    // Stored sideways (400x200: red blue over green yellow), an irot box and EXIF orientation 6 both saying "a quarter turn clockwise".
    const id = await uploadFile(t.api, mum.access, await mediaFixture('iphone-irot.heic'), { filename: 'IMG_0001.HEIC' });
    await t.server.mediaIdle();
    const asIs = await get(mum, `/photos/${id}/edited`);
    assert.equal(asIs.status, 200, asIs.body.toString().slice(0, 200));
    assert.equal(asIs.headers.get('content-type'), 'image/jpeg');
    assert.match(asIs.headers.get('content-disposition') ?? '', /attachment;.*IMG_0001 \(edited\)\.jpg/);
    const upright = await sharp(asIs.body).metadata();
    assert.equal(upright.format, 'jpeg');
    assert.deepEqual([upright.width, upright.height], [200, 400], 'turned once: portrait, as the phone showed it');
    assert.ok(!upright.orientation || upright.orientation === 1, 'no turn left for a viewer to make again');
    assert.deepEqual(await corners(asIs.body), ['green', 'red', 'blue', 'yellow']);
    assert.ok(exifText(upright.exif).includes('2019:05:06 07:08:09'), 'its date, read from the HEIC, in its EXIF');

    const turned = await t.client.patch(`/photos/${id}/edits`, { rotation: 90 }, { token: mum.access });
    assert.equal(turned.status, 200, JSON.stringify(turned.body));
    const got = await get(mum, `/photos/${id}/edited`);
    assert.equal(got.status, 200);
    const meta = await sharp(got.body).metadata();
    assert.deepEqual([meta.width, meta.height], [400, 200], 'the family turn on top of the phone’s own');
    assert.deepEqual(await corners(got.body), ['yellow', 'green', 'red', 'blue']);

    const plain = await get(mum, `/nodes/${id}/download`);
    assert.ok(plain.body.equals(await mediaFixture('iphone-irot.heic')), 'the download is still the HEIC itself');
  });

  test('a HEIC without a turn comes out the size and way up it was taken, with its date', async () => {
    const id = await uploadFile(t.api, mum.access, await mediaFixture('quadrants-640x480.heic'), { filename: 'Garden.heic' });
    await t.server.mediaIdle();
    const got = await get(mum, `/photos/${id}/edited`);
    assert.equal(got.status, 200, got.body.toString().slice(0, 200));
    const meta = await sharp(got.body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 640, 480]);
    assert.deepEqual(await corners(got.body), ['red', 'blue', 'yellow', 'green']);
    assert.ok(exifText(meta.exif).includes('2016:01:02 03:04:05'));
    // Still nobody else's to download.
    assert.equal((await get(dad, `/photos/${id}/edited`)).status, 404);
  });
});
