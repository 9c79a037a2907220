// A phone backup sends only what is new: check-hashes tells, by SHA-256 and for the caller's own
// account only, which contents are already here, which were deleted on purpose (remembered until
// forgotten), and which are not, for every hash asked and in the order asked.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { createFolder, unique } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const DAY_MS = 24 * 60 * 60_000;

let t: TestServer;
let owner: SignedIn;
let members = 0;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

/** An account of its own per test: states never leak from one test into another. */
function freshAccount(): Promise<SignedIn> {
  return createMember(t.client, owner, `member${++members}`);
}

function photo(): { data: Buffer; hash: string } {
  const data = crypto.randomBytes(3000);
  return { data, hash: crypto.createHash('sha256').update(data).digest('hex') };
}

function upload(who: SignedIn, data: Buffer, options: { parentId?: string; chunkSize?: number } = {}): Promise<string> {
  return uploadFile(t.api, who.access, data, { filename: `${unique('IMG')}.jpg`, ...options });
}

async function check(who: SignedIn, hashes: string[]): Promise<{ hash: string; state: string; node_id?: string }[]> {
  const res = await t.client.post('/nodes/check-hashes', { algorithm: 'sha256', hashes }, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

async function stateOf(who: SignedIn, hash: string): Promise<string> {
  return (await check(who, [hash]))[0]!.state;
}

async function trash(who: SignedIn, id: string): Promise<void> {
  assert.equal((await t.client.delete(`/nodes/${id}`, { token: who.access })).status, 200);
}

async function deleteForGood(who: SignedIn, id: string): Promise<void> {
  assert.equal((await t.client.delete(`/nodes/${id}/permanent`, { token: who.access })).status, 204);
}

async function forget(who: SignedIn): Promise<void> {
  const res = await t.client.delete('/me/remembered-deletes', { token: who.access });
  assert.equal(res.status, 204, JSON.stringify(res.body));
}

describe('POST /nodes/check-hashes', () => {
  test('a file of mine is present with its node id; content nobody of mine has is absent', async () => {
    const me = await freshAccount();
    const mine = photo();
    const id = await upload(me, mine.data);
    const items = await check(me, [mine.hash, photo().hash]);
    assert.deepEqual(items[0], { hash: mine.hash, state: 'present', node_id: id });
    assert.deepEqual(items[1], { hash: items[1]!.hash, state: 'absent' });
  });

  test('a file sent in several requests (a resumed upload) is recognised by the SHA-256 of its whole content', async () => {
    const me = await freshAccount();
    const data = crypto.randomBytes(2500);
    const id = await upload(me, data, { chunkSize: 1000 });
    const whole = crypto.createHash('sha256').update(data).digest('hex');
    const lastRequest = crypto.createHash('sha256').update(data.subarray(2000)).digest('hex');
    assert.deepEqual(await check(me, [whole, lastRequest]), [
      { hash: whole, state: 'present', node_id: id },
      { hash: lastRequest, state: 'absent' },
    ]);
  });

  test('in the trash: deleted; restored: present again, and its delete forgotten (a change of mind)', async () => {
    const me = await freshAccount();
    const p = photo();
    const id = await upload(me, p.data);
    await trash(me, id);
    assert.deepEqual(await check(me, [p.hash]), [{ hash: p.hash, state: 'deleted' }]);
    assert.equal((await t.client.post(`/nodes/${id}/restore`, undefined, { token: me.access })).status, 200);
    assert.deepEqual(await check(me, [p.hash]), [{ hash: p.hash, state: 'present', node_id: id }]);
    // Edited afterwards, the file no longer holds that content: nobody deleted it on purpose.
    await uploadFile(t.api, me.access, photo().data, { nodeId: id });
    assert.equal(await stateOf(me, p.hash), 'absent');
  });

  test('deleted for good, from the trash or straight away: deleted', async () => {
    const me = await freshAccount();
    const fromTrash = photo();
    const straight = photo();
    const a = await upload(me, fromTrash.data);
    const b = await upload(me, straight.data);
    await trash(me, a);
    await deleteForGood(me, a);
    await deleteForGood(me, b);
    assert.deepEqual(
      (await check(me, [fromTrash.hash, straight.hash])).map((i) => i.state),
      ['deleted', 'deleted'],
    );
  });

  test('a folder moved to the trash or deleted for good takes its files with it: deleted', async () => {
    const me = await freshAccount();
    const trashed = await createFolder(t.client, me, 'Holiday');
    const gone = await createFolder(t.client, me, 'Old phone');
    const inTrashed = photo();
    const inGone = photo();
    await upload(me, inTrashed.data, { parentId: trashed.id });
    await upload(me, inGone.data, { parentId: gone.id });
    await trash(me, trashed.id);
    await deleteForGood(me, gone.id);
    assert.deepEqual(
      (await check(me, [inTrashed.hash, inGone.hash])).map((i) => i.state),
      ['deleted', 'deleted'],
    );
  });

  test('present wins: one copy in the trash and another one live is present, with the live one', async () => {
    const me = await freshAccount();
    const p = photo();
    const first = await upload(me, p.data);
    const second = await upload(me, p.data);
    await trash(me, first);
    assert.deepEqual(await check(me, [p.hash]), [{ hash: p.hash, state: 'present', node_id: second }]);
  });

  test('a file whose content was replaced by a new version no longer holds the old content', async () => {
    const me = await freshAccount();
    const before = photo();
    const after = photo();
    const id = await upload(me, before.data);
    assert.equal(await uploadFile(t.api, me.access, after.data, { nodeId: id }), id);
    assert.deepEqual(await check(me, [before.hash, after.hash]), [
      { hash: before.hash, state: 'absent' },
      { hash: after.hash, state: 'present', node_id: id },
    ]);
  });

  test("another account's identical file is absent for me, even shared with me; its deletes are not mine", async () => {
    const me = await freshAccount();
    const other = await freshAccount();
    const shared = photo();
    const deletedByOther = photo();
    const theirs = await upload(other, shared.data);
    const grant = await t.client.post(`/nodes/${theirs}/permissions`, { user_id: me.userId, role: 'editor' }, { token: other.access });
    assert.equal(grant.status, 201, JSON.stringify(grant.body));
    await deleteForGood(other, await upload(other, deletedByOther.data));
    assert.deepEqual(
      (await check(me, [shared.hash, deletedByOther.hash])).map((i) => i.state),
      ['absent', 'absent'],
    );
    // My own copy of it is mine.
    const mine = await upload(me, shared.data);
    assert.deepEqual(await check(me, [shared.hash]), [{ hash: shared.hash, state: 'present', node_id: mine }]);
  });

  test('the trash emptied by its expiry is remembered too', async () => {
    const me = await freshAccount();
    const p = photo();
    const id = await upload(me, p.data);
    await trash(me, id);
    // Forgotten while still in the trash: only the expiry can remember it again.
    await forget(me);
    assert.equal(await stateOf(me, p.hash), 'absent');
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare('UPDATE nodes SET trashed_at = ? WHERE id = ?').run(Date.now() - 400 * DAY_MS, id);
    } finally {
      db.close();
    }
    await t.server.runMaintenance();
    assertError(await t.client.get(`/nodes/${id}`, { token: me.access }), 404, 'not_found');
    assert.equal(await stateOf(me, p.hash), 'deleted');
  });

  test('answers keep the order asked, and a hash asked twice is answered twice', async () => {
    const me = await freshAccount();
    const here = photo();
    const gone = photo();
    const never = photo();
    const id = await upload(me, here.data);
    await deleteForGood(me, await upload(me, gone.data));
    const asked = [never.hash, here.hash, gone.hash, here.hash, never.hash];
    assert.deepEqual(await check(me, asked), [
      { hash: never.hash, state: 'absent' },
      { hash: here.hash, state: 'present', node_id: id },
      { hash: gone.hash, state: 'deleted' },
      { hash: here.hash, state: 'present', node_id: id },
      { hash: never.hash, state: 'absent' },
    ]);
  });

  test('1,000 hashes in one request are answered', async () => {
    const me = await freshAccount();
    const p = photo();
    const id = await upload(me, p.data);
    const hashes = Array.from({ length: 999 }, () => photo().hash).concat(p.hash);
    const items = await check(me, hashes);
    assert.equal(items.length, 1000);
    assert.deepEqual(
      items.map((i) => i.hash),
      hashes,
    );
    assert.deepEqual(items[999], { hash: p.hash, state: 'present', node_id: id });
    assert.equal(items.filter((i) => i.state === 'absent').length, 999);
  });

  test('bad requests are refused with a specific code and the field', async () => {
    const me = await freshAccount();
    const good = photo().hash;
    const post = (body: unknown) => t.client.post('/nodes/check-hashes', body, { token: me.access });
    assertError(await post({ algorithm: 'sha1', hashes: [good] }), 400, 'hash_algorithm_unsupported', 'algorithm');
    assertError(await post({ algorithm: 'SHA256', hashes: [good] }), 400, 'hash_algorithm_unsupported', 'algorithm');
    assertError(await post({ algorithm: 'sha256', hashes: [] }), 400, 'hash_count_out_of_range', 'hashes');
    const tooMany = Array.from({ length: 1001 }, () => good);
    assertError(await post({ algorithm: 'sha256', hashes: tooMany }), 400, 'hash_count_out_of_range', 'hashes');
    assertError(await post({ algorithm: 'sha256', hashes: [good, good.toUpperCase()] }), 400, 'invalid_hash', 'hashes.1');
    assertError(await post({ algorithm: 'sha256', hashes: [good.slice(1)] }), 400, 'invalid_hash', 'hashes.0');
    assertError(await post({ algorithm: 'sha256', hashes: [`${good.slice(1)}g`] }), 400, 'invalid_hash', 'hashes.0');
    assertError(await post({ algorithm: 'sha256', hashes: [42] }), 400, 'invalid_input', 'hashes.0');
    assertError(await post({ algorithm: 'sha256' }), 400, 'missing_field', 'hashes');
    assertError(await post({ hashes: [good] }), 400, 'missing_field', 'algorithm');
    assertError(await t.client.post('/nodes/check-hashes', { algorithm: 'sha256', hashes: [good] }), 401, 'unauthorized');
  });
});

describe('DELETE /me/remembered-deletes', () => {
  test("forgets the caller's remembered deletes, so the next backup sends them again; nobody else's, and nothing present", async () => {
    const me = await freshAccount();
    const other = await freshAccount();
    const gone = photo();
    const here = photo();
    const othersGone = photo();
    await deleteForGood(me, await upload(me, gone.data));
    const id = await upload(me, here.data);
    await deleteForGood(other, await upload(other, othersGone.data));
    await forget(me);
    assert.deepEqual(await check(me, [gone.hash, here.hash]), [
      { hash: gone.hash, state: 'absent' },
      { hash: here.hash, state: 'present', node_id: id },
    ]);
    assert.equal(await stateOf(other, othersGone.hash), 'deleted');
    // Forgetting when there is nothing to forget is the same answer.
    await forget(me);
    assertError(await t.client.delete('/me/remembered-deletes'), 401, 'unauthorized');
  });

  test('a delete after forgetting is remembered again', async () => {
    const me = await freshAccount();
    const p = photo();
    await forget(me);
    await deleteForGood(me, await upload(me, p.data));
    assert.equal(await stateOf(me, p.hash), 'deleted');
  });
});
