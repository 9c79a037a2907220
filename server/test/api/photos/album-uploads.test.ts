import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { albumItems, invite, jpeg, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// Photos sent straight into an album: each is the uploader's own file, in their
// Albums/<album name> folder, and joins the album as it completes.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `uploads${++accounts}`);
}

async function uploadFolder(who: SignedIn, albumId: string): Promise<any> {
  const res = await t.client.post(`/albums/${albumId}/upload-folder`, undefined, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function pathNames(who: SignedIn, nodeId: string): Promise<string[]> {
  return (await t.client.get(`/nodes/${nodeId}/path`, { token: who.access })).body.items.map((n: any) => n.name);
}

describe('POST /albums/{id}/upload-folder', () => {
  test("a contributor's folder is Albums/<album name> in their own My files, made once and then remembered by id", async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'Summer 23/24');
    await invite(t, emma, album.id, mum, 'contributor');
    const folder = await uploadFolder(mum, album.id);
    assert.equal(folder.owner_id, mum.userId);
    assert.deepEqual(await pathNames(mum, folder.id), ['Albums', 'Summer 23-24']);
    assert.equal((await uploadFolder(mum, album.id)).id, folder.id);
    // Renamed and moved by Mum, it is still the one.
    assert.equal(
      (await t.client.patch(`/nodes/${folder.id}`, { name: 'From the summer', parent_id: null }, { token: mum.access })).status,
      200,
    );
    assert.equal((await uploadFolder(mum, album.id)).id, folder.id);
    // In the trash: a new one is made, beside the existing Albums folder.
    assert.equal((await t.client.delete(`/nodes/${folder.id}`, { token: mum.access })).status, 200);
    const again = await uploadFolder(mum, album.id);
    assert.notEqual(again.id, folder.id);
    assert.deepEqual(await pathNames(mum, again.id), ['Albums', 'Summer 23-24']);
    // The owner has a folder of their own.
    const emmas = await uploadFolder(emma, album.id);
    assert.equal(emmas.owner_id, emma.userId);
    assert.deepEqual(await pathNames(emma, emmas.id), ['Albums', 'Summer 23-24']);
  });

  test('a file called Albums is left alone; viewers 403 album_viewer, strangers 404, no token 401', async () => {
    const emma = await person();
    const dad = await person();
    const stranger = await person();
    await uploadFile(t.api, emma.access, Buffer.from('not a folder'), { filename: 'Albums' });
    const album = await makeAlbum(t, emma, 'Trip');
    assert.deepEqual(await pathNames(emma, (await uploadFolder(emma, album.id)).id), ['Albums (1)', 'Trip']);
    await invite(t, emma, album.id, dad, 'viewer');
    assertError(await t.client.post(`/albums/${album.id}/upload-folder`, undefined, { token: dad.access }), 403, 'album_viewer');
    assertError(await t.client.post(`/albums/${album.id}/upload-folder`, undefined, { token: stranger.access }), 404, 'not_found');
    assertError(await t.client.post(`/albums/${album.id}/upload-folder`), 401, 'unauthorized');
  });
});

describe('uploads with album_id', () => {
  test('a photo joins the album as it completes; it is the uploader’s, charged to them; a non-photo stays in the folder only', async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'From Mum');
    await invite(t, emma, album.id, mum, 'contributor');
    const folder = await uploadFolder(mum, album.id);
    const socket = await EventSocket.open(t.url, emma.access);
    try {
      const photo = await uploadPhoto(t, mum, 'phone.jpg', { parentId: folder.id, albumId: album.id });
      await socket.waitFor((m) => m.type === 'album.changed' && m.payload.album_id === album.id);
      const note = await uploadFile(t.api, mum.access, Buffer.from('a note'), {
        filename: 'note.txt',
        parentId: folder.id,
        metadata: { album_id: album.id },
      });
      const items = await albumItems(t, emma, album.id);
      assert.deepEqual(
        items.map((n) => [n.id, n.owner_id, n.added_by, n.parent_id]),
        [[photo, mum.userId, mum.userId, folder.id]],
      );
      assert.equal((await t.client.get(`/nodes/${note}`, { token: mum.access })).body.parent_id, folder.id);
      const me = (await t.client.get('/me', { token: mum.access })).body;
      assert.ok(me.quota.used >= items[0].size, "Mum's space holds her photo");
      // Emma reads it through the album, and its thumbnail once made.
      await t.server.mediaIdle();
      assert.equal((await t.client.get(`/nodes/${photo}/thumbnail`, { token: emma.access })).status, 200);
    } finally {
      socket.close();
    }
  });

  test('a viewer cannot start one (403 album_viewer), nor a stranger (404), before any byte is sent', async () => {
    const emma = await person();
    const dad = await person();
    const stranger = await person();
    const album = await makeAlbum(t, emma, 'Look only');
    await invite(t, emma, album.id, dad, 'viewer');
    const data = await jpeg();
    await assert.rejects(uploadFile(t.api, dad.access, data, { filename: 'x.jpg', metadata: { album_id: album.id } }), /403/);
    await assert.rejects(uploadFile(t.api, stranger.access, data, { filename: 'x.jpg', metadata: { album_id: album.id } }), /404/);
    assert.deepEqual((await t.client.get('/nodes?filter=gallery', { token: dad.access })).body.items, []);
    assert.deepEqual(await albumItems(t, emma, album.id), []);
  });

  test('removed while uploading: the photo completes into the uploader’s folder and stays out of the album', async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'Changed mind');
    await invite(t, emma, album.id, mum, 'contributor');
    const folder = await uploadFolder(mum, album.id);
    const data = await jpeg();
    // The upload is created (its album checked) with its first half, then Mum is removed, then it completes.
    const half = Math.floor(data.length / 2);
    const metadata = ['filename', 'late.jpg', 'parent_id', folder.id, 'album_id', album.id];
    const header = [];
    for (let i = 0; i < metadata.length; i += 2) header.push(`${metadata[i]} ${Buffer.from(metadata[i + 1]!).toString('base64')}`);
    const create = await fetch(`${t.api}/uploads`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        authorization: `Bearer ${mum.access}`,
        'Upload-Length': String(data.length),
        'Upload-Metadata': header.join(','),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(data.subarray(0, half)),
    });
    assert.equal(create.status, 201);
    const location = create.headers.get('location')!;
    assert.equal((await t.client.delete(`/albums/${album.id}/members/${mum.userId}`, { token: emma.access })).status, 204);
    const rest = await fetch(location, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        authorization: `Bearer ${mum.access}`,
        'Upload-Offset': String(half),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(data.subarray(half)),
    });
    assert.equal(rest.status, 204);
    const nodeId = rest.headers.get('service-node-id')!;
    assert.equal((await t.client.get(`/nodes/${nodeId}`, { token: mum.access })).body.parent_id, folder.id);
    assert.deepEqual(await albumItems(t, emma, album.id), []);
  });
});
