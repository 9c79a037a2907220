import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, albumItems, albumOf, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// A photo reaches the people of an album only when its owner put it there: one its owner only
// let the album's owner look at (a grant) reaches no member who could not see it otherwise, by
// any road: the album's items, counts and cover, the photo's own routes, a zip, Everyone's
// timeline, Starred, or the events about it.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `members${++accounts}`);
}

/** An event everyone receives: what a socket got before it is all it was sent. */
async function sentinel(name: string): Promise<void> {
  const res = await t.client.patch('/server/settings', { server_name: name }, { token: admin.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}
const isSentinel = (name: string) => (m: EventMessage) => m.type === 'server.settings_changed' && m.payload?.settings?.server_name === name;

/**
 * Grandma lets Emma look at her folder; Emma's album holds one of her own photos and Grandma's,
 * Grandma's chosen as its cover, and Emma shares it with Cousin.
 */
async function family() {
  const [grandma, emma, cousin] = [await person(), await person(), await person()];
  const folder = await createFolder(t.client, grandma, 'For Emma');
  const grandmas = await uploadPhoto(t, grandma, 'grandmas.jpg', { when: '2024:06:02 10:00:00', parentId: folder.id });
  const emmas = await uploadPhoto(t, emma, 'emmas.jpg', { when: '2024:06:01 10:00:00' });
  await t.server.mediaIdle();
  const grant = await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: emma.userId, role: 'viewer' }, { token: grandma.access });
  assert.equal(grant.status, 201);
  const album = await makeAlbum(t, emma, 'June', [emmas, grandmas]);
  const cover = await t.client.patch(`/albums/${album.id}`, { cover_node_id: grandmas }, { token: emma.access });
  assert.equal(cover.status, 200, JSON.stringify(cover.body));
  await invite(t, emma, album.id, cousin, 'contributor');
  return { grandma, emma, cousin, folder, album, grandmas, emmas };
}

describe('a photo its owner did not put in the album', () => {
  test('the member sees the album without it: items, counts, dates and cover are of what she may see', async () => {
    const { emma, cousin, album, grandmas, emmas } = await family();
    assert.deepEqual(
      (await albumItems(t, cousin, album.id)).map((n) => n.id),
      [emmas],
    );
    const hers = await albumOf(t, cousin, album.id);
    assert.equal(hers.photos, 1);
    assert.equal(hers.cover.id, emmas, 'the chosen cover is not hers to see: the newest she may see instead');
    assert.equal(hers.last_taken_at, Date.UTC(2024, 5, 1, 10));
    const listed = (await t.client.get('/albums?scope=shared', { token: cousin.access })).body.items[0];
    assert.deepEqual([listed.photos, listed.cover.id], [1, emmas]);
    // Emma, who may look at it, sees both and her chosen cover.
    const emmasView = await albumOf(t, emma, album.id);
    assert.deepEqual([emmasView.photos, emmasView.cover.id], [2, grandmas]);
  });

  test('the photo’s own routes, a URL token, a zip, Everyone’s and Starred know nothing of it for her', async () => {
    const { cousin, grandmas, emmas } = await family();
    for (const route of [`/nodes/${grandmas}`, `/nodes/${grandmas}/thumbnail`, `/nodes/${grandmas}/download`, `/nodes/${grandmas}/path`]) {
      assertError(await t.client.get(route, { token: cousin.access }), 404, 'not_found');
    }
    assertError(await t.client.post(`/nodes/${grandmas}/access-token`, undefined, { token: cousin.access }), 404, 'not_found');
    assertError(await t.client.post(`/nodes/${grandmas}/star`, undefined, { token: cousin.access }), 404, 'not_found');
    assertError(
      await t.client.post('/downloads', { node_ids: [emmas, grandmas] }, { token: cousin.access }),
      404,
      'not_found',
      'node_ids.1',
    );
    const timeline = await t.client.get('/nodes?filter=gallery&scope=family&limit=1000', { token: cousin.access });
    assert.deepEqual(
      timeline.body.items.map((n: { id: string }) => n.id),
      [emmas],
    );
    assert.deepEqual((await t.client.get('/nodes/gallery/months?scope=family', { token: cousin.access })).body.items, [
      { month: '2024-06', photos: 1, videos: 0 },
    ]);
    // Nor can she pass it on: it is not hers to add anywhere.
    const hers = await makeAlbum(t, cousin, 'Mine');
    assertError(await t.client.post(`/albums/${hers.id}/items`, { node_ids: [grandmas] }, { token: cousin.access }), 404, 'not_found');
  });

  test('a favourite she made while its owner showed it to her (a partner share) is not listed once only the album would show it', async () => {
    const { grandma, cousin, grandmas } = await family();
    assert.equal((await t.client.post('/partner-shares', { user_id: cousin.userId }, { token: grandma.access })).status, 201);
    assert.equal((await t.client.post(`/nodes/${grandmas}/star`, undefined, { token: cousin.access })).status, 204);
    const starred = async () =>
      (await t.client.get('/nodes?filter=starred', { token: cousin.access })).body.items.map((n: { id: string }) => n.id);
    assert.deepEqual(await starred(), [grandmas]);
    assert.equal((await t.client.delete(`/partner-shares/${cousin.userId}`, { token: grandma.access })).status, 204);
    assert.deepEqual(await starred(), []);
  });

  test('events about it reach the album owner, never the member', async () => {
    const { grandma, emma, cousin, grandmas } = await family();
    const emmaHears = await EventSocket.open(t.url, emma.access);
    const cousinHears = await EventSocket.open(t.url, cousin.access);
    try {
      assert.equal((await t.client.patch(`/nodes/${grandmas}`, { name: 'renamed.jpg' }, { token: grandma.access })).status, 200);
      await emmaHears.waitFor((m) => m.type === 'node.updated' && m.payload.node.id === grandmas);
      await sentinel('after the rename');
      const heard = await cousinHears.until(isSentinel('after the rename'));
      assert.ok(!heard.some((m) => m.payload?.node?.id === grandmas), JSON.stringify(heard));
      assert.ok(!JSON.stringify(heard).includes('renamed.jpg'));
    } finally {
      emmaHears.close();
      cousinHears.close();
    }
  });

  test('shared with her too by its owner, she sees it in the album; the item says its owner did not put it there', async () => {
    const { grandma, cousin, album, grandmas } = await family();
    const grant = await t.client.post(
      `/nodes/${grandmas}/permissions`,
      { user_id: cousin.userId, role: 'viewer' },
      { token: grandma.access },
    );
    assert.equal(grant.status, 201);
    assert.deepEqual(
      (await albumItems(t, cousin, album.id)).map((n) => [n.name, n.shared_with_album]),
      [
        ['emmas.jpg', true],
        ['grandmas.jpg', false],
      ],
    );
  });

  test('once its owner adds it to the album herself, it is hers there: everyone in the album sees it', async () => {
    const { grandma, emma, cousin, album, grandmas } = await family();
    await invite(t, emma, album.id, grandma, 'contributor');
    const added = await addToAlbum(t, grandma, album.id, [grandmas]);
    assert.deepEqual([added.added, added.already_there, added.not_shared_with_album], [0, 1, 0]);
    const items = await albumItems(t, cousin, album.id);
    assert.deepEqual(
      items.map((n) => [n.name, n.added_by, n.shared_with_album, n.on_links]),
      [
        ['emmas.jpg', emma.userId, true, true],
        ['grandmas.jpg', grandma.userId, true, false],
      ],
    );
    assert.equal((await t.client.get(`/nodes/${grandmas}/download`, { token: cousin.access })).status, 200);
    // It is hers to take out, as a contributor, though Emma put it there first.
    const out = await t.client.post(`/albums/${album.id}/items/remove`, { node_ids: [grandmas] }, { token: grandma.access });
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assertError(await t.client.get(`/nodes/${grandmas}/download`, { token: cousin.access }), 404, 'not_found');
  });
});
