import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

interface Got {
  status: number;
  headers: Headers;
  body: Buffer;
  json: any;
}

let t: TestServer;
let owner: SignedIn;
let stranger: SignedIn;

const OWNER_NAME = 'Grandma Rose';
const FILE_NAME = 'Report été.bin';
const FILE = crypto.randomBytes(5000);
const DEEP = Buffer.from('deep inside the album');
const SECRET = Buffer.from('private, not shared');

/** Ids of the owner's tree: Family/{Album/{Sub/{deep.txt}, Zed/, a.txt, b.txt, c.txt}, Private/{secret.txt}}, report.bin. */
type Named = 'family' | 'album' | 'sub' | 'zed' | 'private' | 'deep' | 'a' | 'b' | 'c' | 'secret' | 'report';
const ids = {} as Record<Named, string>;
let fileLink: any;
let folderLink: any;
let strangerFolder: string;

/** A request with no account; the share grant, if any, is up to the caller. */
async function get(route: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Got> {
  const res = await fetch(t.api + route, { method, headers });
  const body = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') && body.length > 0 ? JSON.parse(body.toString()) : undefined;
  return { status: res.status, headers: res.headers, body, json };
}

async function unlock(token: string, password: string, server: TestServer = t): Promise<Got> {
  const res = await fetch(`${server.api}/s/${token}/unlock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
  });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, body, json: body.length > 0 ? JSON.parse(body.toString()) : undefined };
}

function assertError(got: Got, status: number, code: string, what = ''): void {
  assert.equal(got.status, status, `${what} ${got.body.toString().slice(0, 300)}`);
  assert.match(got.headers.get('content-type') ?? '', /application\/json/, what);
  assert.equal(got.json?.error?.code, code, `${what} ${got.body.toString().slice(0, 300)}`);
  assert.equal(typeof got.json.error.message, 'string');
}

async function mkdir(who: SignedIn, name: string, parentId?: string): Promise<string> {
  const res = await t.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

async function share(nodeId: string, body: object = {}, server: TestServer = t, who: SignedIn = owner): Promise<any> {
  const res = await server.client.post(`/nodes/${nodeId}/share`, body, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function patchLink(id: string, body: object): Promise<any> {
  const res = await t.client.patch(`/shares/${id}`, body, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Every public route of a link, for checks that hold on all of them. */
function everyRoute(token: string, query = ''): string[] {
  const q = query ? `?${query}` : '';
  return [`/s/${token}${q}`, `/s/${token}/children${q}`, `/s/${token}/download${q}`, `/s/${token}/thumbnail${q}`];
}

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  stranger = await createMember(t.client, owner, 'stranger');
  const profile = await t.client.patch('/me/profile', { display_name: OWNER_NAME }, { token: owner.access });
  assert.equal(profile.status, 200, JSON.stringify(profile.body));

  ids.family = await mkdir(owner, 'Family');
  ids.album = await mkdir(owner, 'Album', ids.family);
  ids.sub = await mkdir(owner, 'Sub', ids.album);
  ids.zed = await mkdir(owner, 'Zed', ids.album);
  ids.private = await mkdir(owner, 'Private', ids.family);
  const up = (data: Buffer, filename: string, parentId?: string) =>
    uploadFile(t.api, owner.access, data, { filename, ...(parentId && { parentId }) });
  ids.deep = await up(DEEP, 'deep.txt', ids.sub);
  ids.a = await up(Buffer.from('a'), 'a.txt', ids.album);
  ids.b = await up(Buffer.from('bb'), 'b.txt', ids.album);
  ids.c = await up(Buffer.from('ccc'), 'c.txt', ids.album);
  ids.secret = await up(SECRET, 'secret.txt', ids.private);
  ids.report = await up(FILE, FILE_NAME);
  strangerFolder = await mkdir(stranger, 'Stranger things');
  fileLink = await share(ids.report);
  folderLink = await share(ids.album);
});
after(() => t.close());

// ---------------------------------------------------------------------------------------------

describe('what a link shares', () => {
  test('GET /s/{token} without any account answers {node, kind, owner_name, allow_download, expires_at, view}', async () => {
    const got = await get(`/s/${fileLink.token}`);
    assert.equal(got.status, 200, got.body.toString());
    assert.deepEqual(Object.keys(got.json).sort(), ['allow_download', 'expires_at', 'kind', 'node', 'owner_name', 'view']);
    assert.equal(got.json.view, 'files');
    assert.equal(got.json.kind, 'node');
    assert.equal(got.json.node.id, ids.report);
    assert.equal(got.json.node.type, 'file');
    assert.equal(got.json.node.name, FILE_NAME);
    assert.equal(got.json.node.size, FILE.length);
    assert.equal(got.json.owner_name, OWNER_NAME);
    assert.equal(got.json.allow_download, true);
    assert.equal(got.json.expires_at, null);
    // Nothing about the link itself (its token or id) comes back to a visitor.
    assert.ok(!got.body.toString().includes(fileLink.id));

    const folder = await get(`/s/${folderLink.token}`);
    assert.equal(folder.status, 200);
    assert.equal(folder.json.node.id, ids.album);
    assert.equal(folder.json.node.type, 'folder');
  });

  test('the shared node carries no per-account marks of the owner: starred and shared are false for a visitor', async () => {
    assert.equal((await t.client.post(`/nodes/${ids.report}/star`, undefined, { token: owner.access })).status < 300, true);
    assert.equal((await t.client.post(`/nodes/${ids.a}/star`, undefined, { token: owner.access })).status < 300, true);
    try {
      const info = await get(`/s/${fileLink.token}`);
      assert.equal(info.json.node.starred, false);
      assert.equal(info.json.node.shared, false);
      const children = await get(`/s/${folderLink.token}/children`);
      const a = children.json.items.find((n: any) => n.id === ids.a);
      assert.equal(a.starred, false);
      assert.equal(a.shared, false);
    } finally {
      await t.client.delete(`/nodes/${ids.report}/star`, { token: owner.access });
      await t.client.delete(`/nodes/${ids.a}/star`, { token: owner.access });
    }
  });

  test('the link url is <origin>/s/<token> and carries no other secret (no query, no fragment)', async () => {
    for (const link of [fileLink, folderLink]) {
      assert.equal(link.url, `${t.url}/s/${link.token}`);
      const url = new URL(link.url);
      assert.equal(url.origin, t.url);
      assert.equal(url.pathname, `/s/${link.token}`);
      assert.equal(url.search, '');
      assert.equal(url.hash, '');
      assert.equal(url.username + url.password, '');
    }
    // The same url everywhere the owner sees it.
    const listed = await t.client.get(`/nodes/${ids.report}/shares`, { token: owner.access });
    assert.equal(listed.body.items.find((l: any) => l.id === fileLink.id).url, fileLink.url);
    const mine = await t.client.get('/shares', { token: owner.access });
    assert.equal(mine.body.items.find((l: any) => l.id === fileLink.id).url, fileLink.url);
  });
});

describe('downloading through a file link', () => {
  test('a file link downloads: 200 with the bytes, Content-Disposition attachment with the name, ETag, Accept-Ranges', async () => {
    const got = await get(`/s/${fileLink.token}/download`);
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(FILE));
    assert.equal(got.headers.get('content-length'), String(FILE.length));
    assert.match(got.headers.get('etag') ?? '', /^"[^"]+"$/);
    assert.equal(got.headers.get('accept-ranges'), 'bytes');
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    const disposition = got.headers.get('content-disposition') ?? '';
    assert.match(disposition, /^attachment;/);
    const star = /filename\*=UTF-8''([^;\s]+)/.exec(disposition);
    assert.ok(star, disposition);
    assert.equal(decodeURIComponent(star[1]!), FILE_NAME);
    // The same ETag as the owner's own download of the same version.
    const own = await fetch(`${t.api}/nodes/${ids.report}/download`, { headers: { authorization: `Bearer ${owner.access}` } });
    await own.arrayBuffer();
    assert.equal(own.headers.get('etag'), got.headers.get('etag'));
  });

  test('Range requests through a link answer 206 with exactly those bytes, and an unsatisfiable range 416', async () => {
    const N = FILE.length;
    const head = await get(`/s/${fileLink.token}/download`, { Range: 'bytes=0-99' });
    assert.equal(head.status, 206);
    assert.equal(head.headers.get('content-range'), `bytes 0-99/${N}`);
    assert.equal(head.headers.get('content-length'), '100');
    assert.ok(head.body.equals(FILE.subarray(0, 100)));
    const middle = await get(`/s/${fileLink.token}/download`, { Range: 'bytes=1000-2999' });
    assert.equal(middle.status, 206);
    assert.ok(middle.body.equals(FILE.subarray(1000, 3000)));
    const tail = await get(`/s/${fileLink.token}/download`, { Range: 'bytes=-10' });
    assert.equal(tail.status, 206);
    assert.equal(tail.headers.get('content-range'), `bytes ${N - 10}-${N - 1}/${N}`);
    assert.ok(tail.body.equals(FILE.subarray(N - 10)));
    const beyond = await get(`/s/${fileLink.token}/download`, { Range: `bytes=${N}-` });
    assertError(beyond, 416, 'invalid_range');
    assert.equal(beyond.headers.get('content-range'), `bytes */${N}`);
  });

  test('If-Range with the current ETag gives the range, with another ETag the whole file', async () => {
    const full = await get(`/s/${fileLink.token}/download`, { Range: 'bytes=0-0' });
    const etag = full.headers.get('etag')!;
    const same = await get(`/s/${fileLink.token}/download`, { Range: 'bytes=10-19', 'If-Range': etag });
    assert.equal(same.status, 206);
    assert.ok(same.body.equals(FILE.subarray(10, 20)));
    const changed = await get(`/s/${fileLink.token}/download`, { Range: 'bytes=10-19', 'If-Range': '"something-else"' });
    assert.equal(changed.status, 200);
    assert.ok(changed.body.equals(FILE));
  });

  test('a file link opens that file only: ?node_id= of another file of the owner answers 404', async () => {
    assertError(await get(`/s/${fileLink.token}/download?node_id=${ids.secret}`), 404, 'not_found');
    assertError(await get(`/s/${fileLink.token}/download?node_id=${ids.a}`), 404, 'not_found');
    assertError(await get(`/s/${fileLink.token}/thumbnail?node_id=${ids.secret}`), 404, 'not_found');
    const self = await get(`/s/${fileLink.token}/download?node_id=${ids.report}`);
    assert.equal(self.status, 200);
    assert.ok(self.body.equals(FILE));
  });
});

describe('a folder link', () => {
  const childrenOf = async (query = ''): Promise<any[]> => {
    const items: any[] = [];
    let cursor: string | null = null;
    for (let guard = 0; guard < 50; guard++) {
      const sep = query ? '&' : '';
      const got = await get(`/s/${folderLink.token}/children?${query}${cursor ? `${sep}cursor=${cursor}` : ''}`);
      assert.equal(got.status, 200, got.body.toString());
      items.push(...got.json.items);
      cursor = got.json.next_cursor;
      if (cursor === null) return items;
    }
    throw new Error('paging did not end');
  };

  test('/children lists the shared folder, folders first, paged with limit and cursor', async () => {
    const all = await get(`/s/${folderLink.token}/children`);
    assert.equal(all.status, 200);
    assert.equal(all.json.next_cursor, null);
    assert.deepEqual(
      all.json.items.map((n: any) => n.name),
      ['Sub', 'Zed', 'a.txt', 'b.txt', 'c.txt'],
    );
    assert.deepEqual(
      all.json.items.map((n: any) => n.type),
      ['folder', 'folder', 'file', 'file', 'file'],
    );
    for (const item of all.json.items) assert.equal(item.parent_id, ids.album);

    const first = await get(`/s/${folderLink.token}/children?limit=2`);
    assert.equal(first.json.items.length, 2);
    assert.equal(typeof first.json.next_cursor, 'string');
    const paged = await childrenOf('limit=2');
    assert.deepEqual(
      paged.map((n) => n.id),
      all.json.items.map((n: any) => n.id),
    );
    // Sorting still keeps folders above files.
    const bySizeDesc = await childrenOf('sort=size&order=desc');
    assert.deepEqual(
      bySizeDesc.map((n) => n.type),
      ['folder', 'folder', 'file', 'file', 'file'],
    );
    assert.deepEqual(
      bySizeDesc.slice(2).map((n) => n.name),
      ['c.txt', 'b.txt', 'a.txt'],
    );
  });

  test('/children?parent_id= lists any descendant folder, and the shared folder itself', async () => {
    const sub = await childrenOf(`parent_id=${ids.sub}`);
    assert.deepEqual(
      sub.map((n) => n.id),
      [ids.deep],
    );
    assert.deepEqual(await childrenOf(`parent_id=${ids.zed}`), []);
    const self = await childrenOf(`parent_id=${ids.album}`);
    assert.equal(self.length, 5);
  });

  test("/children never reaches outside the shared folder: a sibling folder, the parent, another account's folder or an unknown id answer 404", async () => {
    for (const [what, id] of [
      ['sibling', ids.private],
      ['parent', ids.family],
      ['stranger', strangerFolder],
      ['unknown', '01HZZZZZZZZZZZZZZZZZZZZZZZ'],
    ] as const) {
      assertError(await get(`/s/${folderLink.token}/children?parent_id=${id}`), 404, 'not_found', what);
    }
    // A file link has no children outside its file either.
    assertError(await get(`/s/${fileLink.token}/children?parent_id=${ids.album}`), 404, 'not_found');
  });

  test('/children of a file inside the shared folder is refused with 400', async () => {
    assertError(await get(`/s/${folderLink.token}/children?parent_id=${ids.a}`), 400, 'invalid_input');
  });

  test('/download?node_id= gives a file inside the shared folder (at any depth), and one outside answers 404', async () => {
    const deep = await get(`/s/${folderLink.token}/download?node_id=${ids.deep}`);
    assert.equal(deep.status, 200);
    assert.ok(deep.body.equals(DEEP));
    const ranged = await get(`/s/${folderLink.token}/download?node_id=${ids.deep}`, { Range: 'bytes=0-3' });
    assert.equal(ranged.status, 206);
    assert.ok(ranged.body.equals(DEEP.subarray(0, 4)));
    assertError(await get(`/s/${folderLink.token}/download?node_id=${ids.secret}`), 404, 'not_found', 'sibling file');
    assertError(await get(`/s/${folderLink.token}/download?node_id=${ids.report}`), 404, 'not_found', 'top-level file');
    assertError(await get(`/s/${folderLink.token}/download?node_id=01HZZZZZZZZZZZZZZZZZZZZZZZ`), 404, 'not_found', 'unknown');
  });

  test('/download of the folder itself is refused with 400 (folders are not files)', async () => {
    assertError(await get(`/s/${folderLink.token}/download`), 400, 'invalid_input');
  });

  test('a file moved out of the shared folder is out of the link at once', async () => {
    const moving = await uploadFile(t.api, owner.access, Buffer.from('moving'), { filename: 'moving.txt', parentId: ids.sub });
    assert.equal((await get(`/s/${folderLink.token}/download?node_id=${moving}`)).status, 200);
    const moved = await t.client.patch(`/nodes/${moving}`, { parent_id: ids.private }, { token: owner.access });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assertError(await get(`/s/${folderLink.token}/download?node_id=${moving}`), 404, 'not_found');
  });
});

describe('thumbnails', () => {
  test('/thumbnail answers 404 no_thumbnail for the shared node and a node inside, while the link checks still apply', async () => {
    assertError(await get(`/s/${fileLink.token}/thumbnail`), 404, 'no_thumbnail');
    assertError(await get(`/s/${folderLink.token}/thumbnail?node_id=${ids.a}`), 404, 'no_thumbnail');
    assertError(await get(`/s/${folderLink.token}/thumbnail?node_id=${ids.secret}`), 404, 'not_found', 'outside');
    const expired = await share(ids.report, { expires_at: Date.now() - 1000 });
    assertError(await get(`/s/${expired.token}/thumbnail`), 410, 'share_expired');
    assertError(await get(`/s/${crypto.randomBytes(32).toString('base64url')}/thumbnail`), 404, 'not_found');
    const locked = await share(ids.report, { password: 'thumbnail-pass' });
    assertError(await get(`/s/${locked.token}/thumbnail`), 401, 'share_password_required');
  });
});

describe('link states', () => {
  test('an expired link answers 410 share_expired on every public route, unlock included', async () => {
    const expired = await share(ids.album, { expires_at: Date.now() - 1000 });
    for (const route of everyRoute(expired.token)) assertError(await get(route), 410, 'share_expired', route);
    assertError(await get(`/s/${expired.token}/children?parent_id=${ids.sub}`), 410, 'share_expired');
    assertError(await get(`/s/${expired.token}/download?node_id=${ids.deep}`), 410, 'share_expired');
    const protectedExpired = await share(ids.album, { expires_at: Date.now() - 1000, password: 'expired-password' });
    assertError(await unlock(protectedExpired.token, 'expired-password'), 410, 'share_expired');
    for (const route of everyRoute(protectedExpired.token)) assertError(await get(route), 410, 'share_expired', route);
  });

  test('a revoked link and an unknown token answer 404 not_found on every public route, unlock included', async () => {
    const revoked = await share(ids.album, { password: 'revoked-password' });
    assert.equal((await unlock(revoked.token, 'revoked-password')).status, 200);
    assert.equal((await t.client.delete(`/shares/${revoked.id}`, { token: owner.access })).status, 204);
    const unknown = crypto.randomBytes(32).toString('base64url');
    for (const token of [revoked.token, unknown]) {
      for (const route of everyRoute(token)) assertError(await get(route), 404, 'not_found', route);
      assertError(await get(`/s/${token}/download?node_id=${ids.deep}`), 404, 'not_found');
      assertError(await unlock(token, 'revoked-password'), 404, 'not_found', 'unlock');
    }
  });

  test('malformed tokens answer 404 not_found on every public route', async () => {
    const malformed = [
      'x',
      'short-token',
      fileLink.token.slice(0, -1),
      `${fileLink.token}A`,
      fileLink.token.toUpperCase() === fileLink.token ? fileLink.token.toLowerCase() : fileLink.token.toUpperCase(),
      encodeURIComponent(`${fileLink.token.slice(0, 20)}/../${fileLink.token.slice(20)}`),
      encodeURIComponent('../../nodes'),
      '%00',
      encodeURIComponent(`${fileLink.token}'--`),
      'A'.repeat(150),
      'A'.repeat(250),
    ];
    for (const token of malformed) {
      for (const route of everyRoute(token)) assertError(await get(route), 404, 'not_found', route.slice(0, 80));
    }
  });

  test('neither the share id, the stored token hash nor the salt opens a link: only the token itself does', async () => {
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
    let row: { token_hash: string; salt: string };
    try {
      row = db.prepare('SELECT token_hash, salt FROM shares WHERE id = ?').get(fileLink.id) as typeof row;
    } finally {
      db.close();
    }
    for (const token of [fileLink.id, row.token_hash, row.salt]) {
      assertError(await get(`/s/${token}`), 404, 'not_found', token);
      assertError(await get(`/s/${token}/download`), 404, 'not_found', token);
    }
    assert.equal((await get(`/s/${fileLink.token}`)).status, 200);
  });

  test('allow_download false answers 403 download_disabled on /download while GET /s/{token} and /children still work', async () => {
    const link = await share(ids.album, { allow_download: false });
    const info = await get(`/s/${link.token}`);
    assert.equal(info.status, 200);
    assert.equal(info.json.allow_download, false);
    const children = await get(`/s/${link.token}/children`);
    assert.equal(children.status, 200);
    assert.equal(children.json.items.length, 5);
    assert.equal((await get(`/s/${link.token}/children?parent_id=${ids.sub}`)).status, 200);
    assertError(await get(`/s/${link.token}/download?node_id=${ids.a}`), 403, 'download_disabled');
    assertError(await get(`/s/${link.token}/download?node_id=${ids.deep}`, { Range: 'bytes=0-1' }), 403, 'download_disabled');
    const fileOnly = await share(ids.report, { allow_download: false });
    assertError(await get(`/s/${fileOnly.token}/download`), 403, 'download_disabled');
    // Switching it on again opens the download under the same URL.
    await patchLink(fileOnly.id, { allow_download: true });
    const now = await get(`/s/${fileOnly.token}/download`);
    assert.equal(now.status, 200);
    assert.ok(now.body.equals(FILE));
    // And off again closes it.
    await patchLink(fileOnly.id, { allow_download: false });
    assertError(await get(`/s/${fileOnly.token}/download`), 403, 'download_disabled');
  });
});

describe('password-protected links', () => {
  const PASSWORD = 'correct horse battery';
  let link: any;
  before(async () => {
    link = await share(ids.album, { password: PASSWORD });
  });

  test('a password-protected link answers 401 share_password_required on every public route until unlocked', async () => {
    for (const route of everyRoute(link.token)) assertError(await get(route), 401, 'share_password_required', route);
    assertError(await get(`/s/${link.token}/download?node_id=${ids.a}`), 401, 'share_password_required');
    assertError(await get(`/s/${link.token}/children?parent_id=${ids.sub}`), 401, 'share_password_required');
    for (const grant of ['garbage', 'a.b.c.d', `${link.id}.0.${Date.now() + 3_600_000}.forged`]) {
      assertError(await get(`/s/${link.token}`, { 'X-Share-Grant': grant }), 401, 'share_password_required', grant);
      assertError(await get(`/s/${link.token}?grant=${encodeURIComponent(grant)}`), 401, 'share_password_required', grant);
    }
  });

  test('POST /s/{token}/unlock with the right password answers {grant, expires_at}; the grant works as ?grant= and as X-Share-Grant on every route', async () => {
    const got = await unlock(link.token, PASSWORD);
    assert.equal(got.status, 200, got.body.toString());
    assert.deepEqual(Object.keys(got.json).sort(), ['expires_at', 'grant']);
    assert.equal(typeof got.json.grant, 'string');
    assert.ok(got.json.grant.length >= 20);
    assert.ok(!got.json.grant.includes(PASSWORD));
    assert.ok(Number.isInteger(got.json.expires_at) && got.json.expires_at > Date.now());
    const grant = got.json.grant as string;

    const viaQuery = await get(`/s/${link.token}?grant=${encodeURIComponent(grant)}`);
    assert.equal(viaQuery.status, 200, viaQuery.body.toString());
    assert.equal(viaQuery.json.node.id, ids.album);
    const viaHeader = await get(`/s/${link.token}`, { 'X-Share-Grant': grant });
    assert.equal(viaHeader.status, 200);

    const children = await get(`/s/${link.token}/children?parent_id=${ids.sub}&grant=${encodeURIComponent(grant)}`);
    assert.equal(children.status, 200);
    assert.deepEqual(
      children.json.items.map((n: any) => n.id),
      [ids.deep],
    );
    assert.equal((await get(`/s/${link.token}/children`, { 'X-Share-Grant': grant })).status, 200);

    const download = await get(`/s/${link.token}/download?node_id=${ids.deep}&grant=${encodeURIComponent(grant)}`);
    assert.equal(download.status, 200);
    assert.ok(download.body.equals(DEEP));
    const ranged = await get(`/s/${link.token}/download?node_id=${ids.deep}`, { 'X-Share-Grant': grant, Range: 'bytes=5-10' });
    assert.equal(ranged.status, 206);
    assert.ok(ranged.body.equals(DEEP.subarray(5, 11)));
    assertError(await get(`/s/${link.token}/thumbnail?node_id=${ids.a}`, { 'X-Share-Grant': grant }), 404, 'no_thumbnail');
  });

  test('a grant opens only the link it was issued for', async () => {
    const other = await share(ids.album, { password: PASSWORD });
    const grant = (await unlock(link.token, PASSWORD)).json.grant as string;
    assertError(await get(`/s/${other.token}`, { 'X-Share-Grant': grant }), 401, 'share_password_required');
    assertError(
      await get(`/s/${other.token}/download?node_id=${ids.a}&grant=${encodeURIComponent(grant)}`),
      401,
      'share_password_required',
    );
  });

  test('a wrong password answers 403 wrong_password and gives no grant', async () => {
    const wrong = await unlock(link.token, 'not the password');
    assertError(wrong, 403, 'wrong_password');
    assert.equal(wrong.json.grant, undefined);
    assertError(await unlock(link.token, ''), 403, 'wrong_password');
  });

  test('changing the password via PATCH voids existing grants (401 again); the new password unlocks, the old one does not', async () => {
    const own = await share(ids.album, { password: 'first-password' });
    const grant = (await unlock(own.token, 'first-password')).json.grant as string;
    assert.equal((await get(`/s/${own.token}`, { 'X-Share-Grant': grant })).status, 200);
    // A change that leaves the password alone keeps grants.
    await patchLink(own.id, { allow_download: false });
    assert.equal((await get(`/s/${own.token}`, { 'X-Share-Grant': grant })).status, 200);

    await patchLink(own.id, { password: 'second-password' });
    for (const route of everyRoute(own.token, `grant=${encodeURIComponent(grant)}`)) {
      assertError(await get(route), 401, 'share_password_required', route);
    }
    assertError(await unlock(own.token, 'first-password'), 403, 'wrong_password');
    const fresh = (await unlock(own.token, 'second-password')).json.grant as string;
    assert.equal((await get(`/s/${own.token}`, { 'X-Share-Grant': fresh })).status, 200);

    // Setting the same password again still voids what was issued before.
    await patchLink(own.id, { password: 'second-password' });
    assertError(await get(`/s/${own.token}`, { 'X-Share-Grant': fresh }), 401, 'share_password_required');
  });

  test('removing the password opens the link to everyone; adding one back closes it, old grants included', async () => {
    const own = await share(ids.report, { password: 'removable-pass' });
    const grant = (await unlock(own.token, 'removable-pass')).json.grant as string;
    await patchLink(own.id, { password: null });
    assert.equal((await get(`/s/${own.token}`)).status, 200);
    await patchLink(own.id, { password: 'removable-pass' });
    assertError(await get(`/s/${own.token}`), 401, 'share_password_required');
    assertError(await get(`/s/${own.token}`, { 'X-Share-Grant': grant }), 401, 'share_password_required');
  });

  test('a revoked or expired link refuses a grant issued while it was open', async () => {
    const own = await share(ids.report, { password: 'soon-revoked-1' });
    const grant = (await unlock(own.token, 'soon-revoked-1')).json.grant as string;
    await patchLink(own.id, { expires_at: Date.now() - 1000 });
    assertError(await get(`/s/${own.token}`, { 'X-Share-Grant': grant }), 410, 'share_expired');
    await patchLink(own.id, { expires_at: null });
    assert.equal((await get(`/s/${own.token}`, { 'X-Share-Grant': grant })).status, 200);
    assert.equal((await t.client.delete(`/shares/${own.id}`, { token: owner.access })).status, 204);
    assertError(await get(`/s/${own.token}/download`, { 'X-Share-Grant': grant }), 404, 'not_found');
  });
});

describe('wrong passwords are rate limited', () => {
  let rl: TestServer;
  let rlOwner: SignedIn;
  let fileId: string;
  before(async () => {
    rl = await startTestServer();
    rlOwner = await setupOwner(rl.client);
    fileId = await uploadFile(rl.api, rlOwner.access, Buffer.from('rate limited'), { filename: 'rl.txt' });
  });
  after(() => rl.close());

  /** POST /s/{token}/unlock from a chosen loopback address (the limiter counts per address). */
  function unlockFrom(localAddress: string, token: string, password: string): Promise<Got> {
    const url = new URL(`${rl.api}/s/${token}/unlock`);
    const payload = JSON.stringify({ password });
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          localAddress,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const body = Buffer.concat(chunks);
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') headers.set(k, v);
            resolve({ status: res.statusCode!, headers, body, json: body.length ? JSON.parse(body.toString()) : undefined });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  test('after 10 wrong passwords from one address, that address gets 429 rate_limited with Retry-After for that link, even with the right password', async () => {
    const link = await share(fileId, { password: 'the-right-one' }, rl, rlOwner);
    const early = await unlockFrom('127.0.0.1', link.token, 'the-right-one');
    assert.equal(early.status, 200);
    const grant = early.json.grant as string;
    for (let i = 1; i <= 10; i++)
      assertError(await unlockFrom('127.0.0.1', link.token, `wrong guess ${i}`), 403, 'wrong_password', `guess ${i}`);
    const limited = await unlockFrom('127.0.0.1', link.token, 'wrong guess 11');
    assertError(limited, 429, 'rate_limited');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 15 * 60,
      `Retry-After ${limited.headers.get('retry-after')}`,
    );
    const right = await unlockFrom('127.0.0.1', link.token, 'the-right-one');
    assertError(right, 429, 'rate_limited');
    assert.ok(right.headers.get('retry-after'));
    assert.equal(right.json.grant, undefined);
    assert.equal(right.headers.get('referrer-policy'), 'no-referrer');
    // A visitor who unlocked before keeps reading; the limit is on guessing only.
    const info = await fetch(`${rl.api}/s/${link.token}`, { headers: { 'X-Share-Grant': grant } });
    assert.equal(info.status, 200);
    // Per link and address: another visitor opens this link (lockout.test.ts, issue 12 finding 14),
    // and this address opens another link.
    const other = await share(fileId, { password: 'other-right-one' }, rl, rlOwner);
    const fine = await unlockFrom('127.0.0.1', other.token, 'other-right-one');
    assert.equal(fine.status, 200, fine.body.toString());
    assert.ok(fine.json.grant);
  });
});

describe('a share token is never a personal token', () => {
  test('a share token as Authorization: Bearer on GET /me and GET /nodes/{id}, or as ?access_token= on /nodes/{id}/download, answers 401', async () => {
    for (const link of [fileLink, folderLink]) {
      const bearer = { authorization: `Bearer ${link.token}` };
      assert.equal((await get('/me', bearer)).status, 401);
      assert.equal((await get(`/nodes/${link.node_id}`, bearer)).status, 401);
      assert.equal((await get(`/nodes/${ids.report}/download`, bearer)).status, 401);
      assert.equal((await get(`/nodes/${ids.report}/download?access_token=${link.token}`)).status, 401);
      assert.equal((await get('/nodes?parent_id=root', bearer)).status, 401);
      assert.equal((await get('/shares', bearer)).status, 401);
    }
    // The owner's own tokens work on the same routes (the 401s above are about the token).
    assert.equal((await get(`/nodes/${ids.report}/download`, { authorization: `Bearer ${owner.access}` })).status, 200);
    const minted = await fetch(`${t.api}/nodes/${ids.report}/access-token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.access}` },
    });
    const { access_token } = (await minted.json()) as { access_token: string };
    assert.equal((await get(`/nodes/${ids.report}/download?access_token=${encodeURIComponent(access_token)}`)).status, 200);
  });

  test('an unlock grant is not a personal token either (401)', async () => {
    const link = await share(ids.report, { password: 'grant-not-token' });
    const grant = (await unlock(link.token, 'grant-not-token')).json.grant as string;
    assert.equal((await get('/me', { authorization: `Bearer ${grant}` })).status, 401);
    assert.equal((await get(`/nodes/${ids.report}`, { authorization: `Bearer ${grant}` })).status, 401);
    assert.equal((await get(`/nodes/${ids.report}/download?access_token=${encodeURIComponent(grant)}`)).status, 401);
    assert.equal((await get(`/nodes/${ids.report}/download`, { 'X-Share-Grant': grant })).status, 401);
  });

  test("a share token does not open the owner's nodes as a link to something else", async () => {
    // A folder link's token used as the token of a node outside the folder: nothing there.
    assertError(await get(`/s/${folderLink.token}/download?node_id=${ids.report}`), 404, 'not_found');
    assertError(await get(`/s/${folderLink.token}/children?parent_id=${ids.family}`), 404, 'not_found');
  });
});

describe('revocation mid-download', () => {
  test('a download already under way through a link stops at the next range request once the link is revoked (404)', async () => {
    const SIZE = 8 * 1024 * 1024;
    const CHUNK = 2 * 1024 * 1024;
    const big = crypto.randomBytes(SIZE);
    const id = await uploadFile(t.api, owner.access, big, { filename: 'big.bin' });
    const link = await share(id);
    const first = await get(`/s/${link.token}/download`, { Range: `bytes=0-${CHUNK - 1}` });
    assert.equal(first.status, 206);
    assert.equal(first.headers.get('content-range'), `bytes 0-${CHUNK - 1}/${SIZE}`);
    assert.ok(first.body.equals(big.subarray(0, CHUNK)));
    const etag = first.headers.get('etag')!;
    const second = await get(`/s/${link.token}/download`, { Range: `bytes=${CHUNK}-${2 * CHUNK - 1}`, 'If-Range': etag });
    assert.equal(second.status, 206);
    assert.ok(second.body.equals(big.subarray(CHUNK, 2 * CHUNK)));

    assert.equal((await t.client.delete(`/shares/${link.id}`, { token: owner.access })).status, 204);
    const third = await get(`/s/${link.token}/download`, { Range: `bytes=${2 * CHUNK}-${3 * CHUNK - 1}`, 'If-Range': etag });
    assertError(third, 404, 'not_found');
    assertError(await get(`/s/${link.token}/download`, { Range: `bytes=${3 * CHUNK}-` }), 404, 'not_found');
    // The owner still downloads it.
    const own = await fetch(`${t.api}/nodes/${id}/download`, {
      headers: { authorization: `Bearer ${owner.access}`, Range: `bytes=${2 * CHUNK}-${2 * CHUNK + 9}` },
    });
    assert.equal(own.status, 206);
    assert.ok(Buffer.from(await own.arrayBuffer()).equals(big.subarray(2 * CHUNK, 2 * CHUNK + 10)));
  });

  test('switching downloads off or expiring the link also stops the next range request', async () => {
    const link = await share(ids.report);
    assert.equal((await get(`/s/${link.token}/download`, { Range: 'bytes=0-99' })).status, 206);
    await patchLink(link.id, { allow_download: false });
    assertError(await get(`/s/${link.token}/download`, { Range: 'bytes=100-199' }), 403, 'download_disabled');
    await patchLink(link.id, { allow_download: true, expires_at: Date.now() - 1 });
    assertError(await get(`/s/${link.token}/download`, { Range: 'bytes=100-199' }), 410, 'share_expired');
  });
});

describe('headers of public responses', () => {
  test('every public response carries Referrer-Policy: no-referrer (successes, ranges and errors alike)', async () => {
    const locked = await share(ids.report, { password: 'referrer-pass' });
    const expired = await share(ids.report, { expires_at: Date.now() - 1000 });
    const responses: [string, Got][] = [
      ['info', await get(`/s/${fileLink.token}`)],
      ['head info', await get(`/s/${fileLink.token}`, {}, 'HEAD')],
      ['children', await get(`/s/${folderLink.token}/children`)],
      ['download', await get(`/s/${fileLink.token}/download`)],
      ['range', await get(`/s/${fileLink.token}/download`, { Range: 'bytes=0-9' })],
      ['416', await get(`/s/${fileLink.token}/download`, { Range: `bytes=${FILE.length}-` })],
      ['thumbnail', await get(`/s/${fileLink.token}/thumbnail`)],
      ['outside', await get(`/s/${folderLink.token}/download?node_id=${ids.secret}`)],
      ['unknown', await get(`/s/${crypto.randomBytes(32).toString('base64url')}`)],
      ['malformed', await get('/s/x/download')],
      ['expired', await get(`/s/${expired.token}/children`)],
      ['locked', await get(`/s/${locked.token}/download`)],
      ['unlock wrong', await unlock(locked.token, 'not-the-one')],
      ['unlock right', await unlock(locked.token, 'referrer-pass')],
    ];
    for (const [what, got] of responses) {
      assert.equal(got.headers.get('referrer-policy'), 'no-referrer', what);
    }
    // And the statuses are what each of those is.
    assert.deepEqual(
      responses.map(([, got]) => got.status),
      [200, 200, 200, 200, 206, 416, 404, 404, 404, 404, 410, 401, 403, 200],
    );
  });
});
