import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// A public link to an album: like a folder's link (expiry, password, download switch), it
// opens the photos the album shows at each visit, and nothing else of their owners'.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `links${++accounts}`);
}

async function makeLink(who: SignedIn, albumId: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await t.client.post(`/albums/${albumId}/share`, body, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** As a visitor without an account. */
const visit = (route: string, headers: Record<string, string> = {}) => t.client.get(route, { headers });

async function albumWithPhotos(who: SignedIn, name: string) {
  const older = await uploadPhoto(t, who, 'older.jpg', { when: '2022:07:01 10:00:00' });
  const newer = await uploadPhoto(t, who, 'newer.jpg', { when: '2022:07:02 10:00:00' });
  const outside = await uploadPhoto(t, who, 'not-in-it.jpg');
  await t.server.mediaIdle();
  const album = await makeAlbum(t, who, name, [newer, older]);
  return { album, older, newer, outside };
}

describe('POST /albums/{id}/share', () => {
  test("the owner makes a link: 201, a Link naming the album (node_id null), listed on the album and in the owner's links", async () => {
    const emma = await person();
    const { album } = await albumWithPhotos(emma, 'Summer');
    const link = await makeLink(emma, album.id);
    assert.equal(link.album_id, album.id);
    assert.equal(link.node_id, null);
    assert.ok(link.url.endsWith(`/s/${link.token}`));
    assert.equal(link.allow_download, true);
    assert.equal(link.active, true);
    const onAlbum = await t.client.get(`/albums/${album.id}/shares`, { token: emma.access });
    assert.deepEqual(onAlbum.body, { items: [link], next_cursor: null });
    const mine = await t.client.get('/shares', { token: emma.access });
    assert.deepEqual(
      mine.body.items.map((l: any) => l.id),
      [link.id],
    );
  });

  test('a member may not make one (403), a stranger finds no album (404), no token 401, a weak password 400', async () => {
    const emma = await person();
    const mum = await person();
    const stranger = await person();
    const album = await makeAlbum(t, emma, 'Ours');
    await invite(t, emma, album.id, mum, 'contributor');
    assertError(await t.client.post(`/albums/${album.id}/share`, {}, { token: mum.access }), 403, 'forbidden');
    assertError(await t.client.get(`/albums/${album.id}/shares`, { token: mum.access }), 403, 'forbidden');
    assertError(await t.client.post(`/albums/${album.id}/share`, {}, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.post(`/albums/${album.id}/share`, {}), 401, 'unauthorized');
    assertError(await t.client.post(`/albums/${album.id}/share`, { password: 'short' }, { token: emma.access }), 400, 'weak_password');
    assertError(
      await t.client.post(`/albums/${album.id}/share`, { expires_at: 'soon' }, { token: emma.access }),
      400,
      'invalid_input',
      'expires_at',
    );
  });
});

describe('what an album link opens', () => {
  test('the album as a folder of its photos, in the order they were taken, with their thumbnails and files, and nothing else', async () => {
    const emma = await person();
    const { album, older, newer, outside } = await albumWithPhotos(emma, 'Grandma at 90');
    const link = await makeLink(emma, album.id);
    const info = await visit(`/s/${link.token}`);
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.equal(info.body.kind, 'album');
    assert.equal(info.body.node.type, 'folder');
    assert.equal(info.body.node.name, 'Grandma at 90');
    assert.equal(info.body.owner_name, emma.username);
    const children = await visit(`/s/${link.token}/children?sort=name&order=desc`);
    assert.equal(children.status, 200);
    assert.deepEqual(
      children.body.items.map((n: any) => [n.id, n.parent_id]),
      [
        [older, album.id],
        [newer, album.id],
      ],
    );
    for (const item of children.body.items) {
      assert.equal(item.owner_id, undefined, 'no account id for the Internet');
      assert.equal(item.added_by, undefined);
    }
    const paged = await visit(`/s/${link.token}/children?limit=1`);
    const second = await visit(`/s/${link.token}/children?limit=1&cursor=${paged.body.next_cursor}`);
    assert.deepEqual(
      [...paged.body.items, ...second.body.items].map((n: any) => n.id),
      [older, newer],
    );
    assert.equal(second.body.next_cursor, null);

    assert.equal((await visit(`/s/${link.token}/thumbnail?node_id=${older}`)).status, 200);
    assert.equal((await visit(`/s/${link.token}/download?node_id=${newer}`)).status, 200);
    assertError(await visit(`/s/${link.token}/download?node_id=${outside}`), 404, 'not_found');
    assertError(await visit(`/s/${link.token}/thumbnail?node_id=${outside}`), 404, 'not_found');
    assertError(await visit(`/s/${link.token}/download`), 404, 'not_found');
    assertError(await visit(`/s/${link.token}/children?parent_id=${outside}`), 404, 'not_found');
  });

  test('it follows the album: a photo taken out or trashed is gone from it, one added is there, the album deleted is no link', async () => {
    const emma = await person();
    const { album, older, newer, outside } = await albumWithPhotos(emma, 'Changing');
    const link = await makeLink(emma, album.id);
    const ids = async () => (await visit(`/s/${link.token}/children`)).body.items.map((n: any) => n.id);
    assert.equal((await t.client.post(`/albums/${album.id}/items/remove`, { node_ids: [older] }, { token: emma.access })).status, 200);
    assert.equal((await t.client.delete(`/nodes/${newer}`, { token: emma.access })).status, 200);
    await addToAlbum(t, emma, album.id, [outside]);
    assert.deepEqual(await ids(), [outside]);
    assertError(await visit(`/s/${link.token}/download?node_id=${older}`), 404, 'not_found');
    assertError(await visit(`/s/${link.token}/download?node_id=${newer}`), 404, 'not_found');
    assert.equal((await t.client.delete(`/albums/${album.id}`, { token: emma.access })).status, 204);
    assertError(await visit(`/s/${link.token}`), 404, 'not_found');
  });

  test('expiry, password and the download switch work as for a folder; the owner changes and revokes it at /shares/{id}', async () => {
    const emma = await person();
    const { album, older } = await albumWithPhotos(emma, 'Protected');
    const link = await makeLink(emma, album.id, { password: 'a long enough password', allow_download: false });
    assertError(await visit(`/s/${link.token}/children`), 401, 'share_password_required');
    const unlocked = await t.client.post(`/s/${link.token}/unlock`, { password: 'a long enough password' });
    assert.equal(unlocked.status, 200, JSON.stringify(unlocked.body));
    const grant = { 'X-Share-Grant': unlocked.body.grant };
    assert.equal((await visit(`/s/${link.token}/children`, grant)).body.items.length, 2);
    assert.equal((await visit(`/s/${link.token}/thumbnail?node_id=${older}`, grant)).status, 200);
    assertError(await visit(`/s/${link.token}/download?node_id=${older}`, grant), 403, 'download_disabled');

    const patched = await t.client.patch(
      `/shares/${link.id}`,
      { allow_download: true, expires_at: Date.now() - 1000 },
      { token: emma.access },
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal(patched.body.album_id, album.id);
    assertError(await visit(`/s/${link.token}`, grant), 410, 'share_expired');
    assert.equal((await t.client.patch(`/shares/${link.id}`, { expires_at: null }, { token: emma.access })).status, 200);
    assert.equal((await visit(`/s/${link.token}/download?node_id=${older}`, grant)).status, 200);

    const mum = await person();
    assertError(await t.client.delete(`/shares/${link.id}`, { token: mum.access }), 404, 'not_found');
    assert.equal((await t.client.delete(`/shares/${link.id}`, { token: emma.access })).status, 204);
    assertError(await visit(`/s/${link.token}`, grant), 404, 'not_found');
  });
});
