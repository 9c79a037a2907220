/**
 * What a photo or video says about itself reaches the family: the zone it was taken in, the
 * place (named offline from its GPS), the camera and exposure, a video's length. A link's
 * visitor learns when, never where. A server upgraded from a release that did not keep these
 * reads them for the photos it already has, in the background, without making thumbnails again.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { MIGRATIONS } from '../../../src/store/database/migrations/index.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { mediaFixture, type MediaFixture } from '../../helpers/fixtures.ts';
import { rewindLaterMigrations } from '../../helpers/rewind.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

let accounts = 0;
async function fresh(server: TestServer = t, admin: SignedIn = owner): Promise<SignedIn> {
  return createMember(server.client, admin, `details${++accounts}`);
}

async function uploadFixture(who: SignedIn, name: MediaFixture, server: TestServer = t): Promise<string> {
  return uploadFile(server.api, who.access, await mediaFixture(name), { filename: name });
}

async function node(who: SignedIn, id: string, server: TestServer = t): Promise<any> {
  const res = await server.client.get(`/nodes/${id}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

describe('media details on the node', () => {
  test('a phone photo in Lisbon: the instant, its zone (+60), the place named offline, camera, lens and exposure', async () => {
    const who = await fresh();
    const id = await uploadFixture(who, 'lisbon-pixel.jpg');
    await t.server.mediaIdle();
    const photo = await node(who, id);
    // 19:59:12 at +01:00 is 18:59:12 UTC: the instant, with the zone to show it in.
    assert.equal(photo.taken_at, Date.UTC(2024, 7, 3, 18, 59, 12));
    assert.equal(photo.taken_offset, 60);
    assert.deepEqual(photo.place, { latitude: 38.7107, longitude: -9.1366, town: 'Lisbon', country_code: 'PT' });
    assert.deepEqual(photo.camera, {
      make: 'Google',
      model: 'Pixel 8',
      lens: 'Pixel 8 back camera 6.9mm f/1.68',
      f_number: 1.68,
      exposure_time: 1 / 120,
      iso: 50,
      focal_length: 6.9,
    });
    assert.equal(photo.duration_ms, undefined);
    // The gallery listing carries the same fields, so the timeline needs no second request.
    const listed = (await t.client.get('/nodes?filter=gallery&month=2024-08', { token: who.access })).body.items;
    assert.deepEqual(listed, [photo]);
  });

  test('by the Eiffel Tower is Paris (a big city reaches further than the suburb whose centre is nearer)', async () => {
    const who = await fresh();
    const id = await uploadFixture(who, 'paris-canon.jpg');
    await t.server.mediaIdle();
    const photo = await node(who, id);
    assert.equal(photo.place.town, 'Paris');
    assert.equal(photo.place.country_code, 'FR');
    assert.equal(photo.taken_offset, 120);
    assert.equal(photo.camera.exposure_time, 1 / 250);
  });

  test('a phone without a GPS fix writes 0,0: no place, and no zone where the file gives none', async () => {
    const who = await fresh();
    const id = await uploadFixture(who, 'no-fix.jpg');
    await t.server.mediaIdle();
    const photo = await node(who, id);
    assert.equal(photo.place, undefined);
    assert.equal(photo.taken_offset, undefined);
    // Without a zone, taken_at is the camera's clock read as UTC, as before.
    assert.equal(photo.taken_at, Date.UTC(2019, 2, 3, 12, 0, 0));
    assert.deepEqual(photo.camera, { make: 'Google', model: 'Pixel 3' });
  });

  test('an iPhone video: its length, its zone and place from the QuickTime keys, and its camera', async () => {
    const who = await fresh();
    const id = await uploadFixture(who, 'lisbon-iphone.mov');
    await t.server.mediaIdle();
    const video = await node(who, id);
    assert.equal(video.duration_ms, 2000);
    assert.equal(video.taken_at, Date.UTC(2024, 7, 3, 19, 15, 0));
    assert.equal(video.taken_offset, 60);
    assert.equal(video.place.town, 'Lisbon');
    assert.deepEqual(video.camera, { make: 'Apple', model: 'iPhone 15' });
  });

  test('the timeline counts a photo in the month of the clock where it was taken: 00:30 on 1 January 2020 in Tokyo is January 2020', async () => {
    const who = await fresh();
    const id = await uploadFixture(who, 'tokyo-new-year.jpg');
    await t.server.mediaIdle();
    assert.equal((await node(who, id)).taken_at, Date.UTC(2019, 11, 31, 15, 30, 0), 'still 2019 in UTC');
    const months = (await t.client.get('/nodes/gallery/months', { token: who.access })).body.items;
    assert.deepEqual(months, [{ month: '2020-01', photos: 1, videos: 0 }]);
    const listed = (await t.client.get('/nodes?filter=gallery&month=2020-01', { token: who.access })).body.items;
    assert.deepEqual(
      listed.map((n: any) => n.id),
      [id],
    );
  });

  test("a link's visitor sees when it was taken, a video's length and the town it was taken in, never its coordinates nor the camera", async () => {
    const who = await fresh();
    const id = await uploadFixture(who, 'lisbon-pixel.jpg');
    await t.server.mediaIdle();
    const link = await t.client.post(`/nodes/${id}/share`, {}, { token: who.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    const seen = await fetch(`${t.api}/s/${link.body.token}`);
    const body = (await seen.json()) as any;
    assert.equal(body.node.taken_at, Date.UTC(2024, 7, 3, 18, 59, 12));
    assert.equal(body.node.taken_offset, 60);
    // The day and the town are the story an album link tells (issue 32, item 10); the exact spot is not.
    assert.deepEqual(body.node.place, { town: 'Lisbon', country_code: 'PT' });
    assert.equal(body.node.camera, undefined);
    assert.doesNotMatch(JSON.stringify(body), /38\.71|-9\.1|Pixel|latitude|longitude/);
  });
});

describe('a server upgraded from a release that did not keep the details', () => {
  test('reads them for the photos it has, in the background, keeping their thumbnails; the months follow the zone', async () => {
    const first = await startTestServer();
    const admin = await setupOwner(first.client);
    const who = await fresh(first, admin);
    const lisbon = await uploadFixture(who, 'lisbon-pixel.jpg', first);
    const tokyo = await uploadFixture(who, 'tokyo-new-year.jpg', first);
    const video = await uploadFixture(who, 'lisbon-iphone.mov', first);
    await first.server.mediaIdle();
    await first.server.close();

    // The database as the release before migration 14 left it: no detail columns, no re-read
    // queue, and taken_sort the UTC instant (Tokyo's photo in December 2019).
    const mine = MIGRATIONS.findIndex((sql) => sql.includes('ADD COLUMN taken_offset'));
    assert.ok(mine > 0, 'the details migration exists');
    const db = openConnection(path.join(first.dataDir, 'hearth.db'));
    rewindLaterMigrations(db, mine);
    const columns = ['taken_offset', 'duration_ms', 'latitude', 'longitude', 'place_town', 'place_country', 'camera_make'];
    const more = ['camera_model', 'lens', 'f_number', 'exposure_time', 'iso', 'focal_length', 'media_search'];
    db.exec(`UPDATE nodes SET taken_sort = coalesce(taken_at, created_at);
      DROP INDEX media_jobs_order; ALTER TABLE media_jobs DROP COLUMN details_only;
      CREATE INDEX media_jobs_order ON media_jobs(enqueued_at, node_id);
      ${[...columns, ...more].map((c) => `ALTER TABLE nodes DROP COLUMN ${c};`).join('\n')}`);
    db.pragma(`user_version = ${mine}`);
    const thumbnails = thumbnailFiles(first.dataDir);
    assert.ok(thumbnails.size >= 3);
    db.close();

    const again = await startTestServer({ dataDir: first.dataDir });
    try {
      await again.server.mediaIdle();
      const photo = await node(who, lisbon, again);
      assert.equal(photo.taken_offset, 60);
      assert.equal(photo.place.town, 'Lisbon');
      assert.equal(photo.camera.model, 'Pixel 8');
      assert.equal(photo.has_thumbnail, true);
      assert.equal((await node(who, video, again)).duration_ms, 2000);
      assert.equal((await node(who, tokyo, again)).taken_offset, 540);
      // Not one thumbnail made again: the same files, untouched.
      assert.deepEqual(thumbnailFiles(first.dataDir), thumbnails);
      const months = (await again.client.get('/nodes/gallery/months', { token: who.access })).body.items;
      assert.deepEqual(months, [
        { month: '2024-08', photos: 1, videos: 1 },
        { month: '2020-01', photos: 1, videos: 0 },
      ]);
      const found = (await again.client.get('/nodes/gallery/months?q=lisbon', { token: who.access })).body.items;
      assert.deepEqual(found, [{ month: '2024-08', photos: 1, videos: 1 }]);
    } finally {
      await again.close();
    }
  });
});

/** Every thumbnail file under the data folder, with its modification time. */
function thumbnailFiles(dataDir: string): Map<string, number> {
  const files = new Map<string, number>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.webp')) files.set(path.relative(dataDir, full), fs.statSync(full).mtimeMs);
    }
  };
  walk(dataDir);
  return files;
}
