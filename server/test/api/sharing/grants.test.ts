import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';
import { createFolder, unique } from '../../helpers/nodes.ts';

// Access for other accounts: grants (viewer / editor) on files and folders, what they cover,
// how they show in listings, what each role may do, and that removing one works at once.

const TUS = '1.0.0';
const OCTET = 'application/offset+octet-stream';

let t: TestServer;
let owner: SignedIn;
/** Gets viewer grants in most tests. */
let alice: SignedIn;
/** Gets editor grants in most tests. */
let bob: SignedIn;
/** Never granted anything: the stranger. */
let carol: SignedIn;
/** A spare grantee. */
let dave: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  bob = await createMember(t.client, owner, 'bob');
  carol = await createMember(t.client, owner, 'carol');
  dave = await createMember(t.client, owner, 'dave');
});
after(() => t.close());

const mkdir = (who: SignedIn, name: string, parentId?: string | null) => createFolder(t.client, who, name, parentId);

async function upload(who: SignedIn, data: string, filename: string, parentId?: string, nodeId?: string): Promise<string> {
  return uploadFile(t.api, who.access, Buffer.from(data), {
    filename,
    ...(parentId !== undefined && { parentId }),
    ...(nodeId !== undefined && { nodeId }),
  });
}

async function grant(who: SignedIn, nodeId: string, to: SignedIn, role: 'viewer' | 'editor'): Promise<any> {
  const res = await t.client.post(`/nodes/${nodeId}/permissions`, { user_id: to.userId, role }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function revoke(who: SignedIn, nodeId: string, userId: string): Promise<void> {
  const res = await t.client.delete(`/nodes/${nodeId}/permissions/${userId}`, { token: who.access });
  assert.equal(res.status, 204, JSON.stringify(res.body));
}

async function grantsOf(who: SignedIn, nodeId: string): Promise<any[]> {
  const res = await t.client.get(`/nodes/${nodeId}/permissions`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

async function list(who: SignedIn, query: string): Promise<any[]> {
  const res = await t.client.get(`/nodes?${query}&limit=1000`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

async function quotaUsed(who: SignedIn): Promise<number> {
  const me = await t.client.get('/me', { token: who.access });
  assert.equal(me.status, 200, JSON.stringify(me.body));
  return me.body.quota.used;
}

async function download(who: SignedIn, id: string): Promise<{ status: number; text: string }> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${who.access}` } });
  return { status: res.status, text: await res.text() };
}

/** A shared folder of the owner's: F with a subfolder and a file, viewer alice, editor bob. */
async function sharedTree(prefix: string): Promise<{ folder: any; sub: any; fileId: string }> {
  const folder = await mkdir(owner, unique(prefix));
  const sub = await mkdir(owner, 'Sub', folder.id);
  const fileId = await upload(owner, 'hello from the owner', 'note.txt', folder.id);
  await grant(owner, folder.id, alice, 'viewer');
  await grant(owner, folder.id, bob, 'editor');
  return { folder, sub, fileId };
}

// ---- tus by hand, for an upload that stops half way ----

function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

async function tus(url: string, method: string, token: string, headers: Record<string, string> = {}, body?: Buffer) {
  const res = await fetch(url, {
    method,
    headers: { 'Tus-Resumable': TUS, authorization: `Bearer ${token}`, ...headers },
    body: body as BodyInit | undefined,
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '' ? JSON.parse(text) : null;
  return { status: res.status, headers: res.headers, text, json };
}

// ---- WebSocket ----

type Message = EventMessage;
const openEvents = (who: SignedIn) => EventSocket.open(t.url, who.access);

/** An event everyone receives: what a socket got before it is all it was sent. */
async function sentinel(name: string): Promise<void> {
  const res = await t.client.patch('/server/settings', { server_name: name }, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}
const isSentinel = (name: string) => (m: Message) => m.type === 'server.settings_changed' && m.payload?.settings?.server_name === name;

/** The node events about any of `ids` among messages, as "type name" strings. */
function nodeEvents(messages: Message[], ids: string[]): string[] {
  return messages
    .filter((m) => m.type.startsWith('node.') && ids.includes(m.payload?.node?.id))
    .map((m) => `${m.type} ${m.payload.node.name}`);
}

// ---------------------------------------------------------------------------------------------

describe('POST /nodes/{id}/permissions', () => {
  test('the owner grants access: 201 {user_id, name, avatar_seed, role, created_at}', async () => {
    const folder = await mkdir(owner, unique('Granted'));
    const before = Date.now();
    const res = await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: alice.userId, role: 'viewer' }, { token: owner.access });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['avatar_seed', 'created_at', 'name', 'role', 'user_id']);
    assert.equal(res.body.user_id, alice.userId);
    assert.equal(res.body.role, 'viewer');
    assert.ok(Number.isInteger(res.body.created_at) && res.body.created_at >= before - 1000 && res.body.created_at <= Date.now());
    // Name and avatar are those the people picker shows for the account.
    const people = await t.client.get('/users?limit=1000', { token: owner.access });
    assert.equal(people.status, 200);
    const listed = people.body.items.find((u: any) => u.id === alice.userId);
    assert.ok(listed, 'alice is in /users');
    assert.equal(res.body.name, listed.name);
    assert.equal(res.body.avatar_seed, listed.avatar_seed);
    assert.equal(typeof res.body.avatar_seed, 'string');
    assert.deepEqual(await grantsOf(owner, folder.id), [res.body]);
  });

  test('granting again replaces the role (one grant per account), and the new role applies at once', async () => {
    const folder = await mkdir(owner, unique('Regrant'));
    await grant(owner, folder.id, alice, 'viewer');
    assertError(await t.client.post('/nodes/folder', { name: 'Before', parent_id: folder.id }, { token: alice.access }), 403, 'forbidden');
    const upgraded = await grant(owner, folder.id, alice, 'editor');
    assert.equal(upgraded.role, 'editor');
    const grants = await grantsOf(owner, folder.id);
    assert.equal(grants.length, 1, JSON.stringify(grants));
    assert.equal(grants[0].user_id, alice.userId);
    assert.equal(grants[0].role, 'editor');
    await mkdir(alice, 'After upgrade', folder.id);
    const downgraded = await grant(owner, folder.id, alice, 'viewer');
    assert.equal(downgraded.role, 'viewer');
    assert.deepEqual(
      (await grantsOf(owner, folder.id)).map((g) => [g.user_id, g.role]),
      [[alice.userId, 'viewer']],
    );
    assertError(
      await t.client.post('/nodes/folder', { name: 'After downgrade', parent_id: folder.id }, { token: alice.access }),
      403,
      'forbidden',
    );
  });

  test('granting to the owner answers 400 cannot_share_with_owner and grants nothing', async () => {
    const folder = await mkdir(owner, unique('Self'));
    const res = await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: owner.userId, role: 'editor' }, { token: owner.access });
    assertError(res, 400, 'cannot_share_with_owner');
    assert.equal(res.body.error.field, 'user_id');
    assert.deepEqual(await grantsOf(owner, folder.id), []);
  });

  test('granting to an unknown or a disabled account answers 400 unknown_user and grants nothing', async () => {
    const folder = await mkdir(owner, unique('Unknown'));
    const ghost = await createMember(t.client, owner, unique('ghost').replace(' ', ''));
    const off = await t.client.patch(`/admin/users/${ghost.userId}`, { disabled: true }, { token: owner.access });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    for (const userId of ['01HZZZZZZZZZZZZZZZZZZZZZZZ', 'nobody', ghost.userId]) {
      const res = await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: userId, role: 'viewer' }, { token: owner.access });
      assertError(res, 400, 'unknown_user');
      assert.equal(res.body.error.field, 'user_id');
    }
    assert.deepEqual(await grantsOf(owner, folder.id), []);
  });

  test('a role other than viewer or editor, or none, answers 400 and grants nothing', async () => {
    const folder = await mkdir(owner, unique('Bad role'));
    for (const body of [
      { user_id: alice.userId, role: 'owner' },
      { user_id: alice.userId, role: 'admin' },
      { user_id: alice.userId, role: 'Editor' },
      { user_id: alice.userId, role: 1 },
      { user_id: alice.userId },
      { role: 'viewer' },
    ]) {
      const res = await t.client.post(`/nodes/${folder.id}/permissions`, body, { token: owner.access });
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`);
      assert.ok(['invalid_input', 'missing_field'].includes(res.body.error.code), JSON.stringify(res.body));
    }
    assert.deepEqual(await grantsOf(owner, folder.id), []);
  });

  test('a viewer or editor cannot grant access (403 forbidden), on the shared folder or inside it; a stranger gets 404', async () => {
    const { folder, sub } = await sharedTree('No regrant');
    for (const who of [alice, bob]) {
      for (const nodeId of [folder.id, sub.id]) {
        const res = await t.client.post(`/nodes/${nodeId}/permissions`, { user_id: dave.userId, role: 'viewer' }, { token: who.access });
        assertError(res, 403, 'forbidden');
      }
    }
    // An editor cannot promote itself either.
    assertError(
      await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: alice.userId, role: 'editor' }, { token: bob.access }),
      403,
      'forbidden',
    );
    assertError(
      await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: alice.userId, role: 'editor' }, { token: alice.access }),
      403,
      'forbidden',
    );
    assertError(
      await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: carol.userId, role: 'viewer' }, { token: carol.access }),
      404,
      'not_found',
    );
    assertError(
      await t.client.post(
        `/nodes/01HZZZZZZZZZZZZZZZZZZZZZZZ/permissions`,
        { user_id: alice.userId, role: 'viewer' },
        { token: owner.access },
      ),
      404,
      'not_found',
    );
    assert.deepEqual(
      (await grantsOf(owner, folder.id)).map((g) => [g.user_id, g.role]).sort(),
      [
        [alice.userId, 'viewer'],
        [bob.userId, 'editor'],
      ].sort(),
    );
    assert.deepEqual(await grantsOf(owner, sub.id), []);
    assertError(await t.client.get(`/nodes/${folder.id}`, { token: dave.access }), 404, 'not_found');
  });
});

describe('GET /nodes/{id}/permissions', () => {
  test('lists the grants to the owner and to every grantee alike; a stranger gets 404', async () => {
    const { folder } = await sharedTree('Listed');
    const forOwner = await grantsOf(owner, folder.id);
    assert.deepEqual(
      forOwner.map((g) => [g.user_id, g.role]).sort(),
      [
        [alice.userId, 'viewer'],
        [bob.userId, 'editor'],
      ].sort(),
    );
    for (const g of forOwner) assert.deepEqual(Object.keys(g).sort(), ['avatar_seed', 'created_at', 'name', 'role', 'user_id']);
    assert.equal(forOwner.find((g) => g.user_id === alice.userId).name, 'alice');
    assert.deepEqual(await grantsOf(alice, folder.id), forOwner);
    assert.deepEqual(await grantsOf(bob, folder.id), forOwner);
    assertError(await t.client.get(`/nodes/${folder.id}/permissions`, { token: carol.access }), 404, 'not_found');
    assert.equal((await t.client.get(`/nodes/${folder.id}/permissions`)).status, 401);
  });
});

describe('DELETE /nodes/{id}/permissions/{userId}', () => {
  test('the owner removes a grant: 204, it leaves the list, and the former grantee gets 404', async () => {
    const { folder, fileId } = await sharedTree('Owner removes');
    await revoke(owner, folder.id, alice.userId);
    assert.deepEqual(
      (await grantsOf(owner, folder.id)).map((g) => g.user_id),
      [bob.userId],
    );
    assertError(await t.client.get(`/nodes/${folder.id}`, { token: alice.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${fileId}`, { token: alice.access }), 404, 'not_found');
    // The other grantee keeps access.
    assert.equal((await t.client.get(`/nodes/${fileId}`, { token: bob.access })).status, 200);
  });

  test('a grantee may leave: removing its own grant answers 204 and ends its access', async () => {
    const { folder } = await sharedTree('Leaving');
    await revoke(bob, folder.id, bob.userId);
    assert.deepEqual(
      (await grantsOf(owner, folder.id)).map((g) => g.user_id),
      [alice.userId],
    );
    assertError(await t.client.get(`/nodes/${folder.id}`, { token: bob.access }), 404, 'not_found');
    // Leaving twice: there is nothing left to remove.
    assertError(await t.client.delete(`/nodes/${folder.id}/permissions/${bob.userId}`, { token: bob.access }), 404, 'not_found');
  });

  test("a grantee cannot remove another grantee's access (403: it can see the node), and a stranger cannot remove anything (404)", async () => {
    const { folder } = await sharedTree('Not yours');
    assertError(await t.client.delete(`/nodes/${folder.id}/permissions/${alice.userId}`, { token: bob.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/nodes/${folder.id}/permissions/${bob.userId}`, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/nodes/${folder.id}/permissions/${alice.userId}`, { token: carol.access }), 404, 'not_found');
    assert.equal((await grantsOf(owner, folder.id)).length, 2);
    assert.equal((await t.client.get(`/nodes/${folder.id}`, { token: alice.access })).status, 200);
  });

  test('removing a grant that does not exist answers 404', async () => {
    const { folder, sub } = await sharedTree('No such grant');
    assertError(await t.client.delete(`/nodes/${folder.id}/permissions/${dave.userId}`, { token: owner.access }), 404, 'not_found');
    assertError(
      await t.client.delete(`/nodes/${folder.id}/permissions/01HZZZZZZZZZZZZZZZZZZZZZZZ`, { token: owner.access }),
      404,
      'not_found',
    );
    // Access inherited from the folder is not a grant on the subfolder.
    assertError(await t.client.delete(`/nodes/${sub.id}/permissions/${alice.userId}`, { token: owner.access }), 404, 'not_found');
    assertError(
      await t.client.delete(`/nodes/01HZZZZZZZZZZZZZZZZZZZZZZZ/permissions/${alice.userId}`, { token: owner.access }),
      404,
      'not_found',
    );
    assert.equal((await grantsOf(owner, folder.id)).length, 2);
  });
});

describe('what a grant covers', () => {
  test('what is granted on a folder covers everything under it, however deep; nothing above or beside it', async () => {
    const top = await mkdir(owner, unique('Above'));
    const beside = await mkdir(owner, 'Beside', top.id);
    const granted = await mkdir(owner, 'Granted', top.id);
    let parent = granted;
    for (const name of ['L1', 'L2', 'L3', 'L4']) parent = await mkdir(owner, name, parent.id);
    const deepFile = await upload(owner, 'deep content', 'deep.txt', parent.id);
    await grant(owner, granted.id, dave, 'viewer');

    const node = await t.client.get(`/nodes/${deepFile}`, { token: dave.access });
    assert.equal(node.status, 200, JSON.stringify(node.body));
    assert.equal(node.body.shared, true);
    assert.equal(node.body.owner_id, owner.userId);
    assert.deepEqual(
      (await list(dave, `parent_id=${parent.id}`)).map((n) => n.id),
      [deepFile],
    );
    assert.deepEqual(await download(dave, deepFile), { status: 200, text: 'deep content' });
    for (const id of [top.id, beside.id]) {
      assertError(await t.client.get(`/nodes/${id}`, { token: dave.access }), 404, 'not_found');
      assertError(await t.client.get(`/nodes?parent_id=${id}`, { token: dave.access }), 404, 'not_found');
    }
  });

  test('the path of a node inside a shared folder starts at the granted folder, never showing the folders above it', async () => {
    const top = await mkdir(owner, unique('Private top'));
    const middle = await mkdir(owner, 'Private middle', top.id);
    const granted = await mkdir(owner, 'Family', middle.id);
    const inner = await mkdir(owner, 'Inner', granted.id);
    const fileId = await upload(owner, 'x', 'leaf.txt', inner.id);
    await grant(owner, granted.id, alice, 'viewer');

    const forOwner = await t.client.get(`/nodes/${fileId}/path`, { token: owner.access });
    assert.equal(forOwner.status, 200);
    assert.deepEqual(
      forOwner.body.items.map((n: any) => n.id),
      [top.id, middle.id, granted.id, inner.id, fileId],
    );
    const forAlice = await t.client.get(`/nodes/${fileId}/path`, { token: alice.access });
    assert.equal(forAlice.status, 200, JSON.stringify(forAlice.body));
    assert.deepEqual(
      forAlice.body.items.map((n: any) => n.id),
      [granted.id, inner.id, fileId],
    );
    assert.ok(forAlice.body.items.every((n: any) => n.shared === true));
    const ofGranted = await t.client.get(`/nodes/${granted.id}/path`, { token: alice.access });
    assert.deepEqual(
      ofGranted.body.items.map((n: any) => n.id),
      [granted.id],
    );
    assertError(await t.client.get(`/nodes/${middle.id}/path`, { token: alice.access }), 404, 'not_found');
  });
});

describe('listings of a grantee', () => {
  test('parent_id=root blends the own top level with nodes granted directly (shared: true / false), sorted together, folders first', async () => {
    const erin = await createMember(t.client, owner, 'erin');
    await mkdir(erin, 'Bravo');
    await upload(erin, 'mine', 'alpha.txt');
    await mkdir(erin, 'Delta');
    const alpha = await mkdir(owner, 'Alpha');
    const charlie = await mkdir(owner, 'Charlie');
    const inside = await mkdir(owner, 'Inside', charlie.id);
    const ownersTop = await upload(owner, 'not shared', `${unique('owner-only')}.txt`);
    const sharedFile = await upload(owner, 'shared file', 'beta.txt', alpha.id);
    await grant(owner, alpha.id, erin, 'viewer');
    await grant(owner, charlie.id, erin, 'editor');
    await grant(owner, sharedFile, erin, 'viewer');

    const root = await list(erin, 'parent_id=root');
    assert.deepEqual(
      root.map((n) => [n.name, n.shared]),
      [
        ['Alpha', true],
        ['Bravo', false],
        ['Charlie', true],
        ['Delta', false],
        ['alpha.txt', false],
        ['beta.txt', true],
      ],
    );
    for (const n of root) assert.equal(n.owner_id, n.shared ? owner.userId : erin.userId);
    // Descending keeps the folders first.
    assert.deepEqual(
      (await list(erin, 'parent_id=root&sort=name&order=desc')).map((n) => n.name),
      ['Delta', 'Charlie', 'Bravo', 'Alpha', 'beta.txt', 'alpha.txt'],
    );
    // Only what was granted directly: not what lies inside it, and nothing else of the owner's.
    assert.ok(!root.some((n) => n.id === inside.id || n.id === ownersTop));
    // The default (no parent_id) is the same blended top level.
    const res = await t.client.get('/nodes?limit=1000', { token: erin.access });
    assert.deepEqual(
      res.body.items.map((n: any) => n.id),
      root.map((n) => n.id),
    );

    const shared = await list(erin, 'filter=shared&sort=name&order=asc');
    assert.deepEqual(
      shared.map((n) => [n.name, n.shared]),
      [
        ['Alpha', true],
        ['Charlie', true],
        ['beta.txt', true],
      ],
    );
    // The owner's own listing marks its nodes as not shared, and holds nothing of erin's.
    const ownerRoot = await list(owner, 'parent_id=root');
    assert.equal(ownerRoot.find((n) => n.id === alpha.id)?.shared, false);
    assert.ok(!ownerRoot.some((n) => n.owner_id === erin.userId));
    assert.ok(!(await list(owner, 'filter=shared')).some((n) => n.id === alpha.id));
    // Inside a shared folder, the children are marked shared too.
    assert.deepEqual(
      (await list(erin, `parent_id=${charlie.id}`)).map((n) => [n.id, n.shared]),
      [[inside.id, true]],
    );
  });

  test('filter=shared holds only what others shared with the account, never its own items', async () => {
    const own = await mkdir(dave, unique('Dave own'));
    await grant(dave, own.id, alice, 'viewer');
    const incoming = await mkdir(owner, unique('For dave'));
    await grant(owner, incoming.id, dave, 'viewer');
    const ids = (await list(dave, 'filter=shared')).map((n) => n.id);
    assert.ok(ids.includes(incoming.id));
    assert.ok(!ids.includes(own.id), 'an own item shared with others is not "shared with me"');
    for (const n of await list(dave, 'filter=shared')) assert.equal(n.shared, true);
    assert.ok((await list(alice, 'filter=shared')).some((n) => n.id === own.id));
  });

  test('a trashed shared node leaves the grantee’s listings, and its link to it answers 404', async () => {
    const folder = await mkdir(owner, unique('Trashed share'));
    await grant(owner, folder.id, alice, 'viewer');
    assert.ok((await list(alice, 'filter=shared')).some((n) => n.id === folder.id));
    assert.equal((await t.client.delete(`/nodes/${folder.id}`, { token: owner.access })).status, 200);
    assert.ok(!(await list(alice, 'filter=shared')).some((n) => n.id === folder.id));
    assert.ok(!(await list(alice, 'parent_id=root')).some((n) => n.id === folder.id));
    assertError(await t.client.get(`/nodes/${folder.id}`, { token: alice.access }), 404, 'not_found');
  });
});

describe('what a viewer and an editor may do', () => {
  test('a viewer can open, list and download, and can change nothing (403 forbidden)', async () => {
    const { folder, sub, fileId } = await sharedTree('Viewer');
    assert.equal((await t.client.get(`/nodes/${folder.id}`, { token: alice.access })).status, 200);
    assert.deepEqual(
      (await list(alice, `parent_id=${folder.id}`)).map((n) => n.id),
      [sub.id, fileId],
    );
    assert.deepEqual(await download(alice, fileId), { status: 200, text: 'hello from the owner' });
    const versions = await t.client.get(`/nodes/${fileId}/versions`, { token: alice.access });
    assert.equal(versions.status, 200);
    assert.equal(versions.body.items.length, 1);

    assertError(await t.client.post('/nodes/folder', { name: 'Nope', parent_id: folder.id }, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.patch(`/nodes/${fileId}`, { name: 'renamed.txt' }, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.patch(`/nodes/${fileId}`, { parent_id: sub.id }, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/nodes/${sub.id}`, { token: alice.access }), 403, 'forbidden');
    await assert.rejects(upload(alice, 'viewer upload', 'v.txt', folder.id), /403/);
    await assert.rejects(upload(alice, 'viewer version', 'note.txt', undefined, fileId), /403/);
    // Nothing changed.
    assert.deepEqual(
      (await list(owner, `parent_id=${folder.id}`)).map((n) => [n.name, n.version]),
      [
        ['Sub', 0],
        ['note.txt', 1],
      ],
    );
  });

  test('an editor creates folders and uploads inside, renames, moves and trashes what is inside, and adds versions', async () => {
    const { folder, sub, fileId } = await sharedTree('Editor');
    const made = await mkdir(bob, 'Made by bob', folder.id);
    assert.equal(made.owner_id, owner.userId, 'what an editor creates belongs to the folder owner');
    assert.equal(made.parent_id, folder.id);
    assert.equal(made.shared, true);
    const uploaded = await upload(bob, 'uploaded by bob', 'bob.txt', folder.id);
    const node = (await t.client.get(`/nodes/${uploaded}`, { token: owner.access })).body;
    assert.equal(node.owner_id, owner.userId);
    assert.equal(node.parent_id, folder.id);
    assert.equal(node.shared, false);
    // The owner sees both in its folder.
    assert.deepEqual(
      (await list(owner, `parent_id=${folder.id}`)).map((n) => n.name),
      ['Made by bob', 'Sub', 'bob.txt', 'note.txt'],
    );

    const renamed = await t.client.patch(`/nodes/${uploaded}`, { name: 'renamed.txt' }, { token: bob.access });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.equal(renamed.body.name, 'renamed.txt');
    const moved = await t.client.patch(`/nodes/${uploaded}`, { parent_id: sub.id }, { token: bob.access });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.parent_id, sub.id);
    const recolored = await t.client.patch(`/nodes/${made.id}`, { color: 'green' }, { token: bob.access });
    assert.equal(recolored.status, 200);
    assert.equal(recolored.body.color, 'green');
    const trashed = await t.client.delete(`/nodes/${made.id}`, { token: bob.access });
    assert.equal(trashed.status, 200, JSON.stringify(trashed.body));
    assert.equal(typeof trashed.body.trashed_at, 'number');
    // The trash is the owner's: the editor cannot see, restore or purge the trashed item.
    assertError(await t.client.post(`/nodes/${made.id}/restore`, undefined, { token: bob.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${made.id}`, { token: bob.access }), 404, 'not_found');
    assert.ok((await t.client.get('/trash', { token: owner.access })).body.items.some((n: any) => n.id === made.id));

    const versionId = await upload(bob, 'second version by bob', 'note.txt', undefined, fileId);
    assert.equal(versionId, fileId);
    const after = (await t.client.get(`/nodes/${fileId}`, { token: owner.access })).body;
    assert.equal(after.version, 2);
    assert.deepEqual(await download(owner, fileId), { status: 200, text: 'second version by bob' });
    const versions = await t.client.get(`/nodes/${fileId}/versions`, { token: owner.access });
    assert.equal(versions.body.items.find((v: any) => v.version === 2)?.created_by, bob.userId);
  });

  test('an editor cannot rename, move or trash the granted folder itself, nor move things out of it (403)', async () => {
    const { folder, fileId } = await sharedTree('Editor limits');
    assertError(await t.client.patch(`/nodes/${folder.id}`, { name: 'Taken over' }, { token: bob.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/nodes/${folder.id}`, { token: bob.access }), 403, 'forbidden');
    const bobs = await mkdir(bob, unique('Bob own'));
    assertError(await t.client.patch(`/nodes/${folder.id}`, { parent_id: bobs.id }, { token: bob.access }), 403, 'forbidden');
    // Moving an item out, into the editor's own folder or top level, would hand it to another tree.
    assertError(await t.client.patch(`/nodes/${fileId}`, { parent_id: bobs.id }, { token: bob.access }), 403, 'forbidden');
    for (const parent_id of [null, 'root']) {
      assertError(await t.client.patch(`/nodes/${fileId}`, { parent_id }, { token: bob.access }), 403, 'forbidden');
    }
    assertError(await t.client.delete(`/nodes/${fileId}/permanent`, { token: bob.access }), 403, 'forbidden');
    const still = (await t.client.get(`/nodes/${fileId}`, { token: owner.access })).body;
    assert.equal(still.parent_id, folder.id);
    assert.equal((await t.client.get(`/nodes/${folder.id}`, { token: owner.access })).body.name, folder.name);
  });

  test("what an editor uploads counts against the owner's quota, not the editor's", async () => {
    const { folder } = await sharedTree('Quota');
    const ownerBefore = await quotaUsed(owner);
    const bobBefore = await quotaUsed(bob);
    const data = 'x'.repeat(4321);
    await upload(bob, data, 'quota.bin', folder.id);
    assert.equal(await quotaUsed(owner), ownerBefore + 4321);
    assert.equal(await quotaUsed(bob), bobBefore);
  });

  test("an editor's upload that would pass the owner's quota is refused 507 quota_exceeded", async () => {
    const { folder } = await sharedTree('Quota full');
    const used = await quotaUsed(owner);
    const set = await t.client.patch(`/admin/users/${owner.userId}`, { quota_bytes: used + 10 }, { token: owner.access });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    try {
      const res = await tus(`${t.api}/uploads`, 'POST', bob.access, {
        'Upload-Length': '100',
        'Upload-Metadata': metadata({ filename: 'big.bin', parent_id: folder.id }),
      });
      assert.equal(res.status, 507, res.text);
      assert.equal(res.json?.error?.code, 'quota_exceeded');
    } finally {
      const unset = await t.client.patch(`/admin/users/${owner.userId}`, { quota_bytes: null }, { token: owner.access });
      assert.equal(unset.status, 200);
    }
  });
});

describe('removing access takes effect at once', () => {
  test('the next request of the former grantee answers 404: the node, what is inside, the listing and the download', async () => {
    const { folder, sub, fileId } = await sharedTree('Cut off');
    assert.equal((await download(bob, fileId)).status, 200);
    const minted = await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token: bob.access });
    assert.equal(minted.status, 200);
    await revoke(owner, folder.id, bob.userId);
    assertError(await t.client.get(`/nodes/${folder.id}`, { token: bob.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${sub.id}`, { token: bob.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes?parent_id=${folder.id}`, { token: bob.access }), 404, 'not_found');
    assert.equal((await download(bob, fileId)).status, 404);
    // A URL token made before access was removed dies with the access.
    const viaQuery = await fetch(`${t.api}/nodes/${fileId}/download?access_token=${encodeURIComponent(minted.body.access_token)}`);
    assert.equal(viaQuery.status, 404);
    assertError(await t.client.post('/nodes/folder', { name: 'Late', parent_id: folder.id }, { token: bob.access }), 404, 'not_found');
    assertError(await t.client.patch(`/nodes/${sub.id}`, { name: 'Late' }, { token: bob.access }), 404, 'not_found');
    assert.ok(!(await list(bob, 'parent_id=root')).some((n) => n.id === folder.id));
    assert.ok(!(await list(bob, 'filter=shared')).some((n) => n.id === folder.id));
  });

  test('an open WebSocket of the former grantee hears once that the tree is out of reach (access_lost), then no more events about it', async () => {
    const { folder, sub } = await sharedTree('Quiet');
    const wsOwner = await openEvents(owner);
    const wsBob = await openEvents(bob);
    try {
      // While the grant stands, bob hears about the tree.
      const first = await mkdir(owner, 'While shared', folder.id);
      const [created] = (await wsBob.until((m) => m.type === 'node.created' && m.payload.node.id === first.id)).slice(-1);
      assert.equal(created!.payload.node.parent_id, folder.id);

      await revoke(owner, folder.id, bob.userId);
      const later = await mkdir(owner, 'After removal', folder.id);
      assert.equal((await t.client.patch(`/nodes/${sub.id}`, { name: 'Sub renamed' }, { token: owner.access })).status, 200);
      const fileId = await upload(owner, 'after', 'after.txt', sub.id);
      assert.equal((await t.client.delete(`/nodes/${first.id}`, { token: owner.access })).status, 200);
      const name = unique('after-revoke');
      await sentinel(name);
      const ids = [folder.id, sub.id, first.id, later.id, fileId];
      const forOwner = await wsOwner.until(isSentinel(name));
      // The owner did receive these events: they happened before the control event.
      assert.deepEqual(nodeEvents(forOwner, ids), [
        'node.created While shared',
        'node.created After removal',
        'node.updated Sub renamed',
        'node.created after.txt',
        'node.deleted While shared',
      ]);
      const forBob = await wsBob.until(isSentinel(name));
      assert.deepEqual(nodeEvents(forBob, ids), [`node.deleted ${folder.name}`], JSON.stringify(forBob.map((m) => m.type)));
      const lost = forBob.find((m) => m.type === 'node.deleted')!;
      assert.deepEqual([lost.payload.access_lost, lost.payload.permanent], [true, false]);
    } finally {
      wsOwner.close();
      wsBob.close();
    }
  });

  test('an upload the former editor started into the tree fails on its next PATCH with 404, and no node appears', async () => {
    const { folder } = await sharedTree('Half sent');
    const ownerBefore = await quotaUsed(owner);
    const created = await tus(`${t.api}/uploads`, 'POST', bob.access, {
      'Upload-Length': '10',
      'Upload-Metadata': metadata({ filename: 'half.txt', parent_id: folder.id }),
    });
    assert.equal(created.status, 201, created.text);
    const url = new URL(created.headers.get('location')!, t.url).toString();
    const firstHalf = await tus(url, 'PATCH', bob.access, { 'Content-Type': OCTET, 'Upload-Offset': '0' }, Buffer.from('01234'));
    assert.equal(firstHalf.status, 204, firstHalf.text);
    assert.equal(firstHalf.headers.get('upload-offset'), '5');

    await revoke(owner, folder.id, bob.userId);
    const secondHalf = await tus(url, 'PATCH', bob.access, { 'Content-Type': OCTET, 'Upload-Offset': '5' }, Buffer.from('56789'));
    assert.equal(secondHalf.status, 404, secondHalf.text);
    assert.equal(secondHalf.json?.error?.code, 'not_found');
    assert.equal(secondHalf.headers.get('service-node-id'), null);
    // Nor does it come back when asked again.
    const again = await tus(url, 'PATCH', bob.access, { 'Content-Type': OCTET, 'Upload-Offset': '5' }, Buffer.from('56789'));
    assert.equal(again.status, 404, again.text);

    assert.ok(!(await list(owner, `parent_id=${folder.id}`)).some((n) => n.name.startsWith('half')));
    assert.ok(!(await list(bob, 'parent_id=root')).some((n) => n.name.startsWith('half')));
    assert.equal(await quotaUsed(owner), ownerBefore);
  });
});

describe('events of shared trees', () => {
  let wsOwner: EventSocket;
  let wsAlice: EventSocket;
  let wsBob: EventSocket;
  let wsCarol: EventSocket;
  before(async () => {
    [wsOwner, wsAlice, wsBob, wsCarol] = await Promise.all([openEvents(owner), openEvents(alice), openEvents(bob), openEvents(carol)]);
  });
  after(() => {
    for (const ws of [wsOwner, wsAlice, wsBob, wsCarol]) ws.close();
  });

  async function settle(): Promise<Record<'owner' | 'alice' | 'bob' | 'carol', Message[]>> {
    const name = unique('sentinel');
    await sentinel(name);
    const [o, a, b, c] = await Promise.all([wsOwner, wsAlice, wsBob, wsCarol].map((ws) => ws.until(isSentinel(name))));
    return { owner: o!, alice: a!, bob: b!, carol: c! };
  }

  test('share.received reaches the grantee, with the node and the role, and nobody else', async () => {
    await settle();
    const folder = await mkdir(owner, unique('Gift'));
    await grant(owner, folder.id, alice, 'editor');
    const got = await settle();
    const received = got.alice.filter((m) => m.type === 'share.received');
    assert.equal(received.length, 1, JSON.stringify(got.alice.map((m) => m.type)));
    assert.equal(received[0]!.payload.role, 'editor');
    assert.equal(received[0]!.payload.node.id, folder.id);
    assert.equal(received[0]!.payload.node.name, folder.name);
    assert.equal(received[0]!.payload.node.owner_id, owner.userId);
    assert.equal(received[0]!.payload.node.shared, true);
    for (const who of ['owner', 'bob', 'carol'] as const) {
      assert.deepEqual(
        got[who].filter((m) => m.type === 'share.received'),
        [],
        `share.received leaked to ${who}`,
      );
    }
  });

  test('node.created, updated, moved and deleted in a shared folder reach the owner and every grantee, never a stranger', async () => {
    const { folder, sub } = await sharedTree('Noisy');
    await settle();
    const made = await mkdir(owner, 'Made', folder.id);
    assert.equal((await t.client.patch(`/nodes/${made.id}`, { name: 'Renamed' }, { token: owner.access })).status, 200);
    assert.equal((await t.client.patch(`/nodes/${made.id}`, { parent_id: sub.id }, { token: bob.access })).status, 200);
    const fileId = await upload(bob, 'from bob', 'bob.txt', sub.id);
    assert.equal((await t.client.delete(`/nodes/${made.id}`, { token: bob.access })).status, 200);
    const got = await settle();
    const expected = ['node.created Made', 'node.updated Renamed', 'node.moved Renamed', 'node.created bob.txt', 'node.deleted Renamed'];
    for (const who of ['owner', 'alice', 'bob'] as const) {
      assert.deepEqual(nodeEvents(got[who], [made.id, fileId]), expected, who);
    }
    assert.deepEqual(nodeEvents(got.carol, [made.id, fileId, folder.id, sub.id]), []);
    assert.deepEqual(
      got.carol.filter((m) => m.type.startsWith('node.')),
      [],
      'a stranger hears nothing of the tree',
    );
    // A permanent delete by the owner is announced too.
    assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: owner.access })).status, 204);
    const gone = await settle();
    for (const who of ['owner', 'alice', 'bob'] as const) {
      const deleted = gone[who].filter((m) => m.type === 'node.deleted' && m.payload.node.id === fileId);
      assert.equal(deleted.length, 1, who);
      assert.equal(deleted[0]!.payload.permanent, true);
    }
    assert.deepEqual(
      gone.carol.filter((m) => m.type.startsWith('node.')),
      [],
    );
  });

  test('an item the owner moves out of a shared folder is announced to the grantee as its disappearance (node.deleted, access_lost), never where it went; later events about it are not', async () => {
    const { folder, fileId } = await sharedTree('Leaving item');
    const privateFolder = await mkdir(owner, unique('Private'));
    await settle();
    const moved = await t.client.patch(`/nodes/${fileId}`, { parent_id: privateFolder.id }, { token: owner.access });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    const first = await settle();
    const ownerMoves = first.owner.filter((m) => m.type === 'node.moved' && m.payload.node.id === fileId);
    assert.equal(ownerMoves.length, 1, JSON.stringify(first.owner.map((m) => m.type)));
    assert.equal(ownerMoves[0]!.payload.node.parent_id, privateFolder.id);
    assert.equal(ownerMoves[0]!.payload.from_parent_id, folder.id);
    for (const who of ['alice', 'bob'] as const) {
      const events = first[who].filter((m) => m.payload?.node?.id === fileId);
      assert.deepEqual(
        events.map((m) => m.type),
        ['node.deleted'],
        who,
      );
      assert.equal(events[0]!.payload.access_lost, true);
      assert.equal(events[0]!.payload.node.parent_id, folder.id, 'the node as the grantee last saw it');
      assert.ok(!JSON.stringify(first[who]).includes(privateFolder.id), `${who} learnt the private folder's id`);
    }
    assert.deepEqual(nodeEvents(first.carol, [fileId]), []);
    // Out of the tree: the grantees no longer see it, nor hear about it.
    assertError(await t.client.get(`/nodes/${fileId}`, { token: alice.access }), 404, 'not_found');
    assert.equal((await t.client.patch(`/nodes/${fileId}`, { name: 'private.txt' }, { token: owner.access })).status, 200);
    await upload(owner, 'second private version', 'private.txt', undefined, fileId);
    assert.equal((await t.client.delete(`/nodes/${fileId}`, { token: owner.access })).status, 200);
    const later = await settle();
    assert.deepEqual(nodeEvents(later.owner, [fileId]), [
      'node.updated private.txt',
      'node.updated private.txt',
      'node.deleted private.txt',
    ]);
    for (const who of ['alice', 'bob', 'carol'] as const) assert.deepEqual(nodeEvents(later[who], [fileId]), [], who);
  });

  test('an item moved into a shared folder is announced to the grantees from then on, as appearing there (node.created), not as moved from where they could not see', async () => {
    const { folder } = await sharedTree('Arriving item');
    const outside = await mkdir(owner, unique('Outside'));
    await settle();
    assert.equal((await t.client.patch(`/nodes/${outside.id}`, { parent_id: folder.id }, { token: owner.access })).status, 200);
    assert.equal((await t.client.patch(`/nodes/${outside.id}`, { color: 'red' }, { token: owner.access })).status, 200);
    const got = await settle();
    assert.deepEqual(
      nodeEvents(got.owner, [outside.id]).map((e) => e.split(' ')[0]),
      ['node.moved', 'node.updated'],
    );
    for (const who of ['alice', 'bob'] as const) {
      assert.deepEqual(
        nodeEvents(got[who], [outside.id]).map((e) => e.split(' ')[0]),
        ['node.created', 'node.updated'],
        who,
      );
    }
    assert.deepEqual(nodeEvents(got.carol, [outside.id]), []);
  });
});

describe('stars on shared nodes', () => {
  test('a grantee may star a shared node (204); it shows in its filter=starred, not in the owner’s; after removal of the grant it no longer shows', async () => {
    const { folder, fileId } = await sharedTree('Starred');
    for (const id of [folder.id, fileId]) {
      const res = await t.client.post(`/nodes/${id}/star`, undefined, { token: alice.access });
      assert.equal(res.status, 204, JSON.stringify(res.body));
    }
    const starred = await list(alice, 'filter=starred');
    for (const id of [folder.id, fileId]) {
      const n = starred.find((x) => x.id === id);
      assert.ok(n, `starred ${id}`);
      assert.equal(n.starred, true);
      assert.equal(n.shared, true);
    }
    assert.equal((await t.client.get(`/nodes/${fileId}`, { token: alice.access })).body.starred, true);
    // A bookmark is private to the account.
    assert.equal((await t.client.get(`/nodes/${fileId}`, { token: owner.access })).body.starred, false);
    assert.ok(!(await list(owner, 'filter=starred')).some((n) => n.id === fileId || n.id === folder.id));
    assert.ok(!(await list(bob, 'filter=starred')).some((n) => n.id === fileId || n.id === folder.id));

    await revoke(owner, folder.id, alice.userId);
    const after = await list(alice, 'filter=starred');
    assert.ok(!after.some((n) => n.id === fileId || n.id === folder.id), JSON.stringify(after.map((n) => n.name)));
    // A stranger cannot star at all.
    assertError(await t.client.post(`/nodes/${fileId}/star`, undefined, { token: carol.access }), 404, 'not_found');
  });

  test('a starred item the owner moves out of the shared folder no longer shows in the former grantee’s filter=starred', async () => {
    const { fileId } = await sharedTree('Starred then moved');
    assert.equal((await t.client.post(`/nodes/${fileId}/star`, undefined, { token: alice.access })).status, 204);
    assert.ok((await list(alice, 'filter=starred')).some((n) => n.id === fileId));
    const elsewhere = await mkdir(owner, unique('Elsewhere'));
    assert.equal((await t.client.patch(`/nodes/${fileId}`, { parent_id: elsewhere.id }, { token: owner.access })).status, 200);
    assertError(await t.client.get(`/nodes/${fileId}`, { token: alice.access }), 404, 'not_found');
    const starred = await list(alice, 'filter=starred');
    assert.ok(!starred.some((n) => n.id === fileId), 'a bookmark must not reveal a node the account can no longer open');
  });
});
