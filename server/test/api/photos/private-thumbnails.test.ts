/**
 * A browser never shows a kept thumbnail to the next account, nor after access was taken away:
 * thumbnails are `private, no-cache` (revalidated before each use), a 304 goes only to someone
 * who may still see the picture, and signing out tells the browser to drop its cache.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let friend: SignedIn;
let stranger: SignedIn;
let folderId: string;
let photoId: string;
let version: number;

async function thumbnail(
  route: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: Buffer; code?: string }> {
  const res = await fetch(t.api + route, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const code = (res.headers.get('content-type') ?? '').includes('json') ? (JSON.parse(body.toString()) as any).error?.code : undefined;
  return { status: res.status, headers: res.headers, body, code };
}

const as = (who: SignedIn, extra: Record<string, string> = {}) => ({ authorization: `Bearer ${who.access}`, ...extra });

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  friend = await createMember(t.client, owner, 'friend');
  stranger = await createMember(t.client, owner, 'stranger');
  const folder = await t.client.post('/nodes/folder', { name: 'Holiday' }, { token: owner.access });
  folderId = folder.body.id;
  const jpeg = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#228844' } })
    .jpeg()
    .toBuffer();
  photoId = await uploadFile(t.api, owner.access, jpeg, { filename: 'beach.jpg', parentId: folderId });
  await t.server.mediaIdle();
  version = (await t.client.get(`/nodes/${photoId}`, { token: owner.access })).body.version;
  const grant = await t.client.post(`/nodes/${folderId}/permissions`, { user_id: friend.userId, role: 'viewer' }, { token: owner.access });
  assert.equal(grant.status, 201);
});
after(() => t.close());

describe('thumbnails are revalidated before each use', () => {
  test("every size, with or without ?v=, and a public link's: private, no-cache, an ETag, no max-age, never immutable", async () => {
    const link = await t.client.post(`/nodes/${folderId}/share`, {}, { token: owner.access });
    for (const route of [
      `/nodes/${photoId}/thumbnail`,
      `/nodes/${photoId}/thumbnail?v=${version}`,
      `/nodes/${photoId}/thumbnail?size=1024&v=${version}`,
      `/s/${link.body.token}/thumbnail?node_id=${photoId}&v=${version}`,
    ]) {
      const got = await thumbnail(route, route.startsWith('/s/') ? {} : as(owner));
      assert.equal(got.status, 200, route);
      assert.equal(got.headers.get('cache-control'), 'private, no-cache', route);
      assert.match(got.headers.get('etag') ?? '', /^"[^"]+"$/, route);
    }
  });
});

describe('a 304 only for someone who may see it', () => {
  test('the owner and the friend it is shared with get 304 for the ETag they hold; a stranger and no one get 404 and 401 with the same ETag', async () => {
    const route = `/nodes/${photoId}/thumbnail?v=${version}`;
    const etag = (await thumbnail(route, as(owner))).headers.get('etag')!;
    const mine = await thumbnail(route, as(owner, { 'if-none-match': etag }));
    assert.equal(mine.status, 304);
    assert.equal(mine.body.length, 0);
    assert.equal(mine.headers.get('cache-control'), 'private, no-cache');
    assert.equal((await thumbnail(route, as(friend, { 'if-none-match': etag }))).status, 304);
    const theirs = await thumbnail(route, as(stranger, { 'if-none-match': etag }));
    assert.equal(theirs.status, 404);
    assert.equal(theirs.code, 'not_found');
    assert.equal(theirs.body.includes(Buffer.from('RIFF')), false);
    assert.equal((await thumbnail(route, { 'if-none-match': etag })).status, 401);
  });

  test("after the friend's access is removed, the ETag it holds gets 404, not 304; given back, 304 again", async () => {
    const route = `/nodes/${photoId}/thumbnail?v=${version}`;
    const etag = (await thumbnail(route, as(friend))).headers.get('etag')!;
    assert.equal((await thumbnail(route, as(friend, { 'if-none-match': etag }))).status, 304);
    assert.equal((await t.client.delete(`/nodes/${folderId}/permissions/${friend.userId}`, { token: owner.access })).status, 204);
    const cut = await thumbnail(route, as(friend, { 'if-none-match': etag }));
    assert.equal(cut.status, 404);
    assert.equal(cut.code, 'not_found');
    await t.client.post(`/nodes/${folderId}/permissions`, { user_id: friend.userId, role: 'viewer' }, { token: owner.access });
    assert.equal((await thumbnail(route, as(friend, { 'if-none-match': etag }))).status, 304);
  });

  test("a photo moved to the trash: the friend's ETag gets 404; a link's thumbnail after the link is revoked: 404", async () => {
    const jpeg = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#aa2200' } })
      .jpeg()
      .toBuffer();
    const id = await uploadFile(t.api, owner.access, jpeg, { filename: 'soon-gone.jpg', parentId: folderId });
    await t.server.mediaIdle();
    const link = await t.client.post(`/nodes/${id}/share`, {}, { token: owner.access });
    const viaLink = `/s/${link.body.token}/thumbnail`;
    const linkEtag = (await thumbnail(viaLink)).headers.get('etag')!;
    assert.equal((await thumbnail(viaLink, { 'if-none-match': linkEtag })).status, 304);
    assert.equal((await t.client.delete(`/shares/${link.body.id}`, { token: owner.access })).status, 204);
    assert.equal((await thumbnail(viaLink, { 'if-none-match': linkEtag })).status, 404);

    const route = `/nodes/${id}/thumbnail`;
    const etag = (await thumbnail(route, as(friend))).headers.get('etag')!;
    assert.equal((await t.client.delete(`/nodes/${id}`, { token: owner.access })).status, 200);
    assert.equal((await thumbnail(route, as(friend, { 'if-none-match': etag }))).status, 404);
  });
});

describe('signing out clears what the browser kept', () => {
  test('POST /auth/logout answers 204 with Clear-Site-Data: "cache"', async () => {
    const session = await login(t.client, 'friend', friend.password);
    const res = await t.client.post('/auth/logout', undefined, { token: session.access });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('clear-site-data'), '"cache"');
  });

  test('a refused refresh (a used or unknown token: this browser is signed out) clears too; a good refresh and a sign-in do not', async () => {
    const signIn = await t.client.post('/auth/login', { username: 'friend', password: friend.password });
    assert.equal(signIn.status, 200);
    assert.equal(signIn.headers.get('clear-site-data'), null);
    const session = await login(t.client, 'friend', friend.password);
    const good = await t.client.post('/auth/refresh', { refresh_token: session.refresh });
    assert.equal(good.status, 200);
    assert.equal(good.headers.get('clear-site-data'), null);
    const reused = await t.client.post('/auth/refresh', { refresh_token: session.refresh });
    assert.equal(reused.status, 401);
    assert.equal(reused.body.error.code, 'refresh_token_reused');
    assert.equal(reused.headers.get('clear-site-data'), '"cache"');
    const unknown = await t.client.post('/auth/refresh', { refresh_token: 'never-issued-never-issued-never-issued' });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.headers.get('clear-site-data'), '"cache"');
  });
});
