/**
 * A URL a browser follows by itself (a download, a video's src) outlives the page: it sits in
 * the downloads list. The token in it opens one node, read-only, for a few minutes, and dies
 * with the session or the account's access to the node. The contract also lets a client put the
 * session's own access token there: accepted (full scope, access checked as with the header)
 * until the owner turns session_tokens_in_urls off.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import WebSocket from 'ws';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let bob: SignedIn;

const DATA = crypto.randomBytes(4000);
let fileId: string;
let otherFileId: string;
let photoId: string;
let folderId: string;

interface Got {
  status: number;
  headers: Headers;
  body: Buffer;
  json: any;
}

/** A request as a browser element makes it: no header unless told, the token in the URL. */
async function get(route: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  const res = await fetch(t.api + route, { method, headers });
  const body = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') && body.length > 0 ? JSON.parse(body.toString()) : undefined;
  return { status: res.status, headers: res.headers, body, json };
}

function asResponse(got: Got): ApiResponse {
  return { status: got.status, headers: got.headers, body: got.json };
}

async function mint(who: SignedIn, id: string, server: TestServer = t): Promise<{ access_token: string; expires_at: number }> {
  const res = await server.client.post(`/nodes/${id}/access-token`, undefined, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

const q = (token: string) => `access_token=${encodeURIComponent(token)}`;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  bob = await createMember(t.client, owner, 'bob');
  fileId = await uploadFile(t.api, owner.access, DATA, { filename: 'report.bin' });
  otherFileId = await uploadFile(t.api, owner.access, crypto.randomBytes(100), { filename: 'other.bin' });
  const folder = await t.client.post('/nodes/folder', { name: 'Album' }, { token: owner.access });
  folderId = folder.body.id;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .jpeg()
    .toBuffer();
  photoId = await uploadFile(t.api, owner.access, jpeg, { filename: 'photo.jpg', parentId: folderId });
  await t.server.mediaIdle();
});
after(() => t.close());

describe('minting a node token', () => {
  test('POST /nodes/{id}/access-token answers a token and when it expires, five minutes from now, not to be cached', async () => {
    const before = Date.now();
    const res = await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token: owner.access });
    const afterwards = Date.now();
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(typeof res.body.access_token, 'string');
    assert.notEqual(res.body.access_token, owner.access);
    assert.ok(res.body.expires_at >= before + 5 * 60_000 && res.body.expires_at <= afterwards + 5 * 60_000, String(res.body.expires_at));
    assert.equal(res.headers.get('cache-control'), 'no-store');
  });

  test('it needs the session in the bearer header: none is 401, and neither the session token nor a node token in the URL mints one', async () => {
    assertError(await t.client.post(`/nodes/${fileId}/access-token`), 401, 'unauthorized');
    assertError(await t.client.post(`/nodes/${fileId}/access-token?${q(owner.access)}`), 401, 'unauthorized');
    const token = (await mint(owner, fileId)).access_token;
    assertError(await t.client.post(`/nodes/${fileId}/access-token?${q(token)}`), 401, 'unauthorized');
    assertError(await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token }), 401, 'invalid_token');
  });

  test("another account's node, or an unknown one, is 404 not_found", async () => {
    assertError(await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token: bob.access }), 404, 'not_found');
    assertError(
      await t.client.post('/nodes/01HZZZZZZZZZZZZZZZZZZZZZZZ/access-token', undefined, { token: owner.access }),
      404,
      'not_found',
    );
  });
});

describe('what a node token opens', () => {
  test("its node's download: the bytes, HEAD and a Range", async () => {
    const token = (await mint(owner, fileId)).access_token;
    const got = await get(`/nodes/${fileId}/download?${q(token)}`);
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(DATA));
    const head = await get(`/nodes/${fileId}/download?${q(token)}`, {}, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(DATA.length));
    const range = await get(`/nodes/${fileId}/download?${q(token)}`, { Range: 'bytes=10-19' });
    assert.equal(range.status, 206);
    assert.ok(range.body.equals(DATA.subarray(10, 20)));
  });

  test("its node's thumbnail, and a folder's preview (JSON and mosaic)", async () => {
    const photoToken = (await mint(owner, photoId)).access_token;
    const thumb = await get(`/nodes/${photoId}/thumbnail?size=1024&${q(photoToken)}`);
    assert.equal(thumb.status, 200);
    assert.equal(thumb.headers.get('content-type'), 'image/webp');
    const folderToken = (await mint(owner, folderId)).access_token;
    const json = await get(`/nodes/${folderId}/preview?${q(folderToken)}`, { accept: 'application/json' });
    assert.equal(json.status, 200);
    assert.deepEqual(
      json.json.items.map((item: { node_id: string }) => item.node_id),
      [photoId],
    );
    const mosaic = await get(`/nodes/${folderId}/preview?${q(folderToken)}`, { accept: 'image/webp,*/*' });
    assert.equal(mosaic.status, 200);
    assert.equal(mosaic.headers.get('content-type'), 'image/webp');
  });

  test('an account a folder is shared with mints for a file inside and reads it', async () => {
    const shared = await t.client.post('/nodes/folder', { name: 'Shared with bob' }, { token: owner.access });
    const inside = await uploadFile(t.api, owner.access, Buffer.from('for bob'), { filename: 'note.txt', parentId: shared.body.id });
    const grant = await t.client.post(
      `/nodes/${shared.body.id}/permissions`,
      { user_id: bob.userId, role: 'viewer' },
      { token: owner.access },
    );
    assert.equal(grant.status, 201);
    const got = await get(`/nodes/${inside}/download?${q((await mint(bob, inside)).access_token)}`);
    assert.equal(got.status, 200);
    assert.equal(got.body.toString(), 'for bob');
  });
});

describe('what a node token does not open', () => {
  test('another node: 401 invalid_token, a file inside the folder it was made for included', async () => {
    const token = (await mint(owner, fileId)).access_token;
    assertError(asResponse(await get(`/nodes/${otherFileId}/download?${q(token)}`)), 401, 'invalid_token');
    assertError(asResponse(await get(`/nodes/${photoId}/thumbnail?${q(token)}`)), 401, 'invalid_token');
    const folderToken = (await mint(owner, folderId)).access_token;
    assertError(asResponse(await get(`/nodes/${photoId}/download?${q(folderToken)}`)), 401, 'invalid_token');
    assertError(asResponse(await get(`/nodes/${photoId}/thumbnail?${q(folderToken)}`)), 401, 'invalid_token');
  });

  test('any other route, read or write, by header or in the URL: 401 and nothing changes', async () => {
    const token = (await mint(owner, fileId)).access_token;
    const bearer = { authorization: `Bearer ${token}` };
    for (const route of [`/nodes/${fileId}`, '/me', '/nodes?parent_id=root', `/nodes/${fileId}/download`, `/nodes/${fileId}/versions`]) {
      assertError(asResponse(await get(route, bearer)), 401, 'invalid_token');
    }
    assertError(asResponse(await get(`/nodes/${fileId}?${q(token)}`)), 401, 'unauthorized');
    assertError(await t.client.patch(`/nodes/${fileId}`, { name: 'renamed.bin' }, { token }), 401, 'invalid_token');
    assertError(await t.client.patch(`/nodes/${fileId}?${q(token)}`, { name: 'renamed.bin' }), 401, 'unauthorized');
    assertError(await t.client.delete(`/nodes/${fileId}`, { token }), 401, 'invalid_token');
    assertError(await t.client.delete(`/nodes/${fileId}?${q(token)}`), 401, 'unauthorized');
    assertError(await t.client.post(`/nodes/${fileId}/share`, {}, { token }), 401, 'invalid_token');
    const node = await t.client.get(`/nodes/${fileId}`, { token: owner.access });
    assert.equal(node.body.name, 'report.bin');
    assert.equal(node.body.trashed_at, null);
  });

  test('the WebSocket refuses it, in the URL and in the header', async () => {
    const token = (await mint(owner, fileId)).access_token;
    const url = `${t.url.replace(/^http/, 'ws')}/api/v1/ws`;
    for (const [target, options] of [
      [`${url}?${q(token)}`, {}],
      [url, { headers: { authorization: `Bearer ${token}` } }],
    ] as const) {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(target, options);
        ws.once('open', () => {
          ws.terminate();
          reject(new Error('the upgrade was accepted'));
        });
        ws.once('unexpected-response', (_req, res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.once('error', reject);
      });
      assert.equal(status, 401);
    }
  });

  test('a token altered to name another node, or with its expiry pushed out, is refused', async () => {
    const token = (await mint(owner, fileId)).access_token;
    const parts = token.split('.');
    assert.equal(parts.length, 5);
    const otherNode = [...parts];
    otherNode[2] = otherFileId;
    assertError(asResponse(await get(`/nodes/${otherFileId}/download?${q(otherNode.join('.'))}`)), 401, 'invalid_token');
    const later = [...parts];
    later[3] = String(Number(parts[3]) + 86_400_000);
    assertError(asResponse(await get(`/nodes/${fileId}/download?${q(later.join('.'))}`)), 401, 'invalid_token');
  });
});

describe("the session's own token in a node's URL, as the contract allows", () => {
  const urlRoutes = () => [`/nodes/${fileId}/download`, `/nodes/${photoId}/thumbnail`, `/nodes/${folderId}/preview`];
  const setTokensInUrls = async (on: boolean) => {
    const res = await t.client.patch('/server/settings', { session_tokens_in_urls: on }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.session_tokens_in_urls, on);
  };

  test('is accepted on download, thumbnail and preview by default, and answers what the header would', async () => {
    assert.equal((await t.client.get('/server/settings', { token: owner.access })).body.session_tokens_in_urls, true);
    for (const route of urlRoutes()) {
      const viaUrl = await get(`${route}?${q(owner.access)}`);
      const viaHeader = await get(route, { authorization: `Bearer ${owner.access}` });
      assert.equal(viaUrl.status, 200, `${route}: ${viaUrl.body.toString().slice(0, 200)}`);
      assert.ok(viaUrl.body.equals(viaHeader.body), route);
    }
    assert.ok((await get(`/nodes/${fileId}/download?${q(owner.access)}`)).body.equals(DATA));
  });

  test("checks the account's access as the header does: another account's session token finds nothing (404)", async () => {
    for (const route of urlRoutes()) assertError(asResponse(await get(`${route}?${q(bob.access)}`)), 404, 'not_found');
  });

  test('opens nothing else: GET /nodes/{id} and the other routes still take the header only', async () => {
    assertError(asResponse(await get(`/nodes/${fileId}?${q(owner.access)}`)), 401, 'unauthorized');
    assertError(asResponse(await get(`/nodes/${fileId}/versions?${q(owner.access)}`)), 401, 'unauthorized');
  });

  test('dies with its session, and a forged or expired one is refused', async () => {
    const doomed = await login(t.client, owner.username, owner.password);
    assert.equal((await get(`/nodes/${fileId}/download?${q(doomed.access)}`)).status, 200);
    assert.equal((await t.client.post('/auth/logout', undefined, { token: doomed.access })).status, 204);
    assertError(asResponse(await get(`/nodes/${fileId}/download?${q(doomed.access)}`)), 401, 'invalid_token');
    const parts = owner.access.split('.');
    parts[2] = String(Date.now() - 1000);
    assertError(asResponse(await get(`/nodes/${fileId}/download?${q(parts.join('.'))}`)), 401, 'invalid_token');
  });

  test('a phone still waiting for approval (pending scope) opens no file through the URL', async () => {
    await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    try {
      const waiting = await t.client.post('/auth/login', { username: owner.username, password: owner.password });
      assert.equal(waiting.status, 202, JSON.stringify(waiting.body));
      assertError(asResponse(await get(`/nodes/${fileId}/download?${q(waiting.body.access_token)}`)), 401, 'invalid_token');
    } finally {
      await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
    }
  });

  test('the owner can turn it off: then it is refused with 401 invalid_token and a message that says what to use; node tokens and the header go on working', async () => {
    await setTokensInUrls(false);
    try {
      for (const route of urlRoutes()) {
        const got = await get(`${route}?${q(owner.access)}`);
        assertError(asResponse(got), 401, 'invalid_token');
        assert.match(got.json.error.message, /access-token/, route);
      }
      const token = (await mint(owner, fileId)).access_token;
      assert.ok((await get(`/nodes/${fileId}/download?${q(token)}`)).body.equals(DATA));
      assert.ok((await get(`/nodes/${fileId}/download`, { authorization: `Bearer ${owner.access}` })).body.equals(DATA));
    } finally {
      await setTokensInUrls(true);
    }
    assert.equal((await get(`/nodes/${fileId}/download?${q(owner.access)}`)).status, 200);
  });

  test('only an admin changes the setting', async () => {
    assertError(await t.client.patch('/server/settings', { session_tokens_in_urls: false }, { token: bob.access }), 403, 'forbidden');
  });
});

describe('a node token dies', () => {
  test('with its session: signed out, the token stops working, while a token of another session of the same account still works', async () => {
    const other = await login(t.client, owner.username, owner.password);
    const doomed = await login(t.client, owner.username, owner.password);
    const doomedToken = (await mint(doomed, fileId)).access_token;
    const otherToken = (await mint(other, fileId)).access_token;
    assert.equal((await get(`/nodes/${fileId}/download?${q(doomedToken)}`)).status, 200);
    assert.equal((await t.client.post('/auth/logout', undefined, { token: doomed.access })).status, 204);
    assertError(asResponse(await get(`/nodes/${fileId}/download?${q(doomedToken)}`)), 401, 'invalid_token');
    assert.equal((await get(`/nodes/${fileId}/download?${q(otherToken)}`)).status, 200);
  });

  test('with a session signed out from another device, and with a disabled account', async () => {
    const carol = await createMember(t.client, owner, 'carol');
    const file = await uploadFile(t.api, carol.access, Buffer.from('carol'), { filename: 'c.txt' });
    const phone = await login(t.client, 'carol', carol.password);
    const token = (await mint(phone, file)).access_token;
    assert.equal((await t.client.delete(`/sessions/${phone.sessionId}`, { token: carol.access })).status, 204);
    assertError(asResponse(await get(`/nodes/${file}/download?${q(token)}`)), 401, 'invalid_token');

    const live = (await mint(carol, file)).access_token;
    assert.equal((await get(`/nodes/${file}/download?${q(live)}`)).status, 200);
    const disabled = await t.client.patch(`/admin/users/${carol.userId}`, { disabled: true }, { token: owner.access });
    assert.equal(disabled.status, 200, JSON.stringify(disabled.body));
    assertError(asResponse(await get(`/nodes/${file}/download?${q(live)}`)), 401, 'invalid_token');
  });

  test('with the access it was made under: access removed, the file answers 404 to the token minted before', async () => {
    const dave = await createMember(t.client, owner, 'dave');
    const shared = await t.client.post('/nodes/folder', { name: 'For dave, for now' }, { token: owner.access });
    const inside = await uploadFile(t.api, owner.access, Buffer.from('for now'), { filename: 'now.txt', parentId: shared.body.id });
    await t.client.post(`/nodes/${shared.body.id}/permissions`, { user_id: dave.userId, role: 'viewer' }, { token: owner.access });
    const token = (await mint(dave, inside)).access_token;
    assert.equal((await get(`/nodes/${inside}/download?${q(token)}`)).status, 200);
    const removed = await t.client.delete(`/nodes/${shared.body.id}/permissions/${dave.userId}`, { token: owner.access });
    assert.equal(removed.status, 204);
    assertError(asResponse(await get(`/nodes/${inside}/download?${q(token)}`)), 404, 'not_found');
  });

  test('when it expires', async () => {
    const short = await startTestServer({ nodeTokenTtlMs: 1000 });
    try {
      const who = await setupOwner(short.client);
      const file = await uploadFile(short.api, who.access, Buffer.from('brief'), { filename: 'brief.txt' });
      const minted = await mint(who, file, short);
      // Waits on the clock, not on a guess about speed: the answer after expiry is what is asserted.
      while (Date.now() <= minted.expires_at + 10) await new Promise((resolve) => setTimeout(resolve, minted.expires_at + 20 - Date.now()));
      const res = await fetch(`${short.api}/nodes/${file}/download?${q(minted.access_token)}`);
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as any).error.code, 'invalid_token');
      // A fresh one works again: the session itself is fine.
      const fresh = await fetch(`${short.api}/nodes/${file}/download?${q((await mint(who, file, short)).access_token)}`);
      assert.equal(fresh.status, 200);
    } finally {
      await short.close();
    }
  });
});
