import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, albumItems, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// A photo's owner sees every album and every public link that shows it, albums someone else
// put it in included, and can take it out of any of them and say whether an album's links may
// show it: the owner alone decides who sees a photo.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `appear${++accounts}`);
}

async function ok(who: SignedIn, method: string, route: string, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Grandma's photo, in her folder shared with Emma (viewer) and on a link to that folder. Emma
 * put it in her album Family (Cousin in it, a link to it); Grandma, a contributor of Emma's
 * album Summer, put it there herself and let its links show it.
 */
async function family() {
  const [grandma, emma, cousin] = [await person(), await person(), await person()];
  const folder = await createFolder(t.client, grandma, 'Garden');
  const photo = await uploadPhoto(t, grandma, 'roses.jpg', { parentId: folder.id });
  await t.server.mediaIdle();
  await ok(grandma, 'POST', `/nodes/${folder.id}/permissions`, { user_id: emma.userId, role: 'viewer' });
  const folderLink = await ok(grandma, 'POST', `/nodes/${folder.id}/share`, { allow_download: false });
  const familyAlbum = await makeAlbum(t, emma, 'Family', [photo]);
  await invite(t, emma, familyAlbum.id, cousin, 'viewer');
  const familyLink = await ok(emma, 'POST', `/albums/${familyAlbum.id}/share`, {});
  const summer = await makeAlbum(t, emma, 'Summer');
  await invite(t, emma, summer.id, grandma, 'contributor');
  await invite(t, emma, summer.id, cousin, 'viewer');
  await ok(grandma, 'POST', `/albums/${summer.id}/items`, { node_ids: [photo], on_links: true });
  const summerLink = await ok(emma, 'POST', `/albums/${summer.id}/share`, {});
  return { grandma, emma, cousin, folder, photo, folderLink, familyAlbum, familyLink, summer, summerLink };
}

describe('GET /nodes/{id}/appearances', () => {
  test('its owner sees every album holding it, who put it there and whom it reaches, and every open link opening it', async () => {
    const { grandma, emma, folder, photo, folderLink, familyAlbum, summer } = await family();
    // A revoked link and an expired one open nothing: not listed.
    const gone = await ok(grandma, 'POST', `/nodes/${photo}/share`, {});
    await ok(grandma, 'DELETE', `/shares/${gone.id}`);
    const expired = await ok(grandma, 'POST', `/nodes/${photo}/share`, {});
    await ok(grandma, 'PATCH', `/shares/${expired.id}`, { expires_at: Date.now() - 1000 });
    const own = await ok(grandma, 'POST', `/nodes/${photo}/share`, { password: 'a long enough password' });

    const seen = await ok(grandma, 'GET', `/nodes/${photo}/appearances`);
    const emmaName = emma.username;
    assert.deepEqual(
      seen.albums.map((a: any) => [
        a.album_id,
        a.album_name,
        a.album_owner_name,
        a.added_by_name,
        a.shared_with_album,
        a.members,
        a.on_links,
        a.live_links,
      ]),
      [
        [familyAlbum.id, 'Family', emmaName, emmaName, false, 1, false, 1],
        [summer.id, 'Summer', emmaName, grandma.username, true, 2, true, 1],
      ],
    );
    assert.equal(typeof seen.albums[0].added_at, 'number');
    assert.deepEqual(
      seen.links.map((l: any) => [l.link_id, l.node_id, l.node_name, l.created_by, l.password_protected, l.allow_download, l.expires_at]),
      [
        [own.id, photo, 'roses.jpg', grandma.userId, true, true, null],
        [folderLink.id, folder.id, 'Garden', grandma.userId, false, false, null],
      ],
    );
    assert.ok(!JSON.stringify(seen).includes(folderLink.token), 'no link tokens: the list says where, the share dialog gives the address');
  });

  test('whoever else may read it gets 403, anyone else 404, no token 401', async () => {
    const { emma, cousin, photo } = await family();
    assertError(await t.client.get(`/nodes/${photo}/appearances`, { token: emma.access }), 403, 'forbidden');
    // Cousin sees it through Summer, where Grandma put it.
    assertError(await t.client.get(`/nodes/${photo}/appearances`, { token: cousin.access }), 403, 'forbidden');
    const stranger = await person();
    assertError(await t.client.get(`/nodes/${photo}/appearances`, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${photo}/appearances`), 401, 'unauthorized');
    assertError(await t.client.get('/nodes/no-such-node/appearances', { token: emma.access }), 404, 'not_found');
  });
});

describe('DELETE /nodes/{id}/appearances/{albumId}', () => {
  test('its owner takes it out of an album someone else put it in: 204, the album and its people follow at once', async () => {
    const { grandma, emma, photo, familyAlbum, summer } = await family();
    const emmaHears = await EventSocket.open(t.url, emma.access);
    try {
      assert.equal((await t.client.delete(`/nodes/${photo}/appearances/${familyAlbum.id}`, { token: grandma.access })).status, 204);
      await emmaHears.waitFor((m) => m.type === 'album.changed' && m.payload.album_id === familyAlbum.id);
    } finally {
      emmaHears.close();
    }
    assert.deepEqual(await albumItems(t, emma, familyAlbum.id), []);
    // Still where it lives, and still Emma's to look at in Grandma's folder.
    assert.equal((await t.client.get(`/nodes/${photo}`, { token: emma.access })).status, 200);
    const seen = await ok(grandma, 'GET', `/nodes/${photo}/appearances`);
    assert.deepEqual(
      seen.albums.map((a: any) => a.album_id),
      [summer.id],
    );
    // Emma may put it back: her grant is Grandma's to take away, and the album still shows it only to whom Grandma shared it with.
    await addToAlbum(t, emma, familyAlbum.id, [photo]);
  });

  test('and out of one it reaches everyone in: they lose it at once and hear so', async () => {
    const { grandma, cousin, photo, summer, summerLink } = await family();
    const cousinHears = await EventSocket.open(t.url, cousin.access);
    try {
      assert.equal((await t.client.delete(`/nodes/${photo}/appearances/${summer.id}`, { token: grandma.access })).status, 204);
      const lost = await cousinHears.waitFor((m) => m.type === 'node.deleted' && m.payload.node.id === photo);
      assert.equal(lost.payload.access_lost, true);
    } finally {
      cousinHears.close();
    }
    assertError(await t.client.get(`/nodes/${photo}/download`, { token: cousin.access }), 404, 'not_found');
    assertError(await t.client.get(`/s/${summerLink.token}/download?node_id=${photo}`), 404, 'not_found');
  });

  test('refusals: an album not holding it 404; whoever else may read it (the album’s owner too) 403, anyone else 404; no token 401', async () => {
    const { grandma, emma, cousin, photo, familyAlbum } = await family();
    const other = await makeAlbum(t, emma, 'Without it');
    assertError(await t.client.delete(`/nodes/${photo}/appearances/${other.id}`, { token: grandma.access }), 404, 'not_found');
    assertError(await t.client.delete(`/nodes/${photo}/appearances/no-such-album`, { token: grandma.access }), 404, 'not_found');
    assertError(await t.client.delete(`/nodes/${photo}/appearances/${familyAlbum.id}`, { token: emma.access }), 403, 'forbidden');
    // Cousin sees it (through Summer) and may not; a stranger does not know of it.
    assertError(await t.client.delete(`/nodes/${photo}/appearances/${familyAlbum.id}`, { token: cousin.access }), 403, 'forbidden');
    const stranger = await person();
    assertError(await t.client.delete(`/nodes/${photo}/appearances/${familyAlbum.id}`, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.delete(`/nodes/${photo}/appearances/${familyAlbum.id}`), 401, 'unauthorized');
    assert.equal((await albumItems(t, emma, familyAlbum.id)).length, 1, 'nothing was taken out');
  });
});

describe('PATCH /nodes/{id}/appearances/{albumId}', () => {
  test('its owner withdraws the yes she gave an album’s links, and may give it again', async () => {
    const { grandma, photo, summer, summerLink } = await family();
    assert.equal((await t.client.get(`/s/${summerLink.token}/download?node_id=${photo}`)).status, 200);
    const off = await ok(grandma, 'PATCH', `/nodes/${photo}/appearances/${summer.id}`, { on_links: false });
    assert.deepEqual([off.album_id, off.on_links, off.shared_with_album], [summer.id, false, true]);
    assertError(await t.client.get(`/s/${summerLink.token}/download?node_id=${photo}`), 404, 'not_found');
    assertError(await t.client.get(`/s/${summerLink.token}/thumbnail?node_id=${photo}`), 404, 'not_found');
    const on = await ok(grandma, 'PATCH', `/nodes/${photo}/appearances/${summer.id}`, { on_links: true });
    assert.equal(on.on_links, true);
    assert.equal((await t.client.get(`/s/${summerLink.token}/thumbnail?node_id=${photo}`)).status, 200);
  });

  test('where someone else put it, a yes is 409 album_item_not_yours (it reaches no link); a no changes nothing', async () => {
    const { grandma, photo, familyAlbum, familyLink } = await family();
    assertError(
      await t.client.patch(`/nodes/${photo}/appearances/${familyAlbum.id}`, { on_links: true }, { token: grandma.access }),
      409,
      'album_item_not_yours',
      'on_links',
    );
    const no = await ok(grandma, 'PATCH', `/nodes/${photo}/appearances/${familyAlbum.id}`, { on_links: false });
    assert.deepEqual([no.on_links, no.shared_with_album], [false, false]);
    assertError(await t.client.get(`/s/${familyLink.token}/download?node_id=${photo}`), 404, 'not_found');
  });

  test('bad input 400 invalid_input on on_links; someone else 403; no token 401', async () => {
    const { grandma, emma, photo, summer } = await family();
    const patch = (who: SignedIn | null, body: unknown) =>
      t.client.patch(`/nodes/${photo}/appearances/${summer.id}`, body, who ? { token: who.access } : {});
    assertError(await patch(grandma, { on_links: 'no' }), 400, 'invalid_input', 'on_links');
    assertError(await patch(grandma, {}), 400, 'missing_field', 'on_links');
    assertError(await patch(emma, { on_links: false }), 403, 'forbidden');
    assertError(await patch(null, { on_links: false }), 401, 'unauthorized');
  });
});
