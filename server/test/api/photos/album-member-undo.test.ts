import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, albumItems, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Taking someone out of an album can be undone by its owner for a while: they come back with
// their role and the photos they had added (as they were: the cover among them is the cover
// again); too late, or anyone else, is refused. The window here is 1.5 s instead of 10 minutes.

const UNDO_MS = 1500;
let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer({ albumUndoMs: UNDO_MS });
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `undo${++accounts}`);
}

/** Emma's album with Mum (contributor, two photos of hers in it, one the cover) and Dad (viewer). */
async function family() {
  const emma = await person();
  const mum = await person();
  const dad = await person();
  const emmas = await uploadPhoto(t, emma, 'emma.jpg', { when: '2020:05:01 10:00:00' });
  const album = await makeAlbum(t, emma, 'Together', [emmas]);
  await invite(t, emma, album.id, mum, 'contributor');
  await invite(t, emma, album.id, dad, 'viewer');
  const mums = [
    await uploadPhoto(t, mum, 'mum1.jpg', { when: '2019:01:01 10:00:00' }),
    await uploadPhoto(t, mum, 'mum2.jpg', { when: '2021:01:01 10:00:00' }),
  ];
  await addToAlbum(t, mum, album.id, mums);
  // Their taken times read: the album's order is by them.
  await t.server.mediaIdle();
  const cover = await t.client.patch(`/albums/${album.id}`, { cover_node_id: mums[0] }, { token: emma.access });
  assert.equal(cover.status, 200, JSON.stringify(cover.body));
  return { emma, mum, dad, album, emmas, mums };
}

const ids = async (who: SignedIn, albumId: string) => (await albumItems(t, who, albumId)).map((n) => n.id);
const remove = (who: SignedIn, albumId: string, userId: string) =>
  t.client.delete(`/albums/${albumId}/members/${userId}`, { token: who.access });
const restore = (who: SignedIn | null, albumId: string, userId: string) =>
  t.client.post(`/albums/${albumId}/members/${userId}/restore`, {}, who ? { token: who.access } : {});

describe('POST /albums/{id}/members/{userId}/restore', () => {
  test('the members list says how many photos each added: what the owner is told will leave', async () => {
    const { emma, album, mum, dad } = await family();
    const res = await t.client.get(`/albums/${album.id}/members`, { token: emma.access });
    assert.equal(res.status, 200);
    const byId = new Map(res.body.items.map((m: any) => [m.user_id, m.photos_added]));
    assert.equal(byId.get(mum.userId), 2);
    assert.equal(byId.get(dad.userId), 0);
  });

  test('removed: their photos leave for everyone; undone: they and their photos are back, in order, the cover too, and others hear it live', async () => {
    const { emma, mum, dad, album, emmas, mums } = await family();
    assert.equal((await remove(emma, album.id, mum.userId)).status, 204);
    assert.deepEqual(await ids(dad, album.id), [emmas]);
    assertError(await t.client.get(`/albums/${album.id}`, { token: mum.access }), 404, 'not_found');
    // Her files stayed hers.
    assert.equal((await t.client.get(`/nodes/${mums[0]}`, { token: mum.access })).status, 200);

    const dadSocket = await EventSocket.open(t.url, dad.access);
    const mumSocket = await EventSocket.open(t.url, mum.access);
    try {
      const res = await restore(emma, album.id, mum.userId);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.photos_restored, 2);
      assert.equal(res.body.member.user_id, mum.userId);
      assert.equal(res.body.member.role, 'contributor');
      assert.equal(res.body.member.photos_added, 2);
      // Oldest taken first, as before the removal.
      assert.deepEqual(await ids(dad, album.id), [mums[0], emmas, mums[1]]);
      assert.deepEqual(await ids(mum, album.id), [mums[0], emmas, mums[1]]);
      const seen = await t.client.get(`/albums/${album.id}`, { token: dad.access });
      assert.equal(seen.body.cover?.id, mums[0], 'the cover she had added is the cover again');
      await dadSocket.until((m) => m.type === 'album.changed' && m.payload.album_id === album.id);
      await mumSocket.until((m) => m.type === 'album.changed' && m.payload.album_id === album.id);
      // Once: it is undone, not a second time.
      assertError(await restore(emma, album.id, mum.userId), 410, 'undo_too_late');
    } finally {
      dadSocket.close();
      mumSocket.close();
    }
  });

  test('only the owner: a member 403, the one removed 404 (not in the album), a stranger 404, no token 401', async () => {
    const { emma, mum, dad, album } = await family();
    const stranger = await person();
    assert.equal((await remove(emma, album.id, mum.userId)).status, 204);
    assertError(await restore(dad, album.id, mum.userId), 403, 'forbidden');
    assertError(await restore(mum, album.id, mum.userId), 404, 'not_found');
    assertError(await restore(stranger, album.id, mum.userId), 404, 'not_found');
    assertError(await restore(null, album.id, mum.userId), 401, 'unauthorized');
    assert.equal((await restore(emma, album.id, mum.userId)).status, 200);
  });

  test('after the window: 410 undo_too_late, and they stay out', async () => {
    const { emma, mum, dad, album, emmas } = await family();
    assert.equal((await remove(emma, album.id, mum.userId)).status, 204);
    await new Promise((resolve) => setTimeout(resolve, UNDO_MS + 200));
    assertError(await restore(emma, album.id, mum.userId), 410, 'undo_too_late');
    assert.deepEqual(await ids(dad, album.id), [emmas]);
    assertError(await t.client.get(`/albums/${album.id}`, { token: mum.access }), 404, 'not_found');
  });

  test('someone who left on their own cannot be brought back: 410 undo_too_late', async () => {
    const { emma, mum, album } = await family();
    assert.equal((await remove(mum, album.id, mum.userId)).status, 204);
    assertError(await restore(emma, album.id, mum.userId), 410, 'undo_too_late');
  });

  test('a photo trashed meanwhile stays out; the rest come back', async () => {
    const { emma, mum, dad, album, emmas, mums } = await family();
    assert.equal((await remove(emma, album.id, mum.userId)).status, 204);
    assert.equal((await t.client.delete(`/nodes/${mums[0]}`, { token: mum.access })).status, 200);
    const res = await restore(emma, album.id, mum.userId);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.photos_restored, 1);
    assert.deepEqual(await ids(dad, album.id), [emmas, mums[1]]);
  });
});
