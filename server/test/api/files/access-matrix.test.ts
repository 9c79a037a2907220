import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// Every node route against every kind of caller, with the exact status each one gets.
// The owner has folder F holding subfolder X and file Y (two versions); `viewer` and
// `editor` have grants on F; `stranger` has none; `none` sends no token; `link` sends the
// token of a public link on F as if it were a personal bearer token.

type Role = 'owner' | 'viewer' | 'editor' | 'stranger' | 'none' | 'link';
const ROLES: readonly Role[] = ['owner', 'viewer', 'editor', 'stranger', 'none', 'link'];
type Matrix = Partial<Record<Role, number | string>>;

let t: TestServer;
let owner: SignedIn;
let viewer: SignedIn;
let editor: SignedIn;
let stranger: SignedIn;
let extra: SignedIn;
let linkToken: string;
let F: string;
let X: string;
let Y: string;
/** The ids of Y's two versions, oldest first. */
let versionIds: string[];

function tokenOf(role: Role): string | undefined {
  switch (role) {
    case 'owner':
      return owner.access;
    case 'viewer':
      return viewer.access;
    case 'editor':
      return editor.access;
    case 'stranger':
      return stranger.access;
    case 'none':
      return undefined;
    case 'link':
      return linkToken;
  }
}

/**
 * One request as `role`. Answers the status, or "status code" when a 403 or 404 carries
 * another code than forbidden / not_found, so a matrix comparison shows both.
 */
async function call(
  role: Role,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<number | string> {
  const all: Record<string, string> = { ...headers };
  const token = tokenOf(role);
  if (token !== undefined) all.authorization = `Bearer ${token}`;
  if (body !== undefined) all['content-type'] = 'application/json';
  const res = await fetch(t.api + path, { method, headers: all, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  const expectedCode = res.status === 403 ? 'forbidden' : res.status === 404 ? 'not_found' : null;
  if (expectedCode) {
    const code = text === '' ? '(empty)' : (JSON.parse(text) as { error?: { code?: string } }).error?.code;
    if (code !== expectedCode) return `${res.status} ${code}`;
  }
  if (res.status === 401) {
    const parsed = text === '' ? null : (JSON.parse(text) as { error?: { code?: string } });
    if (typeof parsed?.error?.code !== 'string') return '401 without the error envelope';
  }
  return res.status;
}

/** Runs `request` for each role in order and returns what each got. */
async function matrix(roles: readonly Role[], request: (role: Role) => Promise<number | string>): Promise<Matrix> {
  const got: Matrix = {};
  for (const role of roles) got[role] = await request(role);
  return got;
}

function expect(roles: readonly Role[], statuses: readonly number[]): Matrix {
  assert.equal(roles.length, statuses.length);
  return Object.fromEntries(roles.map((r, i) => [r, statuses[i]!]));
}

let counter = 0;
const unique = (prefix: string) => `${prefix} ${++counter}`;

async function folderIn(parentId: string, name = unique('Fresh')): Promise<string> {
  const res = await t.client.post('/nodes/folder', { name, parent_id: parentId }, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  viewer = await createMember(t.client, owner, 'viewer');
  editor = await createMember(t.client, owner, 'editor');
  stranger = await createMember(t.client, owner, 'stranger');
  extra = await createMember(t.client, owner, 'extra');
  F = await folderIn('root', 'F');
  X = await folderIn(F, 'X');
  Y = await uploadFile(t.api, owner.access, Buffer.from('version one'), { filename: 'Y.txt', parentId: F });
  assert.equal(await uploadFile(t.api, owner.access, Buffer.from('version two!'), { nodeId: Y }), Y);
  const versions = await t.client.get(`/nodes/${Y}/versions`, { token: owner.access });
  assert.equal(versions.status, 200);
  versionIds = [...versions.body.items].sort((a: any, b: any) => a.version - b.version).map((v: any) => v.id);
  assert.equal(versionIds.length, 2);
  for (const [who, role] of [
    [viewer, 'viewer'],
    [editor, 'editor'],
  ] as const) {
    const res = await t.client.post(`/nodes/${F}/permissions`, { user_id: who.userId, role }, { token: owner.access });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const link = await t.client.post(`/nodes/${F}/share`, {}, { token: owner.access });
  assert.equal(link.status, 201, JSON.stringify(link.body));
  linkToken = link.body.token;
  // The link works where it belongs: its refusal below is about where it is used, not a dead token.
  assert.equal((await t.client.get(`/s/${linkToken}`)).status, 200);
});
after(() => t.close());

describe('access matrix: owner / viewer / editor / stranger / no token / share-link token', () => {
  test('GET /nodes/{Y}: 200/200/200/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${Y}`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
  });

  test('GET /nodes/{Y}/path: 200/200/200/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${Y}/path`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
  });

  test('GET /nodes/{X} and GET /nodes/{F} (the granted folder itself): 200/200/200/404/401/401', async () => {
    for (const id of [X, F]) {
      assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${id}`)), expect(ROLES, [200, 200, 200, 404, 401, 401]), id);
    }
  });

  test('PATCH /nodes/{X} rename: 200/403/200/404/401/401', async () => {
    const got = await matrix(ROLES, (r) => call(r, 'PATCH', `/nodes/${X}`, { name: unique(`X by ${r}`) }));
    assert.deepEqual(got, expect(ROLES, [200, 403, 200, 404, 401, 401]));
    const now = await t.client.get(`/nodes/${X}`, { token: owner.access });
    assert.match(now.body.name, /^X by editor /);
  });

  test('PATCH /nodes/{F} rename (the granted folder itself): 200/403/403/404/401/401', async () => {
    const got = await matrix(ROLES, (r) => call(r, 'PATCH', `/nodes/${F}`, { name: unique(`F by ${r}`) }));
    assert.deepEqual(got, expect(ROLES, [200, 403, 403, 404, 401, 401]));
    assert.match((await t.client.get(`/nodes/${F}`, { token: owner.access })).body.name, /^F by owner /);
  });

  test('PATCH /nodes/{id} move of an item inside F into X: 200/403/200/404/401/401', async () => {
    const got = await matrix(ROLES, async (r) => call(r, 'PATCH', `/nodes/${await folderIn(F)}`, { parent_id: X }));
    assert.deepEqual(got, expect(ROLES, [200, 403, 200, 404, 401, 401]));
  });

  test('PATCH /nodes/{id} recolor of an item inside F: 200/403/200/404/401/401', async () => {
    const got = await matrix(ROLES, async (r) => call(r, 'PATCH', `/nodes/${await folderIn(F)}`, { color: 'teal' }));
    assert.deepEqual(got, expect(ROLES, [200, 403, 200, 404, 401, 401]));
  });

  test('DELETE /nodes/{X} (trash an item inside F): 200/403/200/404/401/401', async () => {
    const got = await matrix(ROLES, async (r) => call(r, 'DELETE', `/nodes/${await folderIn(F)}`));
    assert.deepEqual(got, expect(ROLES, [200, 403, 200, 404, 401, 401]));
  });

  test('DELETE /nodes/{F} (trash the granted folder itself): viewer 403, editor 403, stranger 404, no token 401, link 401', async () => {
    const roles: Role[] = ['viewer', 'editor', 'stranger', 'none', 'link'];
    assert.deepEqual(await matrix(roles, (r) => call(r, 'DELETE', `/nodes/${F}`)), expect(roles, [403, 403, 404, 401, 401]));
    assert.equal((await t.client.get(`/nodes/${F}`, { token: owner.access })).body.trashed_at, null);
  });

  test('POST /nodes/{X}/restore after the owner trashed it: everyone but the owner 404 (trashed nodes are invisible to them), owner 200', async () => {
    const trashed = await folderIn(F);
    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: owner.access })).status, 200);
    const others: Role[] = ['viewer', 'editor', 'stranger', 'none', 'link'];
    assert.deepEqual(await matrix(others, (r) => call(r, 'GET', `/nodes/${trashed}`)), expect(others, [404, 404, 404, 401, 401]));
    assert.deepEqual(await matrix(others, (r) => call(r, 'POST', `/nodes/${trashed}/restore`)), expect(others, [404, 404, 404, 401, 401]));
    assert.equal(await call('owner', 'POST', `/nodes/${trashed}/restore`), 200);
    // Restored, it is visible to the grantees again.
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${trashed}`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
  });

  test('POST and DELETE /nodes/{Y}/star: 204/204/204/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'POST', `/nodes/${Y}/star`)), expect(ROLES, [204, 204, 204, 404, 401, 401]));
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'DELETE', `/nodes/${Y}/star`)), expect(ROLES, [204, 204, 204, 404, 401, 401]));
  });

  test("GET /nodes/{Y}/download: 200/200/200/404/401/401 by header, and by a session's token in the URL; a node token the readers mint works too", async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${Y}/download`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
    assert.deepEqual(
      await matrix(ROLES, (r) => call(r, 'POST', `/nodes/${Y}/access-token`)),
      expect(ROLES, [200, 200, 200, 404, 401, 401]),
    );
    const viaQuery = await matrix(['owner', 'viewer', 'editor'], async (r) => {
      const minted = await fetch(`${t.api}/nodes/${Y}/access-token`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tokenOf(r)}` },
      });
      const { access_token } = (await minted.json()) as { access_token: string };
      return call('none', 'GET', `/nodes/${Y}/download?access_token=${encodeURIComponent(access_token)}`);
    });
    assert.deepEqual(viaQuery, { owner: 200, viewer: 200, editor: 200 });
    // A session's own token in the URL (the contract allows it) answers as the header does: a stranger's finds nothing.
    const sessionInQuery = await matrix(ROLES, (r) => {
      const token = tokenOf(r);
      return call('none', 'GET', `/nodes/${Y}/download${token === undefined ? '' : `?access_token=${encodeURIComponent(token)}`}`);
    });
    assert.deepEqual(sessionInQuery, expect(ROLES, [200, 200, 200, 404, 401, 401]));
    // What the readers get is the current content.
    const res = await fetch(`${t.api}/nodes/${Y}/download`, { headers: { authorization: `Bearer ${viewer.access}` } });
    assert.equal(await res.text(), 'version two!');
  });

  test('GET /nodes/{Y}/versions: 200/200/200/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${Y}/versions`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
  });

  test('POST /nodes/{Y}/versions/{vid}/restore: 200/403/200/404/401/401', async () => {
    const before = (await t.client.get(`/nodes/${Y}`, { token: owner.access })).body.version;
    const got = await matrix(ROLES, (r) => call(r, 'POST', `/nodes/${Y}/versions/${versionIds[0]}/restore`));
    assert.deepEqual(got, expect(ROLES, [200, 403, 200, 404, 401, 401]));
    // Exactly the two allowed restores made new versions.
    assert.equal((await t.client.get(`/nodes/${Y}`, { token: owner.access })).body.version, before + 2);
  });

  test('GET /nodes?parent_id={F}: 200/200/200/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes?parent_id=${F}`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes?parent_id=${X}`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
  });

  test('POST /nodes/folder {parent_id: F}: 201/403/201/404/401/401', async () => {
    const got = await matrix(ROLES, (r) => call(r, 'POST', '/nodes/folder', { name: unique(`New by ${r}`), parent_id: F }));
    assert.deepEqual(got, expect(ROLES, [201, 403, 201, 404, 401, 401]));
  });

  test('tus POST /uploads with parent_id F: 201/403/201/404/401/401', async () => {
    const got = await matrix(ROLES, (r) =>
      call(r, 'POST', '/uploads', undefined, {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '4',
        'Upload-Metadata': metadata({ filename: unique(`up-${r}`) + '.txt', parent_id: F }),
      }),
    );
    assert.deepEqual(got, expect(ROLES, [201, 403, 201, 404, 401, 401]));
  });

  test('tus POST /uploads with node_id Y (a new version): 201/403/201/404/401/401', async () => {
    const got = await matrix(ROLES, (r) =>
      call(r, 'POST', '/uploads', undefined, {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '4',
        'Upload-Metadata': metadata({ filename: 'Y.txt', node_id: Y }),
      }),
    );
    assert.deepEqual(got, expect(ROLES, [201, 403, 201, 404, 401, 401]));
  });

  test('GET /nodes/{F}/permissions: 200/200/200/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${F}/permissions`)), expect(ROLES, [200, 200, 200, 404, 401, 401]));
  });

  test('POST /nodes/{F}/permissions: 201/403/403/404/401/401', async () => {
    const got = await matrix(ROLES, (r) => call(r, 'POST', `/nodes/${F}/permissions`, { user_id: extra.userId, role: 'viewer' }));
    assert.deepEqual(got, expect(ROLES, [201, 403, 403, 404, 401, 401]));
  });

  test('GET /nodes/{F}/shares: 200/403/403/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${F}/shares`)), expect(ROLES, [200, 403, 403, 404, 401, 401]));
  });

  test('POST /nodes/{F}/share: 201/403/403/404/401/401', async () => {
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'POST', `/nodes/${F}/share`, {})), expect(ROLES, [201, 403, 403, 404, 401, 401]));
    const links = await t.client.get(`/nodes/${F}/shares`, { token: owner.access });
    assert.equal(links.body.items.length, 2, 'only the owner made a second link');
  });

  test('DELETE /nodes/{Y}/permanent: viewer 403, editor 403, stranger 404, no token 401, link 401; the owner 204 (last)', async () => {
    const roles: Role[] = ['viewer', 'editor', 'stranger', 'none', 'link', 'owner'];
    assert.deepEqual(await matrix(roles, (r) => call(r, 'DELETE', `/nodes/${Y}/permanent`)), expect(roles, [403, 403, 404, 401, 401, 204]));
    assert.deepEqual(await matrix(ROLES, (r) => call(r, 'GET', `/nodes/${Y}`)), expect(ROLES, [404, 404, 404, 404, 401, 401]));
  });
});
