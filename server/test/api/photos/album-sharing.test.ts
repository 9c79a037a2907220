import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, albumItems, albumOf, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// Sharing an album: inviting family members as viewers or contributors, what that lets them
// reach (the album's photos, read only, and nothing else of the owner's), removing them and
// leaving, and the events that keep everyone's screens current.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `sharing${++accounts}`);
}

async function status(who: SignedIn, method: string, route: string, body?: unknown): Promise<number> {
  return (await t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) })).status;
}

/** An event everyone receives: what a socket got before it is all it was sent. */
async function sentinel(name: string): Promise<void> {
  const res = await t.client.patch('/server/settings', { server_name: name }, { token: admin.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}
const isSentinel = (name: string) => (m: EventMessage) => m.type === 'server.settings_changed' && m.payload?.settings?.server_name === name;

describe('POST /albums/{id}/members', () => {
  test('the owner shares it as viewer or contributor: 201 {user_id, name, avatar_seed, role, created_at}; again changes the role', async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'Holiday');
    const res = await t.client.post(`/albums/${album.id}/members`, { user_id: mum.userId, role: 'viewer' }, { token: emma.access });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['avatar_seed', 'created_at', 'name', 'photos_added', 'role', 'user_id']);
    assert.equal(res.body.name, mum.username);
    assert.equal(res.body.role, 'viewer');
    const changed = await invite(t, emma, album.id, mum, 'contributor');
    assert.equal(changed.role, 'contributor');
    const members = await t.client.get(`/albums/${album.id}/members`, { token: mum.access });
    assert.equal(members.status, 200);
    assert.deepEqual(members.body, { items: [changed], next_cursor: null });
    assert.equal((await albumOf(t, emma, album.id)).members, 1);
    assert.equal((await albumOf(t, mum, album.id)).role, 'contributor');
  });

  test('refusals: the owner 400 cannot_share_with_owner, no such account 400 unknown_user, a member 403, a stranger 404, no token 401', async () => {
    const emma = await person();
    const mum = await person();
    const stranger = await person();
    const album = await makeAlbum(t, emma, 'Ours');
    await invite(t, emma, album.id, mum, 'contributor');
    const post = (who: SignedIn | null, body: unknown) =>
      t.client.post(`/albums/${album.id}/members`, body, who ? { token: who.access } : {});
    assertError(await post(emma, { user_id: emma.userId, role: 'viewer' }), 400, 'cannot_share_with_owner', 'user_id');
    assertError(await post(emma, { user_id: 'nobody', role: 'viewer' }), 400, 'unknown_user', 'user_id');
    assertError(await post(emma, { user_id: mum.userId, role: 'editor' }), 400, 'invalid_input', 'role');
    assertError(await post(mum, { user_id: stranger.userId, role: 'viewer' }), 403, 'forbidden');
    assertError(await post(stranger, { user_id: stranger.userId, role: 'viewer' }), 404, 'not_found');
    assertError(await post(null, { user_id: stranger.userId, role: 'viewer' }), 401, 'unauthorized');
    assertError(await t.client.get(`/albums/${album.id}/members`), 401, 'unauthorized');
  });
});

describe('what a member reaches', () => {
  test("the album's photos, read only (thumbnail, download, URL token), and nothing else of the owner's", async () => {
    const emma = await person();
    const mum = await person();
    const folder = await createFolder(t.client, emma, 'Camera');
    const inAlbum = await uploadPhoto(t, emma, 'in.jpg', { parentId: folder.id });
    const outside = await uploadPhoto(t, emma, 'out.jpg', { parentId: folder.id });
    await t.server.mediaIdle();
    const album = await makeAlbum(t, emma, 'Some of them', [inAlbum]);
    assertError(await t.client.get(`/nodes/${inAlbum}`, { token: mum.access }), 404, 'not_found');
    await invite(t, emma, album.id, mum, 'contributor');

    assert.equal(await status(mum, 'GET', `/nodes/${inAlbum}`), 200);
    assert.equal(await status(mum, 'GET', `/nodes/${inAlbum}/thumbnail`), 200);
    assert.equal(await status(mum, 'GET', `/nodes/${inAlbum}/download`), 200);
    const token = await t.client.post(`/nodes/${inAlbum}/access-token`, undefined, { token: mum.access });
    assert.equal(token.status, 200);
    assert.equal((await fetch(`${t.api}/nodes/${inAlbum}/download?inline=1&access_token=${token.body.access_token}`)).status, 200);
    // The path above it is not Mum's to see: no folder names.
    assert.deepEqual((await t.client.get(`/nodes/${inAlbum}/path`, { token: mum.access })).body.items, []);

    // Read only, whatever the member's role.
    assertError(await t.client.patch(`/nodes/${inAlbum}`, { name: 'mine.jpg' }, { token: mum.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/nodes/${inAlbum}`, { token: mum.access }), 403, 'forbidden');
    assertError(await t.client.post(`/nodes/${inAlbum}/share`, {}, { token: mum.access }), 403, 'forbidden');
    await assert.rejects(
      uploadFile(t.api, mum.access, Buffer.from('a new version'), { filename: 'in.jpg', nodeId: inAlbum }),
      /403/,
      'no new version of it',
    );

    // Nothing else: the photo beside it, its folder, its folder's listing.
    for (const route of [`/nodes/${outside}`, `/nodes/${outside}/download`, `/nodes/${outside}/thumbnail`, `/nodes/${folder.id}`]) {
      assertError(await t.client.get(route, { token: mum.access }), 404, 'not_found');
    }
    assertError(await t.client.get(`/nodes?parent_id=${folder.id}`, { token: mum.access }), 404, 'not_found');
    assert.deepEqual((await t.client.get('/nodes?filter=gallery', { token: mum.access })).body.items, [], "Mum's own gallery is hers");
  });

  test("a disabled owner's albums are suspended for their members, and open again when re-enabled", async () => {
    const emma = await person();
    const mum = await person();
    const photo = await uploadPhoto(t, emma, 'p.jpg');
    const album = await makeAlbum(t, emma, 'Paused', [photo]);
    await invite(t, emma, album.id, mum, 'viewer');
    const setDisabled = async (disabled: boolean) =>
      assert.equal((await t.client.patch(`/admin/users/${emma.userId}`, { disabled }, { token: admin.access })).status, 200);
    await setDisabled(true);
    assertError(await t.client.get(`/albums/${album.id}`, { token: mum.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${photo}/download`, { token: mum.access }), 404, 'not_found');
    assert.deepEqual((await t.client.get('/albums?scope=shared', { token: mum.access })).body.items, []);
    await setDisabled(false);
    assert.equal((await albumOf(t, mum, album.id)).photos, 1);
  });
});

describe('DELETE /albums/{id}/members/{userId}', () => {
  test('removed: access ends at once, they hear album.deleted with access_lost, and what they added leaves with them', async () => {
    const emma = await person();
    const mum = await person();
    const dad = await person();
    const emmas = await uploadPhoto(t, emma, 'emma.jpg');
    const album = await makeAlbum(t, emma, 'Together', [emmas]);
    await invite(t, emma, album.id, mum, 'contributor');
    await invite(t, emma, album.id, dad, 'viewer');
    const mums = await uploadPhoto(t, mum, 'mum.jpg');
    await addToAlbum(t, mum, album.id, [mums]);
    assert.equal(await status(dad, 'GET', `/nodes/${mums}/download`), 200);
    // Its thumbnail made first: what follows is about the removal alone.
    await t.server.mediaIdle();

    const mumSocket = await EventSocket.open(t.url, mum.access);
    const dadSocket = await EventSocket.open(t.url, dad.access);
    try {
      assertError(await t.client.delete(`/albums/${album.id}/members/${mum.userId}`, { token: dad.access }), 403, 'forbidden');
      assertError(await t.client.delete(`/albums/${album.id}/members/${mum.userId}`), 401, 'unauthorized');
      assert.equal(await status(emma, 'DELETE', `/albums/${album.id}/members/${mum.userId}`), 204);
      assertError(await t.client.delete(`/albums/${album.id}/members/${mum.userId}`, { token: emma.access }), 404, 'not_found');

      // Mum: the album and Emma's photo are out of reach; her own photo is hers still.
      assertError(await t.client.get(`/albums/${album.id}`, { token: mum.access }), 404, 'not_found');
      assertError(await t.client.get(`/nodes/${emmas}/download`, { token: mum.access }), 404, 'not_found');
      assert.equal(await status(mum, 'GET', `/nodes/${mums}`), 200);
      // Dad and Emma: Mum's photo left with her.
      assert.deepEqual(
        (await albumItems(t, dad, album.id)).map((n) => n.id),
        [emmas],
      );
      assertError(await t.client.get(`/nodes/${mums}/download`, { token: dad.access }), 404, 'not_found');

      await sentinel('after removing Mum');
      const toMum = await mumSocket.until(isSentinel('after removing Mum'));
      assert.deepEqual(
        toMum.filter((m) => m.type.startsWith('album.')).map((m) => [m.type, m.payload]),
        [['album.deleted', { album_id: album.id, access_lost: true }]],
      );
      const toDad = await dadSocket.until(isSentinel('after removing Mum'));
      const lost = toDad.find((m) => m.type === 'node.deleted');
      assert.deepEqual(lost?.payload && [lost.payload.node.id, lost.payload.access_lost, lost.payload.permanent], [mums, true, false]);
      assert.ok(toDad.some((m) => m.type === 'album.changed' && m.payload.album_id === album.id));
    } finally {
      mumSocket.close();
      dadSocket.close();
    }
  });

  test('a member leaves by themselves (204); someone else they cannot remove (403)', async () => {
    const emma = await person();
    const mum = await person();
    const dad = await person();
    const album = await makeAlbum(t, emma, 'Leave me');
    await invite(t, emma, album.id, mum, 'viewer');
    await invite(t, emma, album.id, dad, 'viewer');
    assertError(await t.client.delete(`/albums/${album.id}/members/${dad.userId}`, { token: mum.access }), 403, 'forbidden');
    assert.equal(await status(mum, 'DELETE', `/albums/${album.id}/members/${mum.userId}`), 204);
    assert.deepEqual((await t.client.get('/albums?scope=shared', { token: mum.access })).body.items, []);
    assert.deepEqual(
      (await t.client.get(`/albums/${album.id}/members`, { token: emma.access })).body.items.map((m: any) => m.user_id),
      [dad.userId],
    );
  });
});

describe('live', () => {
  test('everyone in the album hears album.changed when someone adds, and a trashed photo reaches them as node.deleted; a trashed folder never names itself to them', async () => {
    const emma = await person();
    const mum = await person();
    const folder = await createFolder(t.client, emma, 'Private folder name');
    const inFolder = await uploadPhoto(t, emma, 'in-folder.jpg', { parentId: folder.id });
    const loose = await uploadPhoto(t, emma, 'loose.jpg');
    const album = await makeAlbum(t, emma, 'Live', [inFolder, loose]);
    const emmaSocket = await EventSocket.open(t.url, emma.access);
    const mumSocket = await EventSocket.open(t.url, mum.access);
    try {
      await invite(t, emma, album.id, mum, 'contributor');
      await mumSocket.waitFor((m) => m.type === 'album.changed' && m.payload.album_id === album.id);

      const mums = await uploadPhoto(t, mum, 'from-mum.jpg');
      await addToAlbum(t, mum, album.id, [mums]);
      await emmaSocket.waitFor((m) => m.type === 'album.changed' && m.payload.album_id === album.id);

      await sentinel('before trash');
      await mumSocket.until(isSentinel('before trash'));
      assert.equal(await status(emma, 'DELETE', `/nodes/${loose}`), 200);
      assert.equal(await status(emma, 'DELETE', `/nodes/${folder.id}`), 200);
      await sentinel('after trash');
      const heard = await mumSocket.until(isSentinel('after trash'));
      // (Mum's own photo may be announced meanwhile, its thumbnail made.)
      const deletes = heard.filter((m) => m.type === 'node.deleted').map((m) => [m.payload.node.id, m.payload.permanent]);
      assert.deepEqual(deletes, [[loose, false]]);
      assert.ok(!heard.some((m) => m.type.startsWith('node.') && m.payload.node.id === folder.id));
      assert.ok(!JSON.stringify(heard).includes('Private folder name'), 'the folder is not Mum’s to know of');
      assert.ok(heard.filter((m) => m.type === 'album.changed').length >= 2, 'both changes reach the album');
      assert.deepEqual(
        (await albumItems(t, mum, album.id)).map((n) => n.id),
        [mums],
      );
    } finally {
      emmaSocket.close();
      mumSocket.close();
    }
  });
});
