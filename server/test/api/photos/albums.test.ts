import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, albumItems, albumOf, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// Albums: made from a selection, named, given a cover, deleted; what they hold (photos and
// videos by reference, in time order, only while they are shown), and who may change what.

let t: TestServer;
let owner: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, owner, `albums${++accounts}`);
}

async function usedBytes(who: SignedIn): Promise<number> {
  return (await t.client.get('/me', { token: who.access })).body.quota.used;
}

describe('POST /albums', () => {
  test('makes an album from a selection: 201 with its counts, dates, cover and the caller as owner', async () => {
    const emma = await person();
    const older = await uploadPhoto(t, emma, 'beach.jpg', { when: '2024:08:03 10:00:00' });
    const newer = await uploadPhoto(t, emma, 'dinner.jpg', { when: '2024:08:05 20:00:00' });
    const clip = await uploadFile(t.api, emma.access, await mediaFixture('clip.mp4'), { filename: 'clip.mp4' });
    await t.server.mediaIdle();
    const before = Date.now();
    const album = await makeAlbum(t, emma, '  Holiday 2024 ', [older, newer, clip, newer]);
    assert.deepEqual(Object.keys(album).sort(), [
      'cover',
      'created_at',
      'first_taken_at',
      'id',
      'last_taken_at',
      'live_links',
      'members',
      'name',
      'owner_id',
      'owner_name',
      'photos',
      'role',
      'updated_at',
      'videos',
    ]);
    assert.equal(album.name, 'Holiday 2024');
    assert.equal(album.owner_id, emma.userId);
    assert.equal(album.owner_name, emma.username);
    assert.equal(album.role, 'owner');
    assert.equal(album.photos, 2);
    assert.equal(album.videos, 1);
    assert.equal(album.members, 0);
    assert.ok(album.created_at >= before - 1000 && album.created_at <= Date.now());
    // The clip was made in January 2020: the album's dates run from it to the dinner.
    const clipNode = (await t.client.get(`/nodes/${clip}`, { token: emma.access })).body;
    assert.equal(new Date(clipNode.taken_at).toISOString().slice(0, 7), '2020-01');
    assert.equal(album.first_taken_at, clipNode.taken_at);
    assert.equal(album.last_taken_at, Date.UTC(2024, 7, 5, 20));
    // Without a chosen cover: the newest photo with a picture.
    assert.equal(album.cover.id, newer);
    assert.equal(album.cover.has_thumbnail, true);
    assert.equal(typeof album.cover.version, 'number');
    assert.deepEqual(await albumOf(t, emma, album.id), album);
  });

  test('an empty album has no cover and no dates', async () => {
    const emma = await person();
    const album = await makeAlbum(t, emma, 'Later');
    assert.equal(album.cover, null);
    assert.equal(album.first_taken_at, null);
    assert.equal(album.last_taken_at, null);
    assert.equal(album.photos + album.videos, 0);
  });

  test('without a token: 401', async () => {
    assertError(await t.client.post('/albums', { name: 'x' }), 401, 'unauthorized');
  });

  test('a name that is empty, too long or could spoof: 400 invalid_album_name on name', async () => {
    const emma = await person();
    for (const name of ['', '   ', 'a'.repeat(101), 'Holiday\u202Egpj']) {
      assertError(await t.client.post('/albums', { name }, { token: emma.access }), 400, 'invalid_album_name', 'name');
    }
    // A hundred letters (some of them two bytes) and a slash are fine: an album is not a folder.
    assert.equal((await makeAlbum(t, emma, `${'é'.repeat(99)}/`)).name, `${'é'.repeat(99)}/`);
    assertError(await t.client.post('/albums', { node_ids: [] }, { token: emma.access }), 400, 'missing_field', 'name');
  });

  test('what cannot go in refuses the whole selection: not media 400, in the trash 409, not readable 404, over 1,000 400', async () => {
    const emma = await person();
    const stranger = await person();
    const photo = await uploadPhoto(t, emma, 'ok.jpg');
    const note = await uploadFile(t.api, emma.access, Buffer.from('a note'), { filename: 'note.txt' });
    const folder = await createFolder(t.client, emma, 'A folder');
    const trashed = await uploadPhoto(t, emma, 'gone.jpg');
    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: emma.access })).status, 200);
    const theirs = await uploadPhoto(t, stranger, 'theirs.jpg');
    const post = (ids: string[]) => t.client.post('/albums', { name: 'Refused', node_ids: ids }, { token: emma.access });
    assertError(await post([photo, note]), 400, 'not_media', 'node_ids');
    assertError(await post([photo, folder.id]), 400, 'not_media', 'node_ids');
    assertError(await post([photo, trashed]), 409, 'in_trash', 'node_ids');
    assertError(await post([photo, theirs]), 404, 'not_found');
    assertError(await post([photo, 'no-such-node']), 404, 'not_found');
    assertError(await post(Array.from({ length: 1001 }, (_, i) => `n${i}`)), 400, 'invalid_input', 'node_ids');
    const mine = await t.client.get('/albums', { token: emma.access });
    assert.deepEqual(mine.body.items, [], 'nothing was made by a refused request');
  });

  test('an Idempotency-Key makes one album, however often it is sent', async () => {
    const emma = await person();
    const headers = { 'Idempotency-Key': 'make-once' };
    const first = await t.client.request('POST', '/albums', { token: emma.access, body: { name: 'Once' }, headers });
    const again = await t.client.request('POST', '/albums', { token: emma.access, body: { name: 'Once' }, headers });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('Idempotent-Replayed'), 'true');
    assert.equal(again.body.id, first.body.id);
    assert.equal((await t.client.get('/albums', { token: emma.access })).body.items.length, 1);
  });
});

describe('GET /albums', () => {
  test('mine, shared with me and those I may add to, most recently changed first, paged by cursor', async () => {
    const emma = await person();
    const mum = await person();
    const names = ['One', 'Two', 'Three', 'Four', 'Five'];
    const made = [];
    for (const name of names) made.push(await makeAlbum(t, emma, name));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.client.get(`/albums?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: emma.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.ok(res.body.items.length <= 2);
      seen.push(...res.body.items.map((a: any) => a.name));
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(seen, [...names].reverse());

    const photo = await uploadPhoto(t, emma, 'p.jpg');
    await addToAlbum(t, emma, made[1].id, [photo]);
    const list = async (who: SignedIn, query: string) =>
      (await t.client.get(`/albums${query}`, { token: who.access })).body.items.map((a: any) => a.name);
    // Adding to "Two" made it the most recently changed.
    assert.deepEqual((await list(emma, '?scope=mine')).slice(0, 2), ['Two', 'Five']);

    await invite(t, emma, made[0].id, mum, 'viewer');
    await invite(t, emma, made[2].id, mum, 'contributor');
    const theirs = await makeAlbum(t, mum, 'Mum’s own');
    assert.deepEqual(await list(mum, '?scope=shared'), ['Three', 'One']);
    assert.deepEqual(await list(mum, '?scope=mine'), ['Mum’s own']);
    assert.deepEqual(await list(mum, '?scope=contribute'), ['Mum’s own', 'Three']);
    const shared = (await t.client.get('/albums?scope=shared', { token: mum.access })).body.items;
    assert.deepEqual(
      shared.map((a: any) => [a.name, a.role, a.owner_name]),
      [
        ['Three', 'contributor', emma.username],
        ['One', 'viewer', emma.username],
      ],
    );
    assert.equal(theirs.role, 'owner');
  });

  test('without a scope (and with scope=all) it lists the caller’s own albums and those shared with it, as docs/api.md says', async () => {
    const emma = await person();
    const mum = await person();
    const stranger = await person();
    const hers = await makeAlbum(t, emma, 'Emma’s');
    await invite(t, emma, hers.id, mum, 'viewer');
    await makeAlbum(t, mum, 'Mum’s');
    await makeAlbum(t, stranger, 'Not for Mum');
    const list = async (query: string) =>
      (await t.client.get(`/albums${query}`, { token: mum.access })).body.items.map((a: any) => [a.name, a.role]);
    const both = [
      ['Mum’s', 'owner'],
      ['Emma’s', 'viewer'],
    ];
    assert.deepEqual(await list(''), both);
    assert.deepEqual(await list('?scope=all'), both);
    const first = await t.client.get('/albums?limit=1', { token: mum.access });
    const second = await t.client.get(`/albums?limit=1&cursor=${first.body.next_cursor}`, { token: mum.access });
    assert.deepEqual(
      [...first.body.items, ...second.body.items].map((a: any) => a.name),
      ['Mum’s', 'Emma’s'],
    );
    assert.equal(second.body.next_cursor, null);
  });

  test('without a token 401; a cursor it did not give 400 invalid_cursor; an unknown scope 400', async () => {
    const emma = await person();
    assertError(await t.client.get('/albums'), 401, 'unauthorized');
    assertError(await t.client.get('/albums?cursor=bm90LWEtY3Vyc29y', { token: emma.access }), 400, 'invalid_cursor', 'cursor');
    assertError(await t.client.get('/albums?scope=everyone', { token: emma.access }), 400, 'invalid_input', 'scope');
  });
});

describe('GET /albums/{id}', () => {
  test("someone else's album is not there for the caller (404), and without a token 401", async () => {
    const emma = await person();
    const stranger = await person();
    const album = await makeAlbum(t, emma, 'Private');
    assertError(await t.client.get(`/albums/${album.id}`, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.get(`/albums/${album.id}/items`, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.get(`/albums/${album.id}/members`, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.get(`/albums/${album.id}`), 401, 'unauthorized');
    assertError(await t.client.get('/albums/nothing-here', { token: emma.access }), 404, 'not_found');
  });
});

describe('PATCH /albums/{id}', () => {
  test('the owner renames it and chooses its cover among its photos; null goes back to the newest', async () => {
    const emma = await person();
    const first = await uploadPhoto(t, emma, 'first.jpg', { when: '2023:01:01 00:00:00' });
    const last = await uploadPhoto(t, emma, 'last.jpg', { when: '2023:12:31 00:00:00' });
    const elsewhere = await uploadPhoto(t, emma, 'elsewhere.jpg');
    await t.server.mediaIdle();
    const album = await makeAlbum(t, emma, 'Year', [first, last]);
    assert.equal(album.cover.id, last);
    const renamed = await t.client.patch(`/albums/${album.id}`, { name: 'The year', cover_node_id: first }, { token: emma.access });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.name, 'The year');
    assert.equal(renamed.body.cover.id, first);
    assert.ok(renamed.body.updated_at >= album.updated_at);
    assertError(
      await t.client.patch(`/albums/${album.id}`, { cover_node_id: elsewhere }, { token: emma.access }),
      400,
      'invalid_input',
      'cover_node_id',
    );
    assertError(await t.client.patch(`/albums/${album.id}`, { name: '' }, { token: emma.access }), 400, 'invalid_album_name', 'name');
    // The chosen cover moved to the trash: the newest photo stands in, and comes back with it.
    assert.equal((await t.client.delete(`/nodes/${first}`, { token: emma.access })).status, 200);
    assert.equal((await albumOf(t, emma, album.id)).cover.id, last);
    assert.equal((await t.client.post(`/nodes/${first}/restore`, undefined, { token: emma.access })).status, 200);
    assert.equal((await albumOf(t, emma, album.id)).cover.id, first);
    const back = await t.client.patch(`/albums/${album.id}`, { cover_node_id: null }, { token: emma.access });
    assert.equal(back.body.cover.id, last);
  });

  test('a member may not rename it (403), a stranger does not find it (404), no token 401', async () => {
    const emma = await person();
    const mum = await person();
    const stranger = await person();
    const album = await makeAlbum(t, emma, 'Ours');
    await invite(t, emma, album.id, mum, 'contributor');
    assertError(await t.client.patch(`/albums/${album.id}`, { name: 'Mine now' }, { token: mum.access }), 403, 'forbidden');
    assertError(await t.client.patch(`/albums/${album.id}`, { name: 'Mine now' }, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.patch(`/albums/${album.id}`, { name: 'Mine now' }), 401, 'unauthorized');
    assert.equal((await albumOf(t, emma, album.id)).name, 'Ours');
  });
});

describe('DELETE /albums/{id}', () => {
  test('the owner deletes it: 204, its photos stay, and everyone in it hears album.deleted', async () => {
    const emma = await person();
    const mum = await person();
    const photo = await uploadPhoto(t, emma, 'keep.jpg');
    const album = await makeAlbum(t, emma, 'Short lived', [photo]);
    await invite(t, emma, album.id, mum, 'viewer');
    const socket = await EventSocket.open(t.url, mum.access);
    try {
      assertError(await t.client.delete(`/albums/${album.id}`, { token: mum.access }), 403, 'forbidden');
      assertError(await t.client.delete(`/albums/${album.id}`), 401, 'unauthorized');
      const res = await t.client.delete(`/albums/${album.id}`, { token: emma.access });
      assert.equal(res.status, 204);
      const gone = await socket.waitFor((m) => m.type === 'album.deleted');
      assert.deepEqual(gone.payload, { album_id: album.id });
    } finally {
      socket.close();
    }
    assertError(await t.client.get(`/albums/${album.id}`, { token: emma.access }), 404, 'not_found');
    assertError(await t.client.delete(`/albums/${album.id}`, { token: emma.access }), 404, 'not_found');
    assert.equal((await t.client.get(`/nodes/${photo}`, { token: emma.access })).status, 200);
    // What Mum saw only through the album is out of her reach.
    assertError(await t.client.get(`/nodes/${photo}`, { token: mum.access }), 404, 'not_found');
  });
});

describe('GET /albums/{id}/items', () => {
  test('the photos and videos in time order, oldest taken first, paged by cursor, each with who added it', async () => {
    const emma = await person();
    const times = ['2022:06:03 12:00:00', '2019:01:01 08:00:00', '2022:06:01 09:30:00', '2021:12:25 18:00:00', '2020:02:29 00:00:00'];
    const ids: string[] = [];
    for (const [i, when] of times.entries()) ids.push(await uploadPhoto(t, emma, `p${i}.jpg`, { when }));
    await t.server.mediaIdle();
    const album = await makeAlbum(t, emma, 'Through the years', ids);
    const pages: number[] = [];
    const items: any[] = [];
    let cursor: string | null = null;
    do {
      const res: any = await t.client.get(`/albums/${album.id}/items?limit=2${cursor ? `&cursor=${cursor}` : ''}`, { token: emma.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      pages.push(res.body.items.length);
      items.push(...res.body.items);
      cursor = res.body.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(pages, [2, 2, 1]);
    assert.deepEqual(
      items.map((n) => n.name),
      ['p1.jpg', 'p4.jpg', 'p3.jpg', 'p2.jpg', 'p0.jpg'],
    );
    for (const item of items) {
      assert.equal(item.added_by, emma.userId);
      assert.equal(item.type, 'file');
      assert.equal(item.shared, false);
      assert.equal(typeof item.taken_at, 'number');
    }
    assertError(await t.client.get(`/albums/${album.id}/items?cursor=%5B1%5D`, { token: emma.access }), 400, 'invalid_cursor', 'cursor');
    assertError(await t.client.get(`/albums/${album.id}/items`), 401, 'unauthorized');
  });
});

describe('POST /albums/{id}/items', () => {
  test('the same photo goes into several albums without a copy: the same node, and no more space used', async () => {
    const emma = await person();
    const photo = await uploadPhoto(t, emma, 'both.jpg');
    const used = await usedBytes(emma);
    const a = await makeAlbum(t, emma, 'A');
    const b = await makeAlbum(t, emma, 'B');
    const added = await addToAlbum(t, emma, a.id, [photo]);
    assert.deepEqual(
      { added: added.added, already_there: added.already_there, photos: added.album.photos },
      { added: 1, already_there: 0, photos: 1 },
    );
    await addToAlbum(t, emma, b.id, [photo]);
    const again = await addToAlbum(t, emma, a.id, [photo, photo]);
    assert.deepEqual([again.added, again.already_there, again.album.photos], [0, 1, 1]);
    assert.deepEqual(
      (await albumItems(t, emma, a.id)).map((n) => n.id),
      [photo],
    );
    assert.deepEqual(
      (await albumItems(t, emma, b.id)).map((n) => n.id),
      [photo],
    );
    assert.equal(await usedBytes(emma), used);
    const root = await t.client.get('/nodes?limit=1000', { token: emma.access });
    assert.equal(root.body.items.filter((n: any) => n.name.startsWith('both')).length, 1);
  });

  test('viewers cannot add (403 album_viewer); contributors add their own only; a stranger finds no album (404)', async () => {
    const emma = await person();
    const mum = await person();
    const dad = await person();
    const stranger = await person();
    const album = await makeAlbum(t, emma, 'Family');
    await invite(t, emma, album.id, mum, 'contributor');
    await invite(t, emma, album.id, dad, 'viewer');
    const dads = await uploadPhoto(t, dad, 'dad.jpg');
    const mums = await uploadPhoto(t, mum, 'mum.jpg');
    const emmas = await uploadPhoto(t, emma, 'emma.jpg');
    assertError(await t.client.post(`/albums/${album.id}/items`, { node_ids: [dads] }, { token: dad.access }), 403, 'album_viewer');
    assertError(await t.client.post(`/albums/${album.id}/items`, { node_ids: [mums] }, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.post(`/albums/${album.id}/items`, { node_ids: [mums] }), 401, 'unauthorized');
    assertError(await t.client.post(`/albums/${album.id}/items`, {}, { token: mum.access }), 400, 'missing_field', 'node_ids');
    // Emma's photo is not Mum's to add, even where Mum may see it.
    const shared = await createFolder(t.client, emma, 'Shared with Mum');
    const inShared = await uploadPhoto(t, emma, 'in-shared.jpg', { parentId: shared.id });
    assert.equal(
      (await t.client.post(`/nodes/${shared.id}/permissions`, { user_id: mum.userId, role: 'viewer' }, { token: emma.access })).status,
      201,
    );
    assertError(
      await t.client.post(`/albums/${album.id}/items`, { node_ids: [inShared] }, { token: mum.access }),
      403,
      'forbidden',
      'node_ids',
    );
    assertError(await t.client.post(`/albums/${album.id}/items`, { node_ids: [emmas] }, { token: mum.access }), 404, 'not_found');
    const ok = await addToAlbum(t, mum, album.id, [mums]);
    assert.equal(ok.added, 1);
    assert.equal(ok.album.role, 'contributor');
    assert.deepEqual(
      (await albumItems(t, dad, album.id)).map((n) => [n.name, n.added_by, n.shared]),
      [['mum.jpg', mum.userId, true]],
    );
  });

  test('what the caller sees only through an album cannot be passed on to another album (404)', async () => {
    const emma = await person();
    const mum = await person();
    const shared = await makeAlbum(t, emma, 'Shared');
    await invite(t, emma, shared.id, mum, 'contributor');
    const mums = await uploadPhoto(t, mum, 'mums-only.jpg');
    await addToAlbum(t, mum, shared.id, [mums]);
    assert.equal((await t.client.get(`/nodes/${mums}`, { token: emma.access })).status, 200, 'Emma sees it in the album');
    const hers = await makeAlbum(t, emma, 'Emma only');
    assertError(await t.client.post(`/albums/${hers.id}/items`, { node_ids: [mums] }, { token: emma.access }), 404, 'not_found');
    assertError(await t.client.post('/albums', { name: 'Sneaky', node_ids: [mums] }, { token: emma.access }), 404, 'not_found');
  });

  test('the owner adds what was shared with them, which reaches only those its owner shared it with; when that share is revoked it leaves the album for everyone', async () => {
    const emma = await person();
    const dad = await person();
    const mum = await person();
    const dadsFolder = await createFolder(t.client, dad, 'Dad’s camera');
    const dads = await uploadPhoto(t, dad, 'dads.jpg', { parentId: dadsFolder.id });
    assert.equal(
      (await t.client.post(`/nodes/${dadsFolder.id}/permissions`, { user_id: emma.userId, role: 'viewer' }, { token: dad.access })).status,
      201,
    );
    const album = await makeAlbum(t, emma, 'With Dad’s');
    const added = await addToAlbum(t, emma, album.id, [dads]);
    assert.equal(added.not_shared_with_album, 1);
    await invite(t, emma, album.id, mum, 'viewer');
    assert.deepEqual(
      (await albumItems(t, emma, album.id)).map((n) => [n.id, n.shared_with_album, n.on_links]),
      [[dads, false, false]],
    );
    // Dad never shared it with Mum: the album does not either.
    assert.deepEqual(await albumItems(t, mum, album.id), []);
    assert.equal((await albumOf(t, mum, album.id)).photos, 0);
    assert.equal((await albumOf(t, mum, album.id)).cover, null);
    assertError(await t.client.get(`/nodes/${dads}/download`, { token: mum.access }), 404, 'not_found');
    // Once he does, she sees it there too.
    assert.equal(
      (await t.client.post(`/nodes/${dads}/permissions`, { user_id: mum.userId, role: 'viewer' }, { token: dad.access })).status,
      201,
    );
    assert.deepEqual(
      (await albumItems(t, mum, album.id)).map((n) => n.id),
      [dads],
    );
    assert.equal((await t.client.delete(`/nodes/${dads}/permissions/${mum.userId}`, { token: dad.access })).status, 204);

    const emmaHears = await EventSocket.open(t.url, emma.access);
    try {
      assert.equal((await t.client.delete(`/nodes/${dadsFolder.id}/permissions/${emma.userId}`, { token: dad.access })).status, 204);
      // At once, and said: Emma lost the folder, and the album changed.
      const lost = await emmaHears.waitFor((m) => m.type === 'node.deleted' && m.payload.node.id === dadsFolder.id);
      assert.equal(lost.payload.access_lost, true);
      await emmaHears.waitFor((m) => m.type === 'album.changed' && m.payload.album_id === album.id);
    } finally {
      emmaHears.close();
    }
    assert.deepEqual(await albumItems(t, emma, album.id), []);
    assert.equal((await albumOf(t, emma, album.id)).photos, 0);
  });
});

describe('POST /albums/{id}/items/remove', () => {
  test('contributors take out only what they added (403 not_your_album_item); the owner takes out anything; photos stay where they live', async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'Shared');
    await invite(t, emma, album.id, mum, 'contributor');
    const emmas = await uploadPhoto(t, emma, 'e.jpg');
    const mums = await uploadPhoto(t, mum, 'm.jpg');
    const mums2 = await uploadPhoto(t, mum, 'm2.jpg');
    await addToAlbum(t, emma, album.id, [emmas]);
    await addToAlbum(t, mum, album.id, [mums, mums2]);
    const remove = (who: SignedIn | null, ids: string[]) =>
      t.client.post(`/albums/${album.id}/items/remove`, { node_ids: ids }, who ? { token: who.access } : {});
    assertError(await remove(mum, [mums, emmas]), 403, 'not_your_album_item', 'node_ids');
    assert.equal((await albumItems(t, emma, album.id)).length, 3, 'all or nothing');
    assertError(await remove(null, [mums]), 401, 'unauthorized');
    const res = await remove(mum, [mums, 'not-in-it']);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.photos, 2);
    const owners = await remove(emma, [mums2]);
    assert.equal(owners.body.photos, 1);
    assert.deepEqual(
      (await albumItems(t, mum, album.id)).map((n) => n.id),
      [emmas],
    );
    assert.equal((await t.client.get(`/nodes/${mums}`, { token: mum.access })).status, 200);
    assert.equal((await t.client.get(`/nodes/${mums2}`, { token: mum.access })).status, 200);
    // Emma no longer reaches Mum's photos that left the album.
    assertError(await t.client.get(`/nodes/${mums}/download`, { token: emma.access }), 404, 'not_found');
  });
});

describe('a photo moved to the trash', () => {
  test('leaves every album for everyone, with its counts, and comes back when restored', async () => {
    const emma = await person();
    const mum = await person();
    const folder = await createFolder(t.client, emma, 'Trip');
    const a = await uploadPhoto(t, emma, 'a.jpg', { parentId: folder.id });
    const b = await uploadPhoto(t, emma, 'b.jpg', { parentId: folder.id });
    const album = await makeAlbum(t, emma, 'Trip', [a, b]);
    await invite(t, emma, album.id, mum, 'viewer');
    assert.equal((await t.client.delete(`/nodes/${a}`, { token: emma.access })).status, 200);
    assert.deepEqual(
      (await albumItems(t, mum, album.id)).map((n) => n.id),
      [b],
    );
    assert.equal((await albumOf(t, mum, album.id)).photos, 1);
    assertError(await t.client.get(`/nodes/${a}/download`, { token: mum.access }), 404, 'not_found');
    // The folder holding the other one, trashed: the album is empty for everyone.
    assert.equal((await t.client.delete(`/nodes/${folder.id}`, { token: emma.access })).status, 200);
    assert.deepEqual(await albumItems(t, emma, album.id), []);
    assert.deepEqual(await albumItems(t, mum, album.id), []);
    assert.equal((await t.client.post(`/nodes/${folder.id}/restore`, undefined, { token: emma.access })).status, 200);
    assert.equal((await t.client.post(`/nodes/${a}/restore`, undefined, { token: emma.access })).status, 200);
    assert.deepEqual((await albumItems(t, mum, album.id)).map((n) => n.id).sort(), [a, b].sort());
    // Deleted for good: gone from the album, rows and all.
    assert.equal((await t.client.delete(`/nodes/${b}/permanent`, { token: emma.access })).status, 204);
    assert.deepEqual(
      (await albumItems(t, mum, album.id)).map((n) => n.id),
      [a],
    );
  });
});
