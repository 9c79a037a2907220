import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { assertError } from '../../helpers/assert.ts';

const LINK_FIELDS = [
  'active',
  'album_id',
  'allow_download',
  'created_at',
  'expires_at',
  'id',
  'node_id',
  'password_protected',
  'token',
  'url',
];

let t: TestServer;
let owner: SignedIn;
let viewer: SignedIn;
let editor: SignedIn;
let stranger: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  viewer = await createMember(t.client, owner, 'viewer');
  editor = await createMember(t.client, owner, 'editor');
  stranger = await createMember(t.client, owner, 'stranger');
});
after(() => t.close());

let names = 0;
const unique = (base: string) => `${base} ${++names}`;

async function mkdir(who: SignedIn, name: string, parentId?: string): Promise<any> {
  const res = await t.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

function upload(who: SignedIn, data: string, parentId?: string): Promise<string> {
  return uploadFile(t.api, who.access, Buffer.from(data), { filename: unique('file') + '.txt', ...(parentId && { parentId }) });
}

async function share(who: SignedIn, nodeId: string, body: object = {}, headers: Record<string, string> = {}): Promise<any> {
  const res = await t.client.post(`/nodes/${nodeId}/share`, body, { token: who.access, headers });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function grant(nodeId: string, who: SignedIn, role: 'viewer' | 'editor'): Promise<void> {
  const res = await t.client.post(`/nodes/${nodeId}/permissions`, { user_id: who.userId, role }, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

async function linksOf(who: SignedIn, nodeId: string): Promise<any[]> {
  const res = await t.client.get(`/nodes/${nodeId}/shares`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

/** Every link of mine, following the cursor. */
async function allMyLinks(who: SignedIn, limit = 100): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const res: ApiResponse = await t.client.get(`/shares?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token: who.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error('paging did not end');
}

/** The public view of a link, with no account. */
const publicInfo = (token: string) => t.client.get(`/s/${token}`);

/** Reads every row of every table of the server's database (read-only, while it runs). */
function everyValue(tables?: string[]): { table: string; value: string }[] {
  const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
  try {
    const names =
      tables ?? (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name);
    const out: { table: string; value: string }[] = [];
    for (const table of names) {
      for (const row of db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]) {
        for (const value of Object.values(row)) {
          if (typeof value === 'string') out.push({ table, value });
          else if (Buffer.isBuffer(value)) out.push({ table, value: value.toString('latin1') });
        }
      }
    }
    return out;
  } finally {
    db.close();
  }
}

function shareRow(id: string): Record<string, unknown> {
  const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
  try {
    const row = db.prepare('SELECT * FROM shares WHERE id = ?').get(id) as Record<string, unknown> | undefined;
    assert.ok(row, `no shares row ${id}`);
    return row;
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------------------------------------

describe('creating a link', () => {
  test('creating a link answers 201 {id, node_id, token, url ending in /s/<token>, expires_at, password_protected, allow_download (default true), active, created_at}', async () => {
    const file = await upload(owner, 'hello');
    const before = Date.now();
    const res = await t.client.post(`/nodes/${file}/share`, {}, { token: owner.access });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const link = res.body;
    assert.deepEqual(Object.keys(link).sort(), LINK_FIELDS);
    assert.equal(typeof link.id, 'string');
    assert.equal(link.node_id, file);
    assert.equal(link.album_id, null);
    assert.equal(typeof link.token, 'string');
    assert.ok(link.url.endsWith(`/s/${link.token}`), link.url);
    assert.equal(link.expires_at, null);
    assert.equal(link.password_protected, false);
    assert.equal(link.allow_download, true);
    assert.equal(link.active, true);
    assert.ok(Number.isInteger(link.created_at) && link.created_at >= before - 1000 && link.created_at <= Date.now() + 1000);
    // The public side opens it.
    const pub = await publicInfo(link.token);
    assert.equal(pub.status, 200, JSON.stringify(pub.body));
    assert.equal(pub.body.node.id, file);
  });

  test('the fields sent on create are kept: password, expiry and the download switch', async () => {
    const file = await upload(owner, 'settings');
    const expires = Date.now() + 3_600_000;
    const link = await share(owner, file, { password: 'a-long-password', expires_at: expires, allow_download: false });
    assert.equal(link.password_protected, true);
    assert.equal(link.expires_at, expires);
    assert.equal(link.allow_download, false);
    assert.equal(link.active, true);
    assertError(await publicInfo(link.token), 401, 'share_password_required');
  });

  test('a token carries at least 128 bits (base64url of 32 bytes: 43 characters) and two links on the same node differ', async () => {
    const file = await upload(owner, 'random');
    const a = await share(owner, file);
    const b = await share(owner, file);
    for (const link of [a, b]) {
      assert.match(link.token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(Buffer.from(link.token, 'base64url').length, 32);
    }
    assert.notEqual(a.token, b.token);
    assert.notEqual(a.id, b.id);
    // Neither is derived from the id in an obvious way.
    assert.ok(!a.token.includes(a.id) && !b.token.includes(b.id));
  });

  test('the token is not stored in clear: no column of any row of shares contains it, and token_hash is sha256(token) in base64url', async () => {
    const file = await upload(owner, 'hashed');
    const link = await share(owner, file, { password: 'hashed-password-1' });
    const values = everyValue(['shares']);
    assert.ok(values.length > 0);
    const leaks = values.filter((v) => v.value.includes(link.token));
    assert.deepEqual(leaks, []);
    const row = shareRow(link.id);
    assert.equal(row.token_hash, crypto.createHash('sha256').update(link.token).digest('base64url'));
    // The link's password is not stored in clear either.
    assert.ok(!Object.values(row).some((v) => typeof v === 'string' && v.includes('hashed-password-1')));
  });

  test('no table of the database holds a link token in clear, not even the record of an Idempotency-Key create', async () => {
    const file = await upload(owner, 'nowhere');
    const plain = await share(owner, file);
    const keyed = await share(owner, file, {}, { 'Idempotency-Key': `nowhere-${crypto.randomUUID()}` });
    const values = everyValue();
    for (const link of [plain, keyed]) {
      const leaks = values.filter((v) => v.value.includes(link.token)).map((v) => v.table);
      assert.deepEqual(leaks, [], `token of ${link.id} found in ${leaks.join(', ')}`);
    }
  });

  test('the same Idempotency-Key answers the same link (Idempotent-Replayed) and GET /nodes/{id}/shares lists exactly one link', async () => {
    const file = await upload(owner, 'idem');
    const key = `share-${crypto.randomUUID()}`;
    const first = await t.client.post(
      `/nodes/${file}/share`,
      { allow_download: false },
      { token: owner.access, headers: { 'Idempotency-Key': key } },
    );
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const again = await t.client.post(
      `/nodes/${file}/share`,
      { allow_download: false },
      { token: owner.access, headers: { 'Idempotency-Key': key } },
    );
    assert.equal(again.status, 201, JSON.stringify(again.body));
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    const links = await linksOf(owner, file);
    assert.equal(links.length, 1);
    assert.equal(links[0].id, first.body.id);
    assert.equal(links[0].token, first.body.token);
    // The replayed token is the live one.
    assert.equal((await publicInfo(again.body.token)).status, 200);
    // Another key makes another link.
    await share(owner, file, { allow_download: false }, { 'Idempotency-Key': `${key}-other` });
    assert.equal((await linksOf(owner, file)).length, 2);
  });

  test('the same Idempotency-Key with a different body answers 409 idempotency_conflict and creates nothing', async () => {
    const file = await upload(owner, 'idem conflict');
    const key = `share-${crypto.randomUUID()}`;
    await share(owner, file, {}, { 'Idempotency-Key': key });
    const other = await t.client.post(
      `/nodes/${file}/share`,
      { allow_download: false },
      { token: owner.access, headers: { 'Idempotency-Key': key } },
    );
    assertError(other, 409, 'idempotency_conflict');
    assert.equal((await linksOf(owner, file)).length, 1);
  });

  test('the owner of a trashed node cannot create a link on it (409 in_trash), nor on something inside a trashed folder', async () => {
    const folder = await mkdir(owner, unique('Trashed'));
    const inner = await upload(owner, 'inside trashed', folder.id);
    assert.equal((await t.client.delete(`/nodes/${folder.id}`, { token: owner.access })).status, 200);
    assertError(await t.client.post(`/nodes/${folder.id}/share`, {}, { token: owner.access }), 409, 'in_trash');
    assertError(await t.client.post(`/nodes/${inner}/share`, {}, { token: owner.access }), 409, 'in_trash');
    assert.deepEqual(await linksOf(owner, folder.id), []);
  });

  test('only the owner creates links: a viewer or editor grantee gets 403 forbidden, a stranger 404, no account 401', async () => {
    const folder = await mkdir(owner, unique('Create rights'));
    await grant(folder.id, viewer, 'viewer');
    await grant(folder.id, editor, 'editor');
    assertError(await t.client.post(`/nodes/${folder.id}/share`, {}, { token: viewer.access }), 403, 'forbidden');
    assertError(await t.client.post(`/nodes/${folder.id}/share`, {}, { token: editor.access }), 403, 'forbidden');
    assertError(await t.client.post(`/nodes/${folder.id}/share`, {}, { token: stranger.access }), 404, 'not_found');
    assert.equal((await t.client.post(`/nodes/${folder.id}/share`, {})).status, 401);
    assert.deepEqual(await linksOf(owner, folder.id), []);
  });

  test('a weak password (fewer than 10 characters) is refused with 400 weak_password and no link is made', async () => {
    const file = await upload(owner, 'weak');
    assertError(await t.client.post(`/nodes/${file}/share`, { password: 'short' }, { token: owner.access }), 400, 'weak_password');
    assertError(await t.client.post(`/nodes/${file}/share`, { password: '123456789' }, { token: owner.access }), 400, 'weak_password');
    assert.deepEqual(await linksOf(owner, file), []);
    const ok = await share(owner, file, { password: '1234567890' });
    assert.equal(ok.password_protected, true);
  });

  test('a link created with an expires_at in the past is expired at once (inactive, public 410 share_expired)', async () => {
    const file = await upload(owner, 'born expired');
    const link = await share(owner, file, { expires_at: Date.now() - 60_000 });
    assert.equal(link.active, false);
    assertError(await publicInfo(link.token), 410, 'share_expired');
  });
});

describe('listing links', () => {
  test('GET /nodes/{id}/shares lists the links of a node for its owner only: a viewer or editor grantee gets 403, a stranger 404', async () => {
    const folder = await mkdir(owner, unique('Listed'));
    const other = await mkdir(owner, unique('Listed other'));
    const a = await share(owner, folder.id);
    const b = await share(owner, folder.id, { allow_download: false });
    await share(owner, other.id);
    const items = await linksOf(owner, folder.id);
    assert.deepEqual(items.map((l) => l.id).sort(), [a.id, b.id].sort());
    for (const item of items) {
      assert.deepEqual(Object.keys(item).sort(), LINK_FIELDS);
      assert.equal(item.node_id, folder.id);
    }
    // The owner's copy of the URL is the same as on create.
    const byId = new Map(items.map((l) => [l.id, l]));
    assert.equal(byId.get(a.id).token, a.token);
    assert.equal(byId.get(a.id).url, a.url);
    assert.equal(byId.get(b.id).allow_download, false);

    await grant(folder.id, viewer, 'viewer');
    await grant(folder.id, editor, 'editor');
    assertError(await t.client.get(`/nodes/${folder.id}/shares`, { token: viewer.access }), 403, 'forbidden');
    assertError(await t.client.get(`/nodes/${folder.id}/shares`, { token: editor.access }), 403, 'forbidden');
    assertError(await t.client.get(`/nodes/${folder.id}/shares`, { token: stranger.access }), 404, 'not_found');
    assert.equal((await t.client.get(`/nodes/${folder.id}/shares`)).status, 401);
  });

  test('a grantee of a folder cannot list the links of a node inside it either (403), and a node without links lists nothing', async () => {
    const folder = await mkdir(owner, unique('Inherited'));
    const inner = await upload(owner, 'inner', folder.id);
    await share(owner, inner);
    await grant(folder.id, editor, 'editor');
    assertError(await t.client.get(`/nodes/${inner}/shares`, { token: editor.access }), 403, 'forbidden');
    assert.deepEqual(await linksOf(owner, folder.id), []);
  });

  test("GET /shares lists all of my links across nodes, newest first, paged with limit and cursor, and never another account's", async () => {
    const mine = await createMember(t.client, owner, 'pager');
    const other = await createMember(t.client, owner, 'otherpager');
    const folder = await mkdir(mine, 'Mine');
    const file = await upload(mine, 'mine', folder.id);
    const created: string[] = [];
    for (const node of [folder.id, file, folder.id, file, folder.id]) created.push((await share(mine, node)).id);
    const othersFile = await upload(other, 'theirs');
    const theirs = await share(other, othersFile);

    const first = await t.client.get('/shares?limit=2', { token: mine.access });
    assert.equal(first.status, 200);
    assert.equal(first.body.items.length, 2);
    assert.equal(typeof first.body.next_cursor, 'string');

    const paged = await allMyLinks(mine, 2);
    assert.deepEqual(
      paged.map((l) => l.id),
      [...created].reverse(),
    );
    for (const link of paged) assert.deepEqual(Object.keys(link).sort(), LINK_FIELDS);
    assert.deepEqual(
      (await allMyLinks(mine)).map((l) => l.id),
      [...created].reverse(),
    );

    const theirList = await allMyLinks(other);
    assert.deepEqual(
      theirList.map((l) => l.id),
      [theirs.id],
    );
    assert.equal(theirList[0].token, theirs.token);
    assert.ok(!paged.some((l) => l.id === theirs.id));
    assert.equal((await t.client.get('/shares')).status, 401);
    assertError(await t.client.get('/shares?cursor=!!not-a-cursor', { token: mine.access }), 400, 'invalid_cursor');
  });
});

describe('changing a link', () => {
  test('PATCH changes expiry, password and download switch while the token and URL stay the same', async () => {
    const file = await upload(owner, 'patch me');
    const link = await share(owner, file);
    const expires = Date.now() + 7 * 24 * 3_600_000;

    const expiry = await t.client.patch(`/shares/${link.id}`, { expires_at: expires }, { token: owner.access });
    assert.equal(expiry.status, 200, JSON.stringify(expiry.body));
    assert.deepEqual(Object.keys(expiry.body).sort(), LINK_FIELDS);
    assert.equal(expiry.body.expires_at, expires);
    assert.equal(expiry.body.active, true);

    const download = await t.client.patch(`/shares/${link.id}`, { allow_download: false }, { token: owner.access });
    assert.equal(download.status, 200);
    assert.equal(download.body.allow_download, false);
    assert.equal(download.body.expires_at, expires, 'a PATCH leaves the fields it does not name alone');

    const password = await t.client.patch(`/shares/${link.id}`, { password: 'a-new-password-1' }, { token: owner.access });
    assert.equal(password.status, 200);
    assert.equal(password.body.password_protected, true);
    assert.equal(password.body.allow_download, false);

    for (const res of [expiry, download, password]) {
      assert.equal(res.body.id, link.id);
      assert.equal(res.body.token, link.token);
      assert.equal(res.body.url, link.url);
      assert.equal(res.body.created_at, link.created_at);
    }
    const listed = (await linksOf(owner, file)).find((l) => l.id === link.id);
    assert.equal(listed.url, link.url);
    assert.equal(listed.password_protected, true);

    // The public side sees the change under the old URL.
    assertError(await publicInfo(link.token), 401, 'share_password_required');
    const unlock = await t.client.post(`/s/${link.token}/unlock`, { password: 'a-new-password-1' });
    assert.equal(unlock.status, 200, JSON.stringify(unlock.body));
    const info = await t.client.get(`/s/${link.token}`, { headers: { 'X-Share-Grant': unlock.body.grant } });
    assert.equal(info.status, 200);
    assert.equal(info.body.allow_download, false);
    assert.equal(info.body.expires_at, expires);
  });

  test('PATCH with password null or "" removes the password and the link opens without one', async () => {
    const file = await upload(owner, 'unprotect');
    for (const removal of [null, '']) {
      const link = await share(owner, file, { password: 'protected-123' });
      assertError(await publicInfo(link.token), 401, 'share_password_required');
      const res = await t.client.patch(`/shares/${link.id}`, { password: removal }, { token: owner.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.password_protected, false);
      assert.equal(res.body.token, link.token);
      assert.equal((await publicInfo(link.token)).status, 200, `password ${JSON.stringify(removal)}`);
    }
  });

  test('PATCH with an expires_at in the past expires the link now (public 410 share_expired); expires_at null clears the expiry', async () => {
    const file = await upload(owner, 'expire me');
    const link = await share(owner, file, { expires_at: Date.now() + 3_600_000 });
    assert.equal((await publicInfo(link.token)).status, 200);
    const past = await t.client.patch(`/shares/${link.id}`, { expires_at: Date.now() - 1000 }, { token: owner.access });
    assert.equal(past.status, 200, JSON.stringify(past.body));
    assert.equal(past.body.active, false);
    assert.equal(past.body.token, link.token);
    assertError(await publicInfo(link.token), 410, 'share_expired');
    assertError(await t.client.get(`/s/${link.token}/download`), 410, 'share_expired');
    // Still the owner's link: listed, inactive, editable.
    const listed = (await linksOf(owner, file)).find((l) => l.id === link.id);
    assert.equal(listed.active, false);
    const cleared = await t.client.patch(`/shares/${link.id}`, { expires_at: null }, { token: owner.access });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.expires_at, null);
    assert.equal(cleared.body.active, true);
    assert.equal((await publicInfo(link.token)).status, 200);
  });

  test('a link with a near expiry stops working once that time has passed', async () => {
    const file = await upload(owner, 'short lived');
    const expiresAt = Date.now() + 1500;
    const link = await share(owner, file, { expires_at: expiresAt });
    assert.equal((await publicInfo(link.token)).status, 200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 100));
    assertError(await publicInfo(link.token), 410, 'share_expired');
  });

  test('PATCH with a weak password answers 400 weak_password and leaves the link as it was', async () => {
    const file = await upload(owner, 'weak patch');
    const link = await share(owner, file);
    assertError(
      await t.client.patch(`/shares/${link.id}`, { password: 'tiny', allow_download: false }, { token: owner.access }),
      400,
      'weak_password',
    );
    const listed = (await linksOf(owner, file)).find((l) => l.id === link.id);
    assert.equal(listed.password_protected, false);
    assert.equal(listed.allow_download, true);
    assert.equal((await publicInfo(link.token)).status, 200);
  });

  test('PATCH with a malformed field answers 400 invalid_input', async () => {
    const file = await upload(owner, 'bad patch');
    const link = await share(owner, file);
    assertError(await t.client.patch(`/shares/${link.id}`, { expires_at: 'tomorrow' }, { token: owner.access }), 400, 'invalid_input');
    assertError(await t.client.patch(`/shares/${link.id}`, { allow_download: 'no' }, { token: owner.access }), 400, 'invalid_input');
    assert.equal((await linksOf(owner, file)).find((l) => l.id === link.id).allow_download, true);
  });
});

describe('revoking a link', () => {
  test('DELETE /shares/{id} revokes (204): the public side answers 404, the link leaves both lists, PATCH and DELETE again answer 404', async () => {
    const file = await upload(owner, 'revoke me');
    const link = await share(owner, file);
    const keep = await share(owner, file);
    assert.equal((await publicInfo(link.token)).status, 200);
    const res = await t.client.delete(`/shares/${link.id}`, { token: owner.access });
    assert.equal(res.status, 204);
    assertError(await publicInfo(link.token), 404, 'not_found');
    assertError(await t.client.get(`/s/${link.token}/download`), 404, 'not_found');
    assert.deepEqual(
      (await linksOf(owner, file)).map((l) => l.id),
      [keep.id],
    );
    assert.ok(!(await allMyLinks(owner)).some((l) => l.id === link.id));
    assertError(await t.client.patch(`/shares/${link.id}`, { allow_download: false }, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.delete(`/shares/${link.id}`, { token: owner.access }), 404, 'not_found');
    // The other link on the same node is untouched.
    assert.equal((await publicInfo(keep.token)).status, 200);
    // A PATCH cannot bring a revoked link back.
    assertError(await publicInfo(link.token), 404, 'not_found');
  });

  test('another account cannot PATCH or DELETE my link (404), even a grantee of the node, and the link keeps working', async () => {
    const folder = await mkdir(owner, unique('Not yours'));
    const link = await share(owner, folder.id);
    await grant(folder.id, editor, 'editor');
    for (const who of [stranger, editor, viewer]) {
      assertError(await t.client.patch(`/shares/${link.id}`, { expires_at: Date.now() - 1000 }, { token: who.access }), 404, 'not_found');
      assertError(await t.client.patch(`/shares/${link.id}`, { password: null }, { token: who.access }), 404, 'not_found');
      assertError(await t.client.delete(`/shares/${link.id}`, { token: who.access }), 404, 'not_found');
    }
    assert.equal((await t.client.patch(`/shares/${link.id}`, { allow_download: false })).status, 401);
    assert.equal((await t.client.delete(`/shares/${link.id}`)).status, 401);
    const listed = (await linksOf(owner, folder.id)).find((l) => l.id === link.id);
    assert.equal(listed.active, true);
    assert.equal(listed.allow_download, true);
    assert.equal((await publicInfo(link.token)).status, 200);
  });

  test('PATCH and DELETE of an unknown share id answer 404', async () => {
    assertError(
      await t.client.patch('/shares/01HZZZZZZZZZZZZZZZZZZZZZZZ', { allow_download: false }, { token: owner.access }),
      404,
      'not_found',
    );
    assertError(await t.client.delete('/shares/01HZZZZZZZZZZZZZZZZZZZZZZZ', { token: owner.access }), 404, 'not_found');
  });
});

describe('links to trashed nodes', () => {
  test('the public routes of a link to a node that got trashed answer 404 not_found', async () => {
    const folder = await mkdir(owner, unique('Soon trashed'));
    const inner = await upload(owner, 'soon trashed inner', folder.id);
    const folderLink = await share(owner, folder.id);
    const fileLink = await share(owner, inner);
    assert.equal((await publicInfo(folderLink.token)).status, 200);
    assert.equal((await t.client.get(`/s/${fileLink.token}/download`)).status, 200);

    assert.equal((await t.client.delete(`/nodes/${folder.id}`, { token: owner.access })).status, 200);
    for (const token of [folderLink.token, fileLink.token]) {
      assertError(await publicInfo(token), 404, 'not_found');
      assertError(await t.client.get(`/s/${token}/children`), 404, 'not_found');
      assertError(await t.client.get(`/s/${token}/download`), 404, 'not_found');
      assertError(await t.client.get(`/s/${token}/thumbnail`), 404, 'not_found');
    }
    assertError(await t.client.get(`/s/${folderLink.token}/download?node_id=${inner}`), 404, 'not_found');
  });

  test('a password-protected link to a trashed node answers 404 on unlock too, with the right password or a wrong one', async () => {
    const file = await upload(owner, 'protected then trashed');
    const link = await share(owner, file, { password: 'trashed-password' });
    const early = await t.client.post(`/s/${link.token}/unlock`, { password: 'trashed-password' });
    assert.equal(early.status, 200, JSON.stringify(early.body));
    assert.equal((await t.client.delete(`/nodes/${file}`, { token: owner.access })).status, 200);
    assertError(await t.client.post(`/s/${link.token}/unlock`, { password: 'trashed-password' }), 404, 'not_found');
    assertError(await t.client.post(`/s/${link.token}/unlock`, { password: 'not-the-password' }), 404, 'not_found');
    assertError(await t.client.get(`/s/${link.token}`, { headers: { 'X-Share-Grant': early.body.grant } }), 404, 'not_found');
    // Restored, the link opens again under the same URL.
    assert.equal((await t.client.post(`/nodes/${file}/restore`, undefined, { token: owner.access })).status, 200);
    assert.equal((await t.client.get(`/s/${link.token}`, { headers: { 'X-Share-Grant': early.body.grant } })).status, 200);
  });

  test('a file trashed inside a shared folder disappears from the link while the folder stays open', async () => {
    const folder = await mkdir(owner, unique('Keeps open'));
    const kept = await upload(owner, 'kept', folder.id);
    const gone = await upload(owner, 'gone', folder.id);
    const link = await share(owner, folder.id);
    assert.equal((await t.client.delete(`/nodes/${gone}`, { token: owner.access })).status, 200);
    const children = await t.client.get(`/s/${link.token}/children`);
    assert.equal(children.status, 200);
    assert.deepEqual(
      children.body.items.map((n: any) => n.id),
      [kept],
    );
    assertError(await t.client.get(`/s/${link.token}/download?node_id=${gone}`), 404, 'not_found');
    assert.equal((await t.client.get(`/s/${link.token}/download?node_id=${kept}`)).status, 200);
  });
});
