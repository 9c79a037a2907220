import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { EventSocket } from '../../helpers/events.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 32, item 3: photos arriving from a backup showed under today's month until the media
 * workers reached them. The capture time is read as the upload completes: the first event and the
 * first listing already place the photo in its month.
 */

let t: TestServer;
let owner: SignedIn;
let socket: EventSocket;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  socket = await EventSocket.open(t.url, owner.access);
});
after(async () => {
  socket.ws.close();
  await t.close();
});

async function jpegTaken(when: string | null, shade: number): Promise<Buffer> {
  const image = sharp({ create: { width: 48, height: 32, channels: 3, background: { r: shade, g: 80, b: 140 } } }).jpeg();
  return (
    when === null
      ? image
      : image.withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when, OffsetTimeOriginal: '+02:00' } })
  ).toBuffer();
}

/** The node.created event of the upload: sent as it completes, before any processing. */
async function createdEvent(id: string): Promise<any> {
  const event = await socket.waitFor((m) => m.type === 'node.created' && m.payload.node.id === id);
  return event.payload.node;
}

describe('a photo is placed by its capture time from the moment it arrives', () => {
  test('a JPEG taken in May 2019: its node.created event and the first listing of May 2019 already carry that taken_at', async () => {
    const id = await uploadFile(t.api, owner.access, await jpegTaken('2019:05:12 10:30:00', 10), { filename: 'may-2019.jpg' });
    const listed = (await t.client.get('/nodes?filter=gallery&month=2019-05', { token: owner.access })).body;
    const created = await createdEvent(id);
    const expected = Date.UTC(2019, 4, 12, 8, 30, 0);
    assert.equal(created.taken_at, expected, JSON.stringify(created));
    assert.equal(created.taken_offset, 120);
    assert.equal(created.has_thumbnail, false, 'the event is sent before processing');
    assert.ok(
      listed.items.some((n: any) => n.id === id && n.taken_at === expected),
      `the May 2019 listing holds it at once: ${JSON.stringify(listed.items)}`,
    );
    await t.server.mediaIdle();
    assert.equal((await t.client.get(`/nodes/${id}`, { token: owner.access })).body.taken_at, expected, 'processing agrees');
  });

  test("the device's hint places a photo whose file says no date, and stays when processing finds none; the file's own date wins over a hint", async () => {
    const hinted = Date.UTC(2016, 7, 20, 9, 0, 0);
    const bare = await uploadFile(t.api, owner.access, await jpegTaken(null, 30), {
      filename: 'no-exif.jpg',
      metadata: { taken_at: String(hinted), taken_offset: '60' },
    });
    const created = await createdEvent(bare);
    assert.equal(created.taken_at, hinted);
    assert.equal(created.taken_offset, 60);

    const dated = await uploadFile(t.api, owner.access, await jpegTaken('2012:03:04 05:06:07', 50), {
      filename: 'exif-beats-hint.jpg',
      metadata: { taken_at: String(hinted) },
    });
    assert.equal((await createdEvent(dated)).taken_at, Date.UTC(2012, 2, 4, 3, 6, 7));

    await t.server.mediaIdle();
    const after = (await t.client.get(`/nodes/${bare}`, { token: owner.access })).body;
    assert.equal(after.taken_at, hinted, 'no date in the file: the hint is kept');
    assert.equal(after.has_thumbnail, true);
    const months = (await t.client.get('/nodes/gallery/months', { token: owner.access })).body.items.map((m: any) => m.month);
    assert.ok(months.includes('2016-08') && months.includes('2012-03'), JSON.stringify(months));
  });

  test('a hint no camera could mean (the year 3000, letters) is ignored', async () => {
    const id = await uploadFile(t.api, owner.access, await jpegTaken(null, 70), {
      filename: 'silly-hint.jpg',
      metadata: { taken_at: String(Date.UTC(3000, 0, 1)) },
    });
    assert.equal((await createdEvent(id)).taken_at, undefined);
    const other = await uploadFile(t.api, owner.access, await jpegTaken(null, 90), {
      filename: 'letters.jpg',
      metadata: { taken_at: 'yesterday' },
    });
    assert.equal((await createdEvent(other)).taken_at, undefined);
  });

  test('with a queue that runs nothing yet, the gallery already counts the photo in May 2019 and lists it there, never in this month', async () => {
    const held = await startTestServer({ mediaConcurrency: 0 });
    try {
      const who = await setupOwner(held.client);
      const id = await uploadFile(held.api, who.access, await jpegTaken('2019:05:12 10:30:00', 20), { filename: 'held.jpg' });
      const months = (await held.client.get('/nodes/gallery/months', { token: who.access })).body.items;
      assert.deepEqual(
        months.map((m: any) => [m.month, m.photos]),
        [['2019-05', 1]],
      );
      const listed = (await held.client.get('/nodes?filter=gallery&month=2019-05', { token: who.access })).body.items;
      assert.deepEqual(
        listed.map((n: any) => [n.id, n.taken_at, n.has_thumbnail]),
        [[id, Date.UTC(2019, 4, 12, 8, 30, 0), false]],
      );
    } finally {
      await held.close();
    }
  });

  test('an MP4 whose movie header says 2 January 2020: placed there from its first event', async () => {
    const id = await uploadFile(t.api, owner.access, await mediaFixture('clip.mp4'), { filename: 'clip.mp4' });
    assert.equal((await createdEvent(id)).taken_at, Date.UTC(2020, 0, 2, 3, 4, 5));
  });

  test("an iPhone's HEIC and a PNG with EXIF, with a queue that runs nothing yet: each is in its own month from its first event and in the gallery's months", async () => {
    const held = await startTestServer({ mediaConcurrency: 0 });
    const who = await setupOwner(held.client);
    const heard = await EventSocket.open(held.url, who.access);
    try {
      const heic = await uploadFile(held.api, who.access, await mediaFixture('iphone-irot.heic'), { filename: 'IMG_0001.HEIC' });
      const png = await uploadFile(
        held.api,
        who.access,
        await sharp({ create: { width: 32, height: 24, channels: 3, background: '#468' } })
          .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: '2018:06:07 08:09:10', OffsetTimeOriginal: '+02:00' } })
          .png()
          .toBuffer(),
        { filename: 'Screenshot.png' },
      );
      const created = async (id: string) =>
        (await heard.waitFor((m) => m.type === 'node.created' && m.payload.node.id === id)).payload.node;
      const heicNode = await created(heic);
      assert.deepEqual([heicNode.taken_at, heicNode.taken_offset], [Date.UTC(2019, 4, 6, 6, 8, 9), 60]);
      const pngNode = await created(png);
      assert.deepEqual([pngNode.taken_at, pngNode.taken_offset], [Date.UTC(2018, 5, 7, 6, 9, 10), 120]);
      const months = (await held.client.get('/nodes/gallery/months', { token: who.access })).body.items;
      assert.deepEqual(
        months.map((m: any) => [m.month, m.photos]),
        [
          ['2019-05', 1],
          ['2018-06', 1],
        ],
      );
    } finally {
      heard.ws.close();
      await held.close();
    }
  });
});
