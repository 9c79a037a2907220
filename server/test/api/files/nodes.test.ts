import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { BusEvent } from '../../../src/events/bus.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';
import { createFolder, unique } from '../../helpers/nodes.ts';

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  bob = await createMember(t.client, owner, 'bob');
});
after(() => t.close());

const mkdir = (who: SignedIn, name: string, parentId?: string | null) => createFolder(t.client, who, name, parentId);

async function getNode(who: SignedIn, id: string): Promise<any> {
  const res = await t.client.get(`/nodes/${id}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function children(who: SignedIn, parentId: string): Promise<any[]> {
  const res = await t.client.get(`/nodes?parent_id=${encodeURIComponent(parentId)}&limit=1000`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

async function upload(who: SignedIn, data: Buffer | string, filename: string, parentId?: string): Promise<string> {
  return uploadFile(t.api, who.access, Buffer.isBuffer(data) ? data : Buffer.from(data), {
    filename,
    ...(parentId !== undefined && { parentId }),
  });
}

async function quotaUsed(who: SignedIn): Promise<number> {
  const me = await t.client.get('/me', { token: who.access });
  assert.equal(me.status, 200);
  return me.body.quota.used;
}

async function trash(who: SignedIn, id: string): Promise<any> {
  const res = await t.client.delete(`/nodes/${id}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

// ---------------------------------------------------------------------------------------------

describe('POST /nodes/folder', () => {
  test('a folder created with parent_id omitted, null or "root" is a top-level folder (201, parent_id null)', async () => {
    const omitted = await mkdir(alice, unique('Top omitted'));
    const nulled = await mkdir(alice, unique('Top null'), null);
    const rooted = await mkdir(alice, unique('Top root'), 'root');
    for (const folder of [omitted, nulled, rooted]) {
      assert.equal(folder.type, 'folder');
      assert.equal(folder.parent_id, null);
      assert.equal(folder.owner_id, alice.userId);
      assert.equal(folder.size, 0);
      assert.equal(folder.trashed_at, null);
    }
    const top = (await children(alice, 'root')).map((n) => n.id);
    for (const folder of [omitted, nulled, rooted]) assert.ok(top.includes(folder.id), folder.name);
  });

  test('a folder created inside another folder has it as parent and is listed there, not at the top level', async () => {
    const outer = await mkdir(alice, unique('Outer'));
    const inner = await mkdir(alice, 'Inner', outer.id);
    assert.equal(inner.parent_id, outer.id);
    assert.deepEqual(
      (await children(alice, outer.id)).map((n) => n.id),
      [inner.id],
    );
    assert.ok(!(await children(alice, 'root')).some((n) => n.id === inner.id));
    const deeper = await mkdir(alice, 'Deeper', inner.id);
    assert.equal(deeper.parent_id, inner.id);
  });

  test('a sibling with the same name ignoring case answers 409 name_conflict; the same name elsewhere is fine', async () => {
    const parent = await mkdir(alice, unique('Conflicts'));
    await mkdir(alice, 'Photos', parent.id);
    for (const name of ['Photos', 'PHOTOS', 'photos']) {
      const res = await t.client.post('/nodes/folder', { name, parent_id: parent.id }, { token: alice.access });
      assertError(res, 409, 'name_conflict');
      assert.equal(res.body.error.field, 'name');
    }
    // Composed and decomposed spellings are the same name.
    await mkdir(alice, '\u00c9cole', parent.id);
    assertError(
      await t.client.post('/nodes/folder', { name: 'E\u0301cole', parent_id: parent.id }, { token: alice.access }),
      409,
      'name_conflict',
    );
    assert.equal((await children(alice, parent.id)).length, 2);
    // Another folder, and another account, may use the name.
    const elsewhere = await mkdir(alice, unique('Elsewhere'));
    await mkdir(alice, 'Photos', elsewhere.id);
    await mkdir(bob, 'Photos');
  });

  test('an invalid name answers 400 invalid_name (too long: name_too_long) with field name, and nothing is created', async () => {
    const parent = await mkdir(alice, unique('Invalid names'));
    for (const name of ['', '   ', '.', '..', 'a/b', 'nul\0byte']) {
      const res = await t.client.post('/nodes/folder', { name, parent_id: parent.id }, { token: alice.access });
      assertError(res, 400, 'invalid_name');
      assert.equal(res.body.error.field, 'name');
    }
    // Too long has a code of its own (issue 19, finding 13), counted in bytes.
    for (const name of ['x'.repeat(256), '\u00e9'.repeat(128)]) {
      assertError(
        await t.client.post('/nodes/folder', { name, parent_id: parent.id }, { token: alice.access }),
        400,
        'name_too_long',
        'name',
      );
    }
    // 255 bytes of multi-byte characters is fine.
    const longest = await mkdir(alice, '\u00e9'.repeat(127) + 'a', parent.id);
    assert.equal(Buffer.byteLength(longest.name), 255);
    assert.equal((await children(alice, parent.id)).length, 1);
  });

  test('a name is stored in NFC', async () => {
    const folder = await mkdir(alice, unique('Cafe\u0301'));
    assert.ok(folder.name.startsWith('Caf\u00e9 '), folder.name);
  });

  test('a missing name answers 400 missing_field', async () => {
    assertError(await t.client.post('/nodes/folder', {}, { token: alice.access }), 400, 'missing_field');
  });

  test('a file as parent answers 400 invalid_input with field parent_id', async () => {
    const fileId = await upload(alice, 'just a file', `${unique('parent')}.txt`);
    const res = await t.client.post('/nodes/folder', { name: 'Child', parent_id: fileId }, { token: alice.access });
    assertError(res, 400, 'invalid_input');
    assert.equal(res.body.error.field, 'parent_id');
  });

  test("another account's folder, or an unknown id, as parent answers 404 not_found and creates nothing", async () => {
    const bobs = await mkdir(bob, unique('Bob private'));
    assertError(await t.client.post('/nodes/folder', { name: 'Intruder', parent_id: bobs.id }, { token: alice.access }), 404, 'not_found');
    assertError(
      await t.client.post('/nodes/folder', { name: 'Nowhere', parent_id: '01HZZZZZZZZZZZZZZZZZZZZZZZ' }, { token: alice.access }),
      404,
      'not_found',
    );
    assert.deepEqual(await children(bob, bobs.id), []);
  });

  test('a trashed folder as parent answers 409 in_trash', async () => {
    const bin = await mkdir(alice, unique('Binned parent'));
    await trash(alice, bin.id);
    assertError(await t.client.post('/nodes/folder', { name: 'Inside', parent_id: bin.id }, { token: alice.access }), 409, 'in_trash');
  });
});

describe('Idempotency-Key on POST /nodes/folder', () => {
  test('the same key twice answers the same body, creates exactly one folder, and marks the second answer Idempotent-Replayed: true', async () => {
    const parent = await mkdir(alice, unique('Idempotent'));
    const key = `key-${unique('k').replace(' ', '-')}`;
    const send = () =>
      t.client.post('/nodes/folder', { name: 'Once', parent_id: parent.id }, { token: alice.access, headers: { 'Idempotency-Key': key } });
    const first = await send();
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const second = await send();
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    const third = await send();
    assert.deepEqual(third.body, first.body);
    const listed = await children(alice, parent.id);
    assert.deepEqual(
      listed.map((n) => n.id),
      [first.body.id],
    );
  });

  test('without a key, the same request twice makes the second one a name_conflict', async () => {
    const parent = await mkdir(alice, unique('No key'));
    await mkdir(alice, 'Twice', parent.id);
    assertError(
      await t.client.post('/nodes/folder', { name: 'Twice', parent_id: parent.id }, { token: alice.access }),
      409,
      'name_conflict',
    );
  });

  test('the same key with a different body answers 409 idempotency_conflict and creates nothing', async () => {
    const parent = await mkdir(alice, unique('Key reuse'));
    const headers = { 'Idempotency-Key': 'reused-key-1' };
    const first = await t.client.post('/nodes/folder', { name: 'First', parent_id: parent.id }, { token: alice.access, headers });
    assert.equal(first.status, 201);
    const other = await t.client.post('/nodes/folder', { name: 'Second', parent_id: parent.id }, { token: alice.access, headers });
    assertError(other, 409, 'idempotency_conflict');
    assert.deepEqual(
      (await children(alice, parent.id)).map((n) => n.name),
      ['First'],
    );
  });

  test('different accounts may use the same key independently: each gets its own folder', async () => {
    const headers = { 'Idempotency-Key': 'shared-key-between-accounts' };
    const a = await t.client.post('/nodes/folder', { name: 'Alice keyed' }, { token: alice.access, headers });
    const b = await t.client.post('/nodes/folder', { name: 'Bob keyed' }, { token: bob.access, headers });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.equal(b.status, 201, JSON.stringify(b.body));
    assert.equal(b.headers.get('idempotent-replayed'), null);
    assert.notEqual(a.body.id, b.body.id);
    assert.equal(a.body.owner_id, alice.userId);
    assert.equal(b.body.owner_id, bob.userId);
    assert.equal(b.body.name, 'Bob keyed');
  });

  test('a request that failed is not remembered: the same key succeeds once the conflict is gone', async () => {
    const parent = await mkdir(alice, unique('Failed first'));
    const blocker = await mkdir(alice, 'Wanted', parent.id);
    const headers = { 'Idempotency-Key': 'retry-after-failure' };
    const send = () => t.client.post('/nodes/folder', { name: 'Wanted', parent_id: parent.id }, { token: alice.access, headers });
    assertError(await send(), 409, 'name_conflict');
    const renamed = await t.client.patch(`/nodes/${blocker.id}`, { name: 'Moved aside' }, { token: alice.access });
    assert.equal(renamed.status, 200);
    const retry = await send();
    assert.equal(retry.status, 201, JSON.stringify(retry.body));
    assert.equal(retry.headers.get('idempotent-replayed'), null);
    assert.notEqual(retry.body.id, blocker.id);
  });
});

describe('GET /nodes/{id} and GET /nodes/{id}/path', () => {
  test('a node carries exactly the fields of the Node resource', async () => {
    const folder = await mkdir(alice, unique('Fields'));
    const node = await getNode(alice, folder.id);
    assert.deepEqual(Object.keys(node).sort(), [
      'color',
      'created_at',
      'has_thumbnail',
      'id',
      'mime_type',
      'name',
      'owner_id',
      'parent_id',
      'shared',
      'size',
      'starred',
      'trashed_at',
      'type',
      'updated_at',
      'version',
    ]);
    assert.equal(node.id, folder.id);
    assert.equal(node.type, 'folder');
    assert.equal(node.name, folder.name);
    assert.equal(node.parent_id, null);
    assert.equal(node.owner_id, alice.userId);
    assert.equal(node.size, 0);
    assert.equal(node.mime_type, null);
    assert.ok(Number.isInteger(node.created_at) && node.created_at > 1_600_000_000_000);
    assert.ok(Number.isInteger(node.updated_at) && node.updated_at >= node.created_at);
    assert.equal(node.color, null);
    assert.equal(node.starred, false);
    assert.equal(node.trashed_at, null);
    assert.equal(typeof node.version, 'number');
    assert.equal(node.has_thumbnail, false);
    assert.deepEqual(node, folder);
  });

  test('a file node has its size, sniffed type and version 1', async () => {
    const data = Buffer.from('hello, a text file\n');
    const id = await upload(alice, data, `${unique('notes')}.txt`);
    const node = await getNode(alice, id);
    assert.equal(node.type, 'file');
    assert.equal(node.size, data.length);
    assert.equal(node.mime_type, 'text/plain');
    assert.equal(node.version, 1);
  });

  test('the path lists the ancestors from the top-level one down to the node itself, with no virtual root', async () => {
    const a = await mkdir(alice, unique('Path A'));
    const b = await mkdir(alice, 'Path B', a.id);
    const c = await mkdir(alice, 'Path C', b.id);
    const res = await t.client.get(`/nodes/${c.id}/path`, { token: alice.access });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.items.map((n: any) => n.id),
      [a.id, b.id, c.id],
    );
    assert.deepEqual(res.body.items[2], c);
    const top = await t.client.get(`/nodes/${a.id}/path`, { token: alice.access });
    assert.deepEqual(
      top.body.items.map((n: any) => n.id),
      [a.id],
    );
  });

  test('an unknown id answers 404 not_found', async () => {
    assertError(await t.client.get('/nodes/01HZZZZZZZZZZZZZZZZZZZZZZZ', { token: alice.access }), 404, 'not_found');
    assertError(await t.client.get('/nodes/01HZZZZZZZZZZZZZZZZZZZZZZZ/path', { token: alice.access }), 404, 'not_found');
  });
});

describe('PATCH /nodes/{id}: rename, move, recolor', () => {
  test("rename answers 200 with the new name; a sibling's name ignoring case answers 409 name_conflict", async () => {
    const parent = await mkdir(alice, unique('Rename'));
    const a = await mkdir(alice, 'Alpha', parent.id);
    await mkdir(alice, 'Beta', parent.id);
    const res = await t.client.patch(`/nodes/${a.id}`, { name: 'Gamma' }, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, 'Gamma');
    assert.equal(res.body.parent_id, parent.id);
    assert.ok(res.body.updated_at >= a.updated_at);
    assert.equal((await getNode(alice, a.id)).name, 'Gamma');
    const clash = await t.client.patch(`/nodes/${a.id}`, { name: 'BETA' }, { token: alice.access });
    assertError(clash, 409, 'name_conflict');
    assert.equal((await getNode(alice, a.id)).name, 'Gamma');
  });

  test('renaming to a different case of its own name is allowed', async () => {
    const folder = await mkdir(alice, unique('case me'));
    const upper = folder.name.toUpperCase();
    const res = await t.client.patch(`/nodes/${folder.id}`, { name: upper }, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.name, upper);
  });

  test('rename to an invalid name answers 400 invalid_name', async () => {
    const folder = await mkdir(alice, unique('Keep name'));
    for (const name of ['', '..', 'x/y']) {
      assertError(await t.client.patch(`/nodes/${folder.id}`, { name }, { token: alice.access }), 400, 'invalid_name');
    }
    assert.equal((await getNode(alice, folder.id)).name, folder.name);
  });

  test('move puts a node into another folder, and null or "root" moves it back to the top level', async () => {
    const target = await mkdir(alice, unique('Move target'));
    const mover = await mkdir(alice, unique('Mover'));
    const moved = await t.client.patch(`/nodes/${mover.id}`, { parent_id: target.id }, { token: alice.access });
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.parent_id, target.id);
    assert.deepEqual(
      (await children(alice, target.id)).map((n) => n.id),
      [mover.id],
    );
    assert.ok(!(await children(alice, 'root')).some((n) => n.id === mover.id));

    const toNull = await t.client.patch(`/nodes/${mover.id}`, { parent_id: null }, { token: alice.access });
    assert.equal(toNull.status, 200);
    assert.equal(toNull.body.parent_id, null);
    assert.ok((await children(alice, 'root')).some((n) => n.id === mover.id));

    await t.client.patch(`/nodes/${mover.id}`, { parent_id: target.id }, { token: alice.access });
    const toRoot = await t.client.patch(`/nodes/${mover.id}`, { parent_id: 'root' }, { token: alice.access });
    assert.equal(toRoot.status, 200);
    assert.equal(toRoot.body.parent_id, null);
    assert.deepEqual(await children(alice, target.id), []);
  });

  test('a file moves with its content, and rename and move in one request both apply', async () => {
    const target = await mkdir(alice, unique('File target'));
    const id = await upload(alice, 'movable', `${unique('movable')}.txt`);
    const res = await t.client.patch(`/nodes/${id}`, { parent_id: target.id, name: 'renamed.txt' }, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.parent_id, target.id);
    assert.equal(res.body.name, 'renamed.txt');
    const download = await t.client.get(`/nodes/${id}/download`, { token: alice.access });
    assert.equal(download.status, 200);
    assert.equal(download.body, 'movable');
  });

  test('moving into a folder that has the same name answers 409 name_conflict', async () => {
    const target = await mkdir(alice, unique('Crowded'));
    await mkdir(alice, 'Same', target.id);
    const other = await mkdir(alice, unique('Other'));
    const same = await mkdir(alice, 'SAME', other.id);
    assertError(await t.client.patch(`/nodes/${same.id}`, { parent_id: target.id }, { token: alice.access }), 409, 'name_conflict');
    assert.equal((await getNode(alice, same.id)).parent_id, other.id);
  });

  test('a folder moved into itself or any folder below it answers 409 invalid_move and stays put', async () => {
    const top = await mkdir(alice, unique('Ancestor'));
    const child = await mkdir(alice, 'Child', top.id);
    const grandchild = await mkdir(alice, 'Grandchild', child.id);
    for (const into of [top.id, child.id, grandchild.id]) {
      assertError(await t.client.patch(`/nodes/${top.id}`, { parent_id: into }, { token: alice.access }), 409, 'invalid_move');
    }
    assertError(await t.client.patch(`/nodes/${child.id}`, { parent_id: grandchild.id }, { token: alice.access }), 409, 'invalid_move');
    assert.equal((await getNode(alice, top.id)).parent_id, null);
    assert.equal((await getNode(alice, child.id)).parent_id, top.id);
    // Moving a grandchild up is fine.
    const up = await t.client.patch(`/nodes/${grandchild.id}`, { parent_id: top.id }, { token: alice.access });
    assert.equal(up.status, 200);
  });

  test('moving into a file answers 400 invalid_input; into an unknown folder 404 not_found', async () => {
    const folder = await mkdir(alice, unique('Not into files'));
    const fileId = await upload(alice, 'x', `${unique('target')}.txt`);
    assertError(await t.client.patch(`/nodes/${folder.id}`, { parent_id: fileId }, { token: alice.access }), 400, 'invalid_input');
    assertError(
      await t.client.patch(`/nodes/${folder.id}`, { parent_id: '01HZZZZZZZZZZZZZZZZZZZZZZZ' }, { token: alice.access }),
      404,
      'not_found',
    );
  });

  test('every allowed color can be set, null clears it, and anything else answers 400 invalid_input', async () => {
    const folder = await mkdir(alice, unique('Colors'));
    for (const color of ['blue', 'green', 'orange', 'red', 'purple', 'teal', 'neutral']) {
      const res = await t.client.patch(`/nodes/${folder.id}`, { color }, { token: alice.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.color, color);
      assert.equal((await getNode(alice, folder.id)).color, color);
    }
    const cleared = await t.client.patch(`/nodes/${folder.id}`, { color: null }, { token: alice.access });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.color, null);
    await t.client.patch(`/nodes/${folder.id}`, { color: 'teal' }, { token: alice.access });
    for (const color of ['pink', 'Blue', '', 7]) {
      const res = await t.client.patch(`/nodes/${folder.id}`, { color }, { token: alice.access });
      assertError(res, 400, 'invalid_input');
      assert.equal(res.body.error.field, 'color');
    }
    assert.equal((await getNode(alice, folder.id)).color, 'teal');
  });

  test('a patch that changes nothing answers 200 with the node unchanged', async () => {
    const folder = await mkdir(alice, unique('Unchanged'));
    const res = await t.client.patch(`/nodes/${folder.id}`, {}, { token: alice.access });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, folder);
  });
});

describe('POST and DELETE /nodes/{id}/star', () => {
  test("star and unstar answer 204, show in the owner's view of the node and in filter=starred, and emit no event", async () => {
    const folder = await mkdir(alice, unique('Starry'));
    const events: BusEvent[] = [];
    const unsubscribe = t.server.bus.subscribe((event) => events.push(event));
    try {
      const star = await t.client.post(`/nodes/${folder.id}/star`, undefined, { token: alice.access });
      assert.equal(star.status, 204);
      assert.equal(star.body, '');
      assert.equal((await getNode(alice, folder.id)).starred, true);
      const again = await t.client.post(`/nodes/${folder.id}/star`, undefined, { token: alice.access });
      assert.equal(again.status, 204);
      const starred = await t.client.get('/nodes?filter=starred', { token: alice.access });
      assert.equal(starred.status, 200);
      assert.deepEqual(
        starred.body.items.filter((n: any) => n.id === folder.id).map((n: any) => n.starred),
        [true],
      );

      const unstar = await t.client.delete(`/nodes/${folder.id}/star`, { token: alice.access });
      assert.equal(unstar.status, 204);
      assert.equal((await getNode(alice, folder.id)).starred, false);
      const after = await t.client.get('/nodes?filter=starred', { token: alice.access });
      assert.ok(!after.body.items.some((n: any) => n.id === folder.id));
      // Unstarring what is not starred is fine too.
      assert.equal((await t.client.delete(`/nodes/${folder.id}/star`, { token: alice.access })).status, 204);
      assert.deepEqual(
        events.map((e) => e.message.type),
        [],
      );
    } finally {
      unsubscribe();
    }
  });

  test("a star is the starring account's own: another account's view of its own nodes is unaffected", async () => {
    const mine = await mkdir(alice, unique('Alice star'));
    const theirs = await mkdir(bob, unique('Bob nostar'));
    assert.equal((await t.client.post(`/nodes/${mine.id}/star`, undefined, { token: alice.access })).status, 204);
    assert.equal((await getNode(bob, theirs.id)).starred, false);
    const bobStarred = await t.client.get('/nodes?filter=starred', { token: bob.access });
    assert.ok(!bobStarred.body.items.some((n: any) => n.id === mine.id));
  });
});

describe('DELETE /nodes/{id} (trash) and POST /nodes/{id}/restore', () => {
  test('trashing answers 200 with trashed_at set, and the node leaves its folder listing', async () => {
    const parent = await mkdir(alice, unique('Trash parent'));
    const folder = await mkdir(alice, 'Doomed', parent.id);
    const before = Date.now();
    const res = await t.client.delete(`/nodes/${folder.id}`, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.id, folder.id);
    assert.ok(Number.isInteger(res.body.trashed_at) && res.body.trashed_at >= before - 1000, JSON.stringify(res.body));
    assert.equal(res.body.parent_id, parent.id);
    assert.equal((await getNode(alice, folder.id)).trashed_at, res.body.trashed_at);
    assert.deepEqual(await children(alice, parent.id), []);
  });

  test('trashing does not free quota: trashed content still counts', async () => {
    const size = 3000;
    const id = await upload(alice, Buffer.alloc(size, 7), `${unique('counted')}.bin`);
    const used = await quotaUsed(alice);
    await trash(alice, id);
    assert.equal(await quotaUsed(alice), used);
  });

  test('changing a trashed node, or anything inside a trashed folder, answers 409 in_trash', async () => {
    const folder = await mkdir(alice, unique('Frozen'));
    const inner = await mkdir(alice, 'Inner', folder.id);
    const fileId = await upload(alice, 'content v1', 'frozen.txt', folder.id);
    const versions = await t.client.get(`/nodes/${fileId}/versions`, { token: alice.access });
    const vid = versions.body.items[0].id;
    const elsewhere = await mkdir(alice, unique('Elsewhere'));
    await trash(alice, folder.id);

    for (const id of [folder.id, inner.id, fileId]) {
      assertError(await t.client.patch(`/nodes/${id}`, { name: 'New name' }, { token: alice.access }), 409, 'in_trash');
      assertError(await t.client.patch(`/nodes/${id}`, { color: 'red' }, { token: alice.access }), 409, 'in_trash');
      assertError(await t.client.patch(`/nodes/${id}`, { parent_id: elsewhere.id }, { token: alice.access }), 409, 'in_trash');
      assertError(await t.client.delete(`/nodes/${id}`, { token: alice.access }), 409, 'in_trash');
    }
    assertError(await t.client.post(`/nodes/${fileId}/versions/${vid}/restore`, undefined, { token: alice.access }), 409, 'in_trash');
    assertError(await t.client.post('/nodes/folder', { name: 'New', parent_id: inner.id }, { token: alice.access }), 409, 'in_trash');
    // An active node cannot move into the trashed folder either.
    assertError(await t.client.patch(`/nodes/${elsewhere.id}`, { parent_id: folder.id }, { token: alice.access }), 409, 'in_trash');
    // What is inside a trashed folder comes back with the folder, not on its own.
    assertError(await t.client.post(`/nodes/${inner.id}/restore`, undefined, { token: alice.access }), 409, 'in_trash');
    assert.equal((await getNode(alice, inner.id)).name, 'Inner');
  });

  test('restoring a node that is not in the trash answers 409 not_in_trash', async () => {
    const folder = await mkdir(alice, unique('Active'));
    assertError(await t.client.post(`/nodes/${folder.id}/restore`, undefined, { token: alice.access }), 409, 'not_in_trash');
  });

  test('restore puts a folder back in its old folder with everything that was inside it', async () => {
    const parent = await mkdir(alice, unique('Home'));
    const folder = await mkdir(alice, 'Returning', parent.id);
    const inner = await mkdir(alice, 'Inner', folder.id);
    const fileId = await upload(alice, 'inside', 'inside.txt', folder.id);
    await trash(alice, folder.id);
    const res = await t.client.post(`/nodes/${folder.id}/restore`, undefined, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.trashed_at, null);
    assert.equal(res.body.parent_id, parent.id);
    assert.equal(res.body.name, 'Returning');
    assert.deepEqual(
      (await children(alice, parent.id)).map((n) => n.id),
      [folder.id],
    );
    assert.deepEqual((await children(alice, folder.id)).map((n) => n.id).sort(), [inner.id, fileId].sort());
    // Changes are allowed again.
    const renamed = await t.client.patch(`/nodes/${inner.id}`, { name: 'Inner again' }, { token: alice.access });
    assert.equal(renamed.status, 200);
  });

  test('restore gives a free name when the name was taken meanwhile: "x (1)", then "x (2)"; files keep their extension', async () => {
    const parent = await mkdir(alice, unique('Taken'));
    const first = await mkdir(alice, 'x', parent.id);
    await trash(alice, first.id);
    await mkdir(alice, 'X', parent.id);
    const restored = await t.client.post(`/nodes/${first.id}/restore`, undefined, { token: alice.access });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.name, 'x (1)');
    assert.equal(restored.body.parent_id, parent.id);

    const second = await mkdir(alice, 'y', parent.id);
    await trash(alice, second.id);
    await mkdir(alice, 'y', parent.id);
    await mkdir(alice, 'y (1)', parent.id);
    const again = await t.client.post(`/nodes/${second.id}/restore`, undefined, { token: alice.access });
    assert.equal(again.body.name, 'y (2)');

    const fileId = await upload(alice, 'photo', 'photo.jpg', parent.id);
    await trash(alice, fileId);
    await upload(alice, 'another photo', 'photo.jpg', parent.id);
    const file = await t.client.post(`/nodes/${fileId}/restore`, undefined, { token: alice.access });
    assert.equal(file.status, 200);
    assert.equal(file.body.name, 'photo (1).jpg');
  });

  test('restore lands at the top level when the old folder is itself in the trash', async () => {
    const parent = await mkdir(alice, unique('Gone parent'));
    const child = await mkdir(alice, unique('Orphan'), parent.id);
    await trash(alice, child.id);
    await trash(alice, parent.id);
    const res = await t.client.post(`/nodes/${child.id}/restore`, undefined, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.parent_id, null);
    assert.equal(res.body.trashed_at, null);
    assert.ok((await children(alice, 'root')).some((n) => n.id === child.id));
    // The parent is still in the trash.
    assert.notEqual((await getNode(alice, parent.id)).trashed_at, null);
  });

  test('a child trashed on its own inside a folder that is then deleted for good stays in the trash and restores to the top level', async () => {
    const parent = await mkdir(alice, unique('Deleted parent'));
    const child = await mkdir(alice, unique('Survivor'), parent.id);
    const sibling = await mkdir(alice, 'Goes with parent', parent.id);
    await trash(alice, child.id);
    await trash(alice, parent.id);
    const gone = await t.client.delete(`/nodes/${parent.id}/permanent`, { token: alice.access });
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    assertError(await t.client.get(`/nodes/${parent.id}`, { token: alice.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${sibling.id}`, { token: alice.access }), 404, 'not_found');

    const survivor = await getNode(alice, child.id);
    assert.notEqual(survivor.trashed_at, null);
    const inTrash = await t.client.get('/trash?limit=1000', { token: alice.access });
    assert.ok(inTrash.body.items.some((n: any) => n.id === child.id));

    const res = await t.client.post(`/nodes/${child.id}/restore`, undefined, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.parent_id, null);
    assert.ok((await children(alice, 'root')).some((n) => n.id === child.id));
  });

  test('restore lands at the top level when the old folder was deleted for good while the child was in the trash', async () => {
    const parent = await mkdir(alice, unique('Purged parent'));
    const child = await mkdir(alice, unique('Kept'), parent.id);
    await trash(alice, child.id);
    // The parent itself was never trashed: deleted for good directly.
    assert.equal((await t.client.delete(`/nodes/${parent.id}/permanent`, { token: alice.access })).status, 204);
    const res = await t.client.post(`/nodes/${child.id}/restore`, undefined, { token: alice.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.parent_id, null);
  });
});

describe('DELETE /nodes/{id}/permanent', () => {
  test('deleting for good answers 204; the node answers 404 afterwards and its content leaves the quota', async () => {
    const size = 12_345;
    const used0 = await quotaUsed(alice);
    const id = await upload(alice, Buffer.alloc(size, 1), `${unique('big')}.bin`);
    assert.equal(await quotaUsed(alice), used0 + size);
    await trash(alice, id);
    const res = await t.client.delete(`/nodes/${id}/permanent`, { token: alice.access });
    assert.equal(res.status, 204);
    assert.equal(res.body, '');
    assertError(await t.client.get(`/nodes/${id}`, { token: alice.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${id}/download`, { token: alice.access }), 404, 'not_found');
    assert.equal(await quotaUsed(alice), used0);
    assertError(await t.client.delete(`/nodes/${id}/permanent`, { token: alice.access }), 404, 'not_found');
  });

  test('deleting a folder for good removes everything below it and frees all of its content', async () => {
    const used0 = await quotaUsed(alice);
    const folder = await mkdir(alice, unique('Whole tree'));
    const inner = await mkdir(alice, 'Inner', folder.id);
    const a = await upload(alice, Buffer.alloc(1000, 2), 'a.bin', folder.id);
    const b = await upload(alice, Buffer.alloc(2000, 3), 'b.bin', inner.id);
    // A second version counts too.
    await uploadFile(t.api, alice.access, Buffer.alloc(500, 4), { nodeId: b });
    assert.equal(await quotaUsed(alice), used0 + 3500);
    await trash(alice, folder.id);
    assert.equal((await t.client.delete(`/nodes/${folder.id}/permanent`, { token: alice.access })).status, 204);
    for (const id of [folder.id, inner.id, a, b]) {
      assertError(await t.client.get(`/nodes/${id}`, { token: alice.access }), 404, 'not_found');
    }
    assert.equal(await quotaUsed(alice), used0);
  });
});

describe("Cross-account access: another account's node answers 404 not_found on every node route", () => {
  let folder: any;
  let trashed: any;
  let fileId: string;
  let versionId: string;
  let bobsFolder: any;

  before(async () => {
    folder = await mkdir(alice, unique('Alice secret'));
    trashed = await mkdir(alice, unique('Alice trashed'));
    await trash(alice, trashed.id);
    fileId = await upload(alice, 'private content', 'secret.txt', folder.id);
    const versions = await t.client.get(`/nodes/${fileId}/versions`, { token: alice.access });
    assert.equal(versions.status, 200);
    versionId = versions.body.items[0].id;
    bobsFolder = await mkdir(bob, unique('Bob own'));
  });

  function routes(): Array<[string, string, unknown?]> {
    return [
      ['GET', `/nodes/${folder.id}`],
      ['GET', `/nodes/${fileId}`],
      ['GET', `/nodes/${folder.id}/path`],
      ['PATCH', `/nodes/${folder.id}`, { name: 'Hijacked' }],
      ['PATCH', `/nodes/${folder.id}`, { color: 'red' }],
      ['PATCH', `/nodes/${folder.id}`, { parent_id: bobsFolder.id }],
      ['PATCH', `/nodes/${bobsFolder.id}`, { parent_id: folder.id }],
      ['POST', '/nodes/folder', { name: 'Planted', parent_id: folder.id }],
      ['DELETE', `/nodes/${folder.id}`],
      ['POST', `/nodes/${trashed.id}/restore`],
      ['DELETE', `/nodes/${trashed.id}/permanent`],
      ['DELETE', `/nodes/${fileId}/permanent`],
      ['POST', `/nodes/${folder.id}/star`],
      ['DELETE', `/nodes/${folder.id}/star`],
      ['GET', `/nodes/${fileId}/download`],
      ['GET', `/nodes/${fileId}/versions`],
      ['POST', `/nodes/${fileId}/versions/${versionId}/restore`],
      ['GET', `/nodes?parent_id=${folder.id}`],
    ];
  }

  test('every node route answers 404 not_found to another account, and nothing changes', async () => {
    for (const [method, route, body] of routes()) {
      const res = await t.client.request(method, route, { token: bob.access, ...(body !== undefined && { body }) });
      assertError(res, 404, 'not_found');
    }
    const after = await getNode(alice, folder.id);
    assert.deepEqual(after, folder);
    assert.equal((await getNode(alice, fileId)).version, 1);
    assert.notEqual((await getNode(alice, trashed.id)).trashed_at, null);
    assert.equal((await getNode(bob, bobsFolder.id)).parent_id, null);
    assert.deepEqual(
      (await children(alice, folder.id)).map((n) => n.id),
      [fileId],
    );
  });

  test('another account cannot mint a URL token for the node either: 404', async () => {
    const res = await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token: bob.access });
    assertError(res, 404, 'not_found');
  });

  test("another account's node does not appear in its listings, searches or trash", async () => {
    for (const q of ['/nodes', '/nodes?query=secret', '/nodes?filter=recent', '/nodes?filter=starred', '/nodes?filter=gallery', '/trash']) {
      const res = await t.client.get(q, { token: bob.access });
      assert.equal(res.status, 200, q);
      const ids = res.body.items.map((n: any) => n.id);
      for (const id of [folder.id, fileId, trashed.id]) assert.ok(!ids.includes(id), `${q} shows ${id}`);
    }
  });

  test('every node route answers 401 without a token', async () => {
    for (const [method, route, body] of routes()) {
      const res = await t.client.request(method, route, body === undefined ? {} : { body });
      assertError(res, 401, 'unauthorized');
    }
    for (const route of ['/trash', '/activity', '/nodes']) assertError(await t.client.get(route), 401, 'unauthorized');
  });
});

// ---------------------------------------------------------------------------------------------

type Message = EventMessage;
const openEvents = (who: SignedIn) => EventSocket.open(t.url, who.access);

const nodeEvent = (type: string, id: string) => (m: Message) => m.type === type && m.payload?.node?.id === id;
const isNodeEvent = (m: Message) => m.type.startsWith('node.');

describe('Events over WebSocket', () => {
  test('each change of the tree reaches the owner as its node event, and another account receives none of them', async () => {
    const aliceWs = await openEvents(alice);
    const bobWs = await openEvents(bob);
    try {
      const folder = await mkdir(alice, unique('Evented'));
      const [created] = (await aliceWs.until(nodeEvent('node.created', folder.id))).slice(-1);
      assert.deepEqual(created!.payload.node, folder);
      assert.ok(Number.isInteger(created!.at));

      const fileId = await upload(alice, 'evented content', 'evented.txt', folder.id);
      const [uploaded] = (await aliceWs.until(nodeEvent('node.created', fileId))).slice(-1);
      assert.equal(uploaded!.payload.node.type, 'file');
      assert.equal(uploaded!.payload.node.parent_id, folder.id);
      assert.equal(uploaded!.payload.node.size, 'evented content'.length);

      assert.equal((await t.client.patch(`/nodes/${fileId}`, { name: 'renamed.txt' }, { token: alice.access })).status, 200);
      const [renamed] = (await aliceWs.until(nodeEvent('node.updated', fileId))).slice(-1);
      assert.equal(renamed!.payload.node.name, 'renamed.txt');

      assert.equal((await t.client.patch(`/nodes/${folder.id}`, { color: 'green' }, { token: alice.access })).status, 200);
      const [recolored] = (await aliceWs.until(nodeEvent('node.updated', folder.id))).slice(-1);
      assert.equal(recolored!.payload.node.color, 'green');

      const target = await mkdir(alice, unique('Event target'));
      await aliceWs.until(nodeEvent('node.created', target.id));
      assert.equal((await t.client.patch(`/nodes/${fileId}`, { parent_id: target.id }, { token: alice.access })).status, 200);
      const moves = await aliceWs.until(nodeEvent('node.moved', fileId));
      const moved = moves[moves.length - 1]!;
      assert.equal(moved.payload.from_parent_id, folder.id);
      assert.equal(moved.payload.node.parent_id, target.id);
      // A move is not also reported as an update.
      assert.ok(!moves.some((m) => m.type === 'node.updated' && m.payload.node.id === fileId));

      assert.equal((await t.client.patch(`/nodes/${folder.id}`, { parent_id: target.id }, { token: alice.access })).status, 200);
      const [movedFolder] = (await aliceWs.until(nodeEvent('node.moved', folder.id))).slice(-1);
      assert.equal(movedFolder!.payload.from_parent_id, null);

      await trash(alice, fileId);
      const [trashedEvent] = (await aliceWs.until(nodeEvent('node.deleted', fileId))).slice(-1);
      assert.equal(trashedEvent!.payload.permanent, false);
      assert.equal(typeof trashedEvent!.payload.node.trashed_at, 'number');

      assert.equal((await t.client.post(`/nodes/${fileId}/restore`, undefined, { token: alice.access })).status, 200);
      const [restored] = (await aliceWs.until(nodeEvent('node.restored', fileId))).slice(-1);
      assert.equal(restored!.payload.node.trashed_at, null);

      await trash(alice, fileId);
      await aliceWs.until(nodeEvent('node.deleted', fileId));
      assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: alice.access })).status, 204);
      const [deleted] = (await aliceWs.until(nodeEvent('node.deleted', fileId))).slice(-1);
      assert.equal(deleted!.payload.permanent, true);
      assert.equal(deleted!.payload.node.id, fileId);

      // Bob's own change arrives on his socket, and nothing of Alice's came before it.
      const bobs = await mkdir(bob, unique('Bob sentinel'));
      const bobMessages = await bobWs.until(nodeEvent('node.created', bobs.id));
      // Server-wide events (library.changed on usage, settings) reach everyone; account events must not.
      const personal = bobMessages.slice(0, -1).filter((m) => !['library.changed', 'server.settings_changed'].includes(m.type));
      assert.deepEqual(
        personal.map((m) => m.type),
        [],
        "another account received events about Alice's nodes",
      );
    } finally {
      aliceWs.close();
      bobWs.close();
    }
  });

  test('starring and unstarring send nothing on the socket', async () => {
    const ws = await openEvents(alice);
    try {
      const folder = await mkdir(alice, unique('Quiet star'));
      await ws.until(nodeEvent('node.created', folder.id));
      assert.equal((await t.client.post(`/nodes/${folder.id}/star`, undefined, { token: alice.access })).status, 204);
      assert.equal((await t.client.delete(`/nodes/${folder.id}/star`, { token: alice.access })).status, 204);
      assert.equal((await t.client.patch(`/nodes/${folder.id}`, { name: `${folder.name} renamed` }, { token: alice.access })).status, 200);
      const messages = await ws.until(nodeEvent('node.updated', folder.id));
      assert.deepEqual(
        messages
          .slice(0, -1)
          .filter(isNodeEvent)
          .map((m) => m.type),
        [],
      );
      // Server-wide events (library usage) may come at any time; nothing of the star may.
      assert.deepEqual(
        messages
          .slice(0, -1)
          .filter((m) => m.type !== 'library.changed')
          .map((m) => m.type),
        [],
      );
    } finally {
      ws.close();
    }
  });
});
