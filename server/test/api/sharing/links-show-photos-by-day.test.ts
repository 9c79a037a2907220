import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { readZip } from '../../helpers/zip.ts';

// A link to an album, or to a folder of photos, is shown as photos by day (PublicShare.view),
// each with the town it was taken in, and "Download all" (GET /s/{token}/zip) gives one zip of
// everything the link shows, as the link's download switch and password allow.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `grandma${++accounts}`);
}

async function link(who: SignedIn, route: string, body: Record<string, unknown> = {}): Promise<{ token: string; id: string }> {
  const res = await t.client.post(route, body, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function folder(who: SignedIn, name: string, parentId?: string): Promise<string> {
  const res = await t.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

async function zipOf(token: string, query = ''): Promise<{ status: number; type: string | null; body: Buffer }> {
  const res = await fetch(`${t.api}/s/${token}/zip${query}`);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
}

const info = async (token: string) => (await t.client.get(`/s/${token}`)).body;

describe('links shown as photos', () => {
  test('an album link says view "photos", its photos carry the town they were taken in; Download all zips every photo it shows', async () => {
    const mum = await person();
    const lisbon = await uploadFile(t.api, mum.access, await mediaFixture('lisbon-pixel.jpg'), { filename: 'IMG_0001.jpg' });
    const beach = await uploadPhoto(t, mum, 'IMG_0002.jpg', { when: '2024:08:04 11:00:00' });
    await uploadPhoto(t, mum, 'not-in-album.jpg');
    await t.server.mediaIdle();
    const album = await makeAlbum(t, mum, 'Summer in Portugal', [lisbon, beach]);
    const { token } = await link(mum, `/albums/${album.id}/share`);

    const shown = await info(token);
    assert.equal(shown.view, 'photos');
    const children = (await t.client.get(`/s/${token}/children`)).body.items;
    const inLisbon = children.find((n: any) => n.id === lisbon);
    assert.deepEqual(inLisbon.place, { town: 'Lisbon', country_code: 'PT' });
    assert.equal(children.find((n: any) => n.id === beach).place, undefined);

    const zip = await zipOf(token);
    assert.equal(zip.status, 200);
    assert.equal(zip.type, 'application/zip');
    const entries = await readZip(zip.body);
    assert.deepEqual(entries.map((e) => e.name).sort(), ['IMG_0001.jpg', 'IMG_0002.jpg']);
    assert.deepEqual(entries.find((e) => e.name === 'IMG_0001.jpg')!.data, await mediaFixture('lisbon-pixel.jpg'));
  });

  test('a folder of photos says "photos"; one with folders inside or mostly documents says "files"; its zip holds everything under it', async () => {
    const dad = await person();
    const photos = await folder(dad, 'Garden');
    for (const name of ['a.jpg', 'b.jpg', 'c.jpg', 'd.jpg']) await uploadPhoto(t, dad, name, { parentId: photos });
    await uploadFile(t.api, dad.access, Buffer.from('roses\n'), { filename: 'notes.txt', parentId: photos });
    const papers = await folder(dad, 'Papers');
    await uploadFile(t.api, dad.access, Buffer.from('tax\n'), { filename: 'tax.txt', parentId: papers });
    await uploadPhoto(t, dad, 'scan.jpg', { parentId: papers });
    const nested = await folder(dad, 'Trips');
    await uploadPhoto(t, dad, 'x.jpg', { parentId: nested });
    await folder(dad, 'Day two', nested);
    await t.server.mediaIdle();

    const garden = await link(dad, `/nodes/${photos}/share`);
    assert.equal((await info(garden.token)).view, 'photos');
    assert.equal((await info((await link(dad, `/nodes/${papers}/share`)).token)).view, 'files');
    const trips = await link(dad, `/nodes/${nested}/share`);
    assert.equal((await info(trips.token)).view, 'files');

    const zip = await zipOf(garden.token);
    assert.equal(zip.status, 200);
    assert.deepEqual((await readZip(zip.body)).map((e) => e.name).sort(), [
      'Garden/',
      'Garden/a.jpg',
      'Garden/b.jpg',
      'Garden/c.jpg',
      'Garden/d.jpg',
      'Garden/notes.txt',
    ]);
    const tripsZip = await readZip((await zipOf(trips.token)).body);
    assert.deepEqual(tripsZip.map((e) => e.name).sort(), ['Trips/', 'Trips/Day two/', 'Trips/x.jpg']);
  });

  test('Download all follows the link: 403 download_disabled when downloads are off, 401 until a protected link is unlocked, 404 once revoked', async () => {
    const gran = await person();
    const photo = await uploadPhoto(t, gran, 'cake.jpg');
    await t.server.mediaIdle();
    const album = await makeAlbum(t, gran, 'Birthday', [photo]);
    const noDownloads = await link(gran, `/albums/${album.id}/share`, { allow_download: false });
    const refused = await zipOf(noDownloads.token);
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body.toString()).error.code, 'download_disabled');

    const locked = await link(gran, `/albums/${album.id}/share`, { password: 'cake-for-everyone' });
    const asked = await zipOf(locked.token);
    assert.equal(asked.status, 401);
    assert.equal(JSON.parse(asked.body.toString()).error.code, 'share_password_required');
    const unlocked = await t.client.post(`/s/${locked.token}/unlock`, { password: 'cake-for-everyone' });
    assert.equal(unlocked.status, 200);
    const opened = await zipOf(locked.token, `?grant=${encodeURIComponent(unlocked.body.grant)}`);
    assert.equal(opened.status, 200);
    assert.deepEqual(
      (await readZip(opened.body)).map((e) => e.name),
      ['cake.jpg'],
    );

    assert.equal((await t.client.delete(`/shares/${locked.id}`, { token: gran.access })).status, 204);
    assert.equal((await zipOf(locked.token, `?grant=${encodeURIComponent(unlocked.body.grant)}`)).status, 404);
  });
});
