import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, jpeg, makeAlbum } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// POST /nodes/{id}/keep: a photo someone shared (an album, a partner, a grant, a link opened
// while signed in) becomes the caller's own file in "Kept copies", by content (never sent
// again), charged to its quota, at its day in the timeline, and independent of the original.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `keeper${++accounts}`);
}

async function photoOf(who: SignedIn, name: string, when = '2019:05:04 15:30:00'): Promise<{ id: string; bytes: Buffer }> {
  const bytes = await jpeg(when);
  const id = await uploadFile(t.api, who.access, bytes, { filename: name });
  await t.server.mediaIdle();
  return { id, bytes };
}

const keep = (who: SignedIn, id: string, headers: Record<string, string> = {}) =>
  t.client.post(`/nodes/${id}/keep`, undefined, { token: who.access, headers });

async function used(who: SignedIn): Promise<number> {
  return (await t.client.get('/me', { token: who.access })).body.quota.used as number;
}

async function download(who: SignedIn, id: string): Promise<Buffer> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${who.access}` } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

describe('POST /nodes/{id}/keep', () => {
  test("a partner's photo kept: 201, Mum's own file in Kept copies under its name, charged to her, at its day in her timeline", async () => {
    const [dad, mum] = [await person(), await person()];
    const { id, bytes } = await photoOf(dad, 'IMG_2001.jpg');
    const original = (await t.client.get(`/nodes/${id}`, { token: dad.access })).body;
    await t.client.post('/partner-shares', { user_id: mum.userId }, { token: dad.access });
    const before = await used(mum);

    const res = await keep(mum, id);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const copy = res.body;
    assert.notEqual(copy.id, id);
    assert.equal(copy.owner_id, mum.userId);
    assert.equal(copy.name, 'IMG_2001.jpg');
    assert.equal(copy.size, bytes.length);
    // From its first moment, when it was taken: no wait for the media worker.
    assert.equal(copy.taken_at, original.taken_at);
    assert.equal(copy.image_width, original.image_width);
    const folder = (await t.client.get(`/nodes/${copy.parent_id}`, { token: mum.access })).body;
    assert.equal(folder.name, 'Kept copies');
    assert.equal(folder.parent_id, null);
    assert.equal(await used(mum), before + bytes.length);
    const may2019 = (await t.client.get('/nodes?filter=gallery&scope=mine&month=2019-05', { token: mum.access })).body.items;
    assert.deepEqual(
      may2019.map((n: any) => n.id),
      [copy.id],
    );
    assert.deepEqual(await download(mum, copy.id), bytes);

    // A second one goes into the same folder; the same name again is numbered.
    const again = (await keep(mum, id)).body;
    assert.equal(again.parent_id, copy.parent_id);
    assert.equal(again.name, 'IMG_2001 (1).jpg');
  });

  test('the copy is independent: the original deleted for good, the copy still opens, byte for byte', async () => {
    const [gran, tom] = [await person(), await person()];
    const { id, bytes } = await photoOf(gran, 'cake.jpg');
    const album = await makeAlbum(t, gran, 'Birthday', [id]);
    await invite(t, gran, album.id, tom, 'viewer');
    const copy = (await keep(tom, id)).body;
    await t.server.mediaIdle();

    assert.equal((await t.client.delete(`/nodes/${id}/permanent`, { token: gran.access })).status, 204);
    await t.server.contentIdle();
    assert.deepEqual(await download(tom, copy.id), bytes);
    const thumb = await fetch(`${t.api}/nodes/${copy.id}/thumbnail?v=1`, { headers: { authorization: `Bearer ${tom.access}` } });
    assert.equal(thumb.status, 200);
  });

  test('over quota: 507 quota_exceeded and nothing kept', async () => {
    const [dad, ann] = [await person(), await person()];
    const { id } = await photoOf(dad, 'big.jpg');
    await t.client.post(`/nodes/${id}/permissions`, { user_id: ann.userId, role: 'viewer' }, { token: dad.access });
    const set = await t.client.patch(`/admin/users/${ann.userId}`, { quota_bytes: 10 }, { token: admin.access });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assertError(await keep(ann, id), 507, 'quota_exceeded');
    assert.equal(await used(ann), 0);
    const top = (await t.client.get('/nodes?parent_id=root', { token: ann.access })).body.items;
    // Not even an empty "Kept copies" folder is left behind.
    assert.deepEqual(
      top.filter((n: any) => n.owner_id === ann.userId),
      [],
    );
  });

  test('someone who cannot see it gets 404; its owner 409 already_yours; a folder 400; no session 401', async () => {
    const [dad, stranger] = [await person(), await person()];
    const { id } = await photoOf(dad, 'private.jpg');
    assertError(await keep(stranger, id), 404, 'not_found');
    assertError(await keep(stranger, 'no-such-node-000000'), 404, 'not_found');
    assertError(await keep(dad, id), 409, 'already_yours');
    const folder = (await t.client.post('/nodes/folder', { name: 'Box' }, { token: dad.access })).body;
    await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: stranger.userId, role: 'viewer' }, { token: dad.access });
    assertError(await keep(stranger, folder.id), 400, 'invalid_input');
    assertError(await t.client.post(`/nodes/${id}/keep`), 401, 'unauthorized');
  });

  test("a link's photo, opened while signed in: its token in X-Share-Token; downloads off 403; a wrong token or one for something else 404", async () => {
    const [gran, visitor] = [await person(), await person()];
    const { id, bytes } = await photoOf(gran, 'garden.jpg');
    const other = await photoOf(gran, 'not-on-it.jpg');
    const album = await makeAlbum(t, gran, 'Garden', [id]);
    const link = (await t.client.post(`/albums/${album.id}/share`, {}, { token: gran.access })).body;

    assertError(await keep(visitor, id), 404, 'not_found');
    assertError(await keep(visitor, other.id, { 'X-Share-Token': link.token }), 404, 'not_found');
    assertError(await keep(visitor, id, { 'X-Share-Token': 'x'.repeat(43) }), 404, 'not_found');
    const res = await keep(visitor, id, { 'X-Share-Token': link.token });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.owner_id, visitor.userId);
    assert.deepEqual(await download(visitor, res.body.id), bytes);

    const closed = (await t.client.post(`/albums/${album.id}/share`, { allow_download: false }, { token: gran.access })).body;
    assertError(await keep(visitor, id, { 'X-Share-Token': closed.token }), 403, 'download_disabled');
  });
});
