import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { jpeg } from '../../helpers/albums.ts';
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
});
