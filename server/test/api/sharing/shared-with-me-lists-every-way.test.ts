import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// GET /shared-with-me: the Shared page's one list of every way something reaches an account
// (files and folders shared in Share, albums it is in, partners whose photos it sees), newest
// first by when each was shared with it, each with who shared it; only what it may open now.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `sharer${++accounts}`);
}

async function sharedWith(who: SignedIn, query = ''): Promise<any> {
  const res = await t.client.get(`/shared-with-me${query}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function folder(who: SignedIn, name: string): Promise<string> {
  const res = await t.client.post('/nodes/folder', { name }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

async function grant(owner: SignedIn, nodeId: string, to: SignedIn): Promise<void> {
  const res = await t.client.post(`/nodes/${nodeId}/permissions`, { user_id: to.userId, role: 'viewer' }, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

async function partner(owner: SignedIn, to: SignedIn): Promise<void> {
  const res = await t.client.post('/partner-shares', { user_id: to.userId }, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

describe('GET /shared-with-me', () => {
  test('lists partner photos, an album and a folder someone shared, newest first, each with who shared it and what it is', async () => {
    const [dad, mum] = [await person(), await person()];
    const photo = await uploadPhoto(t, dad, 'beach.jpg');
    await partner(dad, mum);
    await sleep(5);
    const album = await makeAlbum(t, dad, 'Holiday', [photo]);
    await invite(t, dad, album.id, mum, 'contributor');
    await sleep(5);
    const recipes = await folder(dad, 'Recipes');
    await grant(dad, recipes, mum);

    const page = await sharedWith(mum);
    assert.deepEqual(
      page.items.map((i: any) => [i.kind, i.name, i.shared_by.id, i.role]),
      [
        ['folder', 'Recipes', dad.userId, 'viewer'],
        ['album', 'Holiday', dad.userId, 'contributor'],
        ['partner', dad.username, dad.userId, 'viewer'],
      ],
    );
    const [sharedFolder, sharedAlbum, sharedPartner] = page.items;
    assert.equal(sharedFolder.node.id, recipes);
    assert.equal(sharedFolder.node.shared, true);
    assert.equal(sharedAlbum.album.id, album.id);
    assert.equal(sharedAlbum.album.photos, 1);
    assert.equal(sharedPartner.id, dad.userId);
    assert.equal(sharedPartner.since, null);
    assert.ok(sharedFolder.shared_at >= sharedAlbum.shared_at && sharedAlbum.shared_at >= sharedPartner.shared_at);
    assert.equal(page.next_cursor, null);

    // The sharer's own list holds none of it: nothing is shared with him.
    assert.deepEqual((await sharedWith(dad)).items, []);
  });

  test('pages with a cursor, and never lists what the caller cannot open: a trashed folder, an album it left, a stopped partner share, a disabled account', async () => {
    const [gran, tom, ann] = [await person(), await person(), await person()];
    const kept = await folder(gran, 'Letters');
    await grant(gran, kept, tom);
    await sleep(5);
    const trashed = await folder(gran, 'Old');
    await grant(gran, trashed, tom);
    await sleep(5);
    const album = await makeAlbum(t, gran, 'Garden');
    await invite(t, gran, album.id, tom, 'viewer');
    await sleep(5);
    await partner(gran, tom);
    await sleep(5);
    await partner(ann, tom);

    const first = await sharedWith(tom, '?limit=2');
    assert.equal(first.items.length, 2);
    assert.ok(first.next_cursor);
    const rest = await sharedWith(tom, `?limit=2&cursor=${first.next_cursor}`);
    const rest2 = rest.next_cursor ? await sharedWith(tom, `?limit=2&cursor=${rest.next_cursor}`) : { items: [] };
    assert.deepEqual(
      [...first.items, ...rest.items, ...rest2.items].map((i: any) => i.name),
      [ann.username, gran.username, 'Garden', 'Old', 'Letters'],
    );

    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: gran.access })).status, 200);
    assert.equal((await t.client.delete(`/albums/${album.id}/members/${tom.userId}`, { token: tom.access })).status, 204);
    assert.equal((await t.client.delete(`/partner-shares/${tom.userId}`, { token: ann.access })).status, 204);
    assert.deepEqual(
      (await sharedWith(tom)).items.map((i: any) => i.name),
      [gran.username, 'Letters'],
    );

    assert.equal((await t.client.patch(`/admin/users/${gran.userId}`, { disabled: true }, { token: admin.access })).status, 200);
    assert.deepEqual((await sharedWith(tom)).items, []);
  });

  test('401 without a session; 400 invalid_cursor for a cursor it never gave', async () => {
    assertError(await t.client.get('/shared-with-me'), 401, 'unauthorized');
    const someone = await person();
    assertError(await t.client.get('/shared-with-me?cursor=bm9wZQ', { token: someone.access }), 400, 'invalid_cursor', 'cursor');
  });
});
