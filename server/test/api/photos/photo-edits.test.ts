import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, jpeg, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// A photo turned, its date and place corrected, kept beside the original: thumbnails are turned
// (under a new validator), the file downloads as it was, the timeline and search follow at once,
// everyone who sees it hears so, and a revert puts back what the file says. Only whoever may
// change the photo may edit it.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `edits${++accounts}`);
}

async function raw(who: SignedIn, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.api}${path}`, { headers: { authorization: `Bearer ${who.access}`, ...headers } });
  return { status: res.status, etag: res.headers.get('etag'), body: Buffer.from(await res.arrayBuffer()) };
}

async function size(who: SignedIn, id: string): Promise<{ width: number; height: number; etag: string | null }> {
  const got = await raw(who, `/nodes/${id}/thumbnail`);
  assert.equal(got.status, 200);
  const meta = await sharp(got.body).metadata();
  return { width: meta.width!, height: meta.height!, etag: got.etag };
}

const edit = (who: SignedIn | null, id: string, body: unknown) =>
  t.client.patch(`/photos/${id}/edits`, body, who ? { token: who.access } : {});

async function found(who: SignedIn, q: string): Promise<string[]> {
  const months = await t.client.get(`/nodes/gallery/months?q=${encodeURIComponent(q)}`, { token: who.access });
  assert.equal(months.status, 200, JSON.stringify(months.body));
  const ids: string[] = [];
  for (const month of months.body.items) {
    const page = await t.client.get(`/nodes?filter=gallery&month=${month.month}&q=${encodeURIComponent(q)}&limit=100`, {
      token: who.access,
    });
    ids.push(...page.body.items.map((n: any) => n.id));
  }
  return ids;
}

async function monthOf(who: SignedIn, id: string): Promise<string | null> {
  const months = await t.client.get('/nodes/gallery/months', { token: who.access });
  for (const month of months.body.items) {
    const page = await t.client.get(`/nodes?filter=gallery&month=${month.month}&limit=500`, { token: who.access });
    if (page.body.items.some((n: any) => n.id === id)) return month.month;
  }
  return null;
}

describe('PATCH /photos/{id}/edits', () => {
  test('a quarter turn: the thumbnail turns portrait under a new ETag, the node says rotation 90, the download is the original file', async () => {
    const mum = await person();
    const original = await jpeg('2020:05:01 10:00:00');
    const id = await uploadFile(t.api, mum.access, original, { filename: 'landscape.jpg' });
    await t.server.mediaIdle();
    const before = await size(mum, id);
    assert.ok(before.width > before.height, 'a landscape photo');

    const res = await edit(mum, id, { rotation: 90 });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.rotation, 90);
    assert.equal(res.body.node.rotation, 90);
    // The file's own size: the turn is the viewer's to apply.
    assert.equal(res.body.node.image_width, 24);
    const turned = await size(mum, id);
    assert.ok(turned.height > turned.width, 'its thumbnail is portrait now');
    assert.notEqual(turned.etag, before.etag, 'a browser does not reuse the unturned copy');
    assert.equal((await raw(mum, `/nodes/${id}/thumbnail`, { 'if-none-match': before.etag! })).status, 200);
    const largeGot = await raw(mum, `/nodes/${id}/thumbnail?v=1&size=1024&r=90`);
    assert.equal(largeGot.status, 200, largeGot.body.toString());
    const large = await sharp(largeGot.body).metadata();
    assert.ok(large.height! > large.width!);
    const download = await raw(mum, `/nodes/${id}/download`);
    assert.equal(download.status, 200);
    assert.ok(download.body.equals(original), 'the download is the original, byte for byte');
    assert.equal((await t.client.get(`/nodes/${id}`, { token: mum.access })).body.rotation, 90);
    // -90 is 270; 360 is none.
    assert.equal((await edit(mum, id, { rotation: -90 })).body.rotation, 270);
    const none = await edit(mum, id, { rotation: 360 });
    assert.equal(none.body.rotation, 0);
    assert.equal(none.body.node.rotation, undefined);
  });

  test('a new date moves it in the timeline and search at once, and everyone who sees it hears node.updated; revert puts the file’s back', async () => {
    const mum = await person();
    const dad = await person();
    const id = await uploadPhoto(t, mum, 'beach.jpg', { when: '2021:08:03 10:15:00' });
    await t.server.mediaIdle();
    const album = await makeAlbum(t, mum, 'Summer', [id]);
    await invite(t, mum, album.id, dad, 'viewer');
    assert.equal(await monthOf(mum, id), '2021-08');
    const dadSocket = await EventSocket.open(t.url, dad.access);
    try {
      const when = Date.UTC(2015, 5, 14, 9, 30);
      const res = await edit(mum, id, { taken_at: when });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.taken_edited, true);
      assert.equal(res.body.node.taken_at, when);
      assert.equal(res.body.original.taken_at, Date.UTC(2021, 7, 3, 10, 15));
      assert.equal(await monthOf(mum, id), '2015-06');
      assert.deepEqual(await found(mum, '2015'), [id]);
      assert.deepEqual(await found(mum, '2021'), []);
      const told = await dadSocket.waitFor((m) => m.type === 'node.updated' && m.payload.node.id === id);
      assert.equal(told.payload.node.taken_at, when);
    } finally {
      dadSocket.close();
    }

    const back = await t.client.delete(`/photos/${id}/edits`, { token: mum.access });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assert.equal(back.body.taken_edited, false);
    assert.equal(back.body.node.taken_at, Date.UTC(2021, 7, 3, 10, 15));
    assert.equal(await monthOf(mum, id), '2021-08');
    assert.deepEqual(await found(mum, '2015'), []);
    // Reverting again is no error.
    assert.equal((await t.client.delete(`/photos/${id}/edits`, { token: mum.access })).status, 200);
  });

  test('a place by a town’s name: its position and country from the offline table, found by search; null takes it away; revert', async () => {
    const mum = await person();
    const id = await uploadPhoto(t, mum, 'tram.jpg', { when: '2019:04:02 12:00:00' });
    await t.server.mediaIdle();
    const res = await edit(mum, id, { place: { name: 'lisbon' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.place_edited, true);
    assert.equal(res.body.node.place.town, 'Lisbon');
    assert.equal(res.body.node.place.country_code, 'PT');
    assert.ok(Math.abs(res.body.node.place.latitude - 38.72) < 0.1);
    assert.deepEqual(await found(mum, 'lisbon'), [id]);
    assert.deepEqual(await found(mum, 'portugal'), [id]);
    // A position: its town from the table, or the name given with it.
    const byPosition = await edit(mum, id, { place: { latitude: 48.8584, longitude: 2.2945 } });
    assert.equal(byPosition.body.node.place.town, 'Paris');
    const named = await edit(mum, id, { place: { latitude: 48.8584, longitude: 2.2945, name: 'Eiffel Tower' } });
    assert.equal(named.body.node.place.town, 'Eiffel Tower');
    assert.deepEqual(await found(mum, 'eiffel'), [id]);
    const nowhere = await edit(mum, id, { place: null });
    assert.equal(nowhere.body.node.place, undefined);
    assert.deepEqual(await found(mum, 'paris'), []);
    const back = await t.client.delete(`/photos/${id}/edits`, { token: mum.access });
    assert.equal(back.body.place_edited, false);
    assert.equal(back.body.node.place, undefined);
  });

  test('a new version of the file is read again, and the family’s date and place stay; revert shows what the new file says', async () => {
    const mum = await person();
    const id = await uploadPhoto(t, mum, 'party.jpg', { when: '2019:04:02 12:00:00' });
    await t.server.mediaIdle();
    const when = Date.UTC(2015, 5, 14, 9, 30);
    assert.equal((await edit(mum, id, { taken_at: when, place: { name: 'Lisbon' }, rotation: 90 })).status, 200);
    await uploadFile(t.api, mum.access, await jpeg('2022:12:24 18:00:00'), { filename: 'party.jpg', nodeId: id });
    await t.server.mediaIdle();
    const node = (await t.client.get(`/nodes/${id}`, { token: mum.access })).body;
    assert.equal(node.version, 2);
    assert.equal(node.taken_at, when, 'the corrected date outlasts the re-read');
    assert.equal(node.place?.town, 'Lisbon');
    assert.equal(node.rotation, 90);
    assert.deepEqual(await found(mum, '2015'), [id]);
    assert.deepEqual(await found(mum, 'lisbon'), [id]);
    const back = await t.client.delete(`/photos/${id}/edits`, { token: mum.access });
    assert.equal(back.body.node.taken_at, Date.UTC(2022, 11, 24, 18, 0));
    assert.equal(back.body.node.place, undefined);
    assert.deepEqual(await found(mum, '2022'), [id]);
  });

  test('bad values: 400 with a code of their own, and nothing changes', async () => {
    const mum = await person();
    const id = await uploadPhoto(t, mum, 'x.jpg', { when: '2019:04:02 12:00:00' });
    await t.server.mediaIdle();
    assertError(await edit(mum, id, { rotation: 45 }), 400, 'invalid_rotation', 'rotation');
    assertError(await edit(mum, id, { rotation: 90.5 }), 400, 'invalid_rotation', 'rotation');
    assertError(await edit(mum, id, { taken_at: Date.now() + 3 * 24 * 60 * 60_000 }), 400, 'taken_in_future', 'taken_at');
    assertError(await edit(mum, id, { taken_at: Date.UTC(1700, 0, 1) }), 400, 'invalid_input', 'taken_at');
    assertError(await edit(mum, id, { taken_at: Date.UTC(2015, 0, 1), taken_offset: 20 * 60 }), 400, 'invalid_input', 'taken_offset');
    assertError(await edit(mum, id, { place: { latitude: 91, longitude: 0 } }), 400, 'place_out_of_range', 'place');
    assertError(await edit(mum, id, { place: { latitude: 10, longitude: -181 } }), 400, 'place_out_of_range', 'place');
    assertError(await edit(mum, id, { place: { latitude: 10 } }), 400, 'invalid_input', 'place');
    assertError(await edit(mum, id, { place: { name: 'Nowhereville Xq' } }), 400, 'unknown_place', 'place');
    assertError(await edit(mum, id, { rotation: 'left' }), 400, 'invalid_input', 'rotation');
    const node = (await t.client.get(`/photos/${id}/edits`, { token: mum.access })).body;
    assert.equal(node.rotation, 0);
    assert.equal(node.taken_edited, false);
    assert.equal(node.place_edited, false);
    const folder = await createFolder(t.client, mum, 'Not a photo');
    assertError(await edit(mum, folder.id, { rotation: 90 }), 400, 'not_a_photo');
  });

  test('who may: the owner and an editor; an album member 403, a stranger 404, no token 401', async () => {
    const mum = await person();
    const dad = await person();
    const gran = await person();
    const stranger = await person();
    const folder = await createFolder(t.client, mum, 'Shared photos');
    const id = await uploadFile(t.api, mum.access, await jpeg('2020:01:01 10:00:00'), { filename: 'a.jpg', parentId: folder.id });
    await t.server.mediaIdle();
    const grant = await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: dad.userId, role: 'editor' }, { token: mum.access });
    assert.ok(grant.status < 300, JSON.stringify(grant.body));
    const album = await makeAlbum(t, mum, 'Look only', [id]);
    await invite(t, mum, album.id, gran, 'contributor');

    assert.equal((await edit(dad, id, { rotation: 180 })).status, 200);
    assertError(await edit(gran, id, { rotation: 90 }), 403, 'forbidden');
    assertError(await t.client.delete(`/photos/${id}/edits`, { token: gran.access }), 403, 'forbidden');
    assert.equal((await t.client.get(`/photos/${id}/edits`, { token: gran.access })).body.rotation, 180);
    assertError(await edit(stranger, id, { rotation: 90 }), 404, 'not_found');
    assertError(await t.client.get(`/photos/${id}/edits`, { token: stranger.access }), 404, 'not_found');
    assertError(await edit(null, id, { rotation: 90 }), 401, 'unauthorized');
    assert.equal((await t.client.delete(`/photos/${id}/edits`, { token: dad.access })).status, 200);
  });
});
