import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/* Issue 23: "favourite" on a selection in an album; a favourite is the star, listed in Starred. */

let t: TestServer;
let emma: SignedIn;
let mum: SignedIn;

before(async () => {
  t = await startTestServer();
  emma = await setupOwner(t.client);
  mum = await createMember(t.client, emma, 'mum');
});
after(() => t.close());

async function starred(who: SignedIn): Promise<string[]> {
  const res = await t.client.get('/nodes?filter=starred', { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items.map((node: { name: string }) => node.name);
}

test('a favourite of a photo an album shows me is in my Starred, marked only for me; taken out of the album, it is listed no more', async () => {
  const beach = await uploadPhoto(t, emma, 'Beach.jpg');
  const album = await makeAlbum(t, emma, 'Holiday', [beach]);
  await invite(t, emma, album.id, mum, 'viewer');

  assert.equal((await t.client.post(`/nodes/${beach}/star`, undefined, { token: mum.access })).status, 204);
  assert.deepEqual(await starred(mum), ['Beach.jpg']);
  const items = (await t.client.get(`/albums/${album.id}/items`, { token: mum.access })).body.items;
  assert.equal(items[0].starred, true);
  // Emma's own mark is hers.
  assert.deepEqual(await starred(emma), []);
  assert.equal((await t.client.get(`/albums/${album.id}/items`, { token: emma.access })).body.items[0].starred, false);

  const removed = await t.client.post(`/albums/${album.id}/items/remove`, { node_ids: [beach] }, { token: emma.access });
  assert.equal(removed.status, 200);
  assert.deepEqual(await starred(mum), []);
});

test("a favourite of a partner's photo is in my Starred while they share with me, and listed no more once they stop", async () => {
  const dad = await createMember(t.client, emma, 'dad');
  const bike = await uploadPhoto(t, dad, 'Bike.jpg');
  await t.server.mediaIdle();
  assert.equal((await t.client.post('/partner-shares', { user_id: mum.userId }, { token: dad.access })).status, 201);

  assert.equal((await t.client.post(`/nodes/${bike}/star`, undefined, { token: mum.access })).status, 204);
  assert.deepEqual(await starred(mum), ['Bike.jpg']);
  assert.deepEqual(await starred(dad), []);

  assert.equal((await t.client.delete(`/partner-shares/${mum.userId}`, { token: dad.access })).status, 204);
  assert.deepEqual(await starred(mum), []);
});
