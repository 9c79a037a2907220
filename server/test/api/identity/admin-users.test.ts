import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;
let carol: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  bob = await createMember(t.client, owner, 'bob');
  carol = await createMember(t.client, owner, 'carol');
});
after(() => t.close());

async function adminUser(id: string) {
  let cursor: string | null = null;
  do {
    const res: ApiResponse = await t.client.get(`/admin/users?limit=1000${cursor ? `&cursor=${cursor}` : ''}`, {
      token: owner.access,
    });
    assert.equal(res.status, 200);
    const found = res.body.items.find((u: any) => u.id === id);
    if (found) return found;
    cursor = res.body.next_cursor;
  } while (cursor);
  throw new Error(`user ${id} not listed`);
}

describe('GET /admin/users', () => {
  test('an admin lists every account in pages of `limit`, following next_cursor to the end', async () => {
    const first = await t.client.get('/admin/users?limit=2', { token: owner.access });
    assert.equal(first.status, 200);
    assert.deepEqual(Object.keys(first.body).sort(), ['items', 'next_cursor']);
    assert.equal(first.body.items.length, 2);
    assert.equal(typeof first.body.next_cursor, 'string');

    const second = await t.client.get(`/admin/users?limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`, {
      token: owner.access,
    });
    assert.equal(second.status, 200);
    assert.equal(second.body.items.length, 2);
    assert.equal(second.body.next_cursor, null);

    const ids = [...first.body.items, ...second.body.items].map((u: any) => u.id);
    assert.equal(new Set(ids).size, 4, 'no account appears twice');
    assert.deepEqual(new Set(ids), new Set([owner.userId, alice.userId, bob.userId, carol.userId]));

    const all = await t.client.get('/admin/users', { token: owner.access });
    assert.equal(all.status, 200);
    assert.equal(all.body.items.length, 4);
    assert.equal(all.body.next_cursor, null);
  });

  test('an admin user record carries role, quota, disabled and never a secret', async () => {
    const me = await adminUser(alice.userId);
    assert.equal(me.username, 'alice');
    assert.equal(me.role, 'member');
    assert.equal(me.disabled, false);
    assert.deepEqual(me.quota, { used: 0, limit: null });
    assert.equal(typeof me.created_at, 'number');
    const text = JSON.stringify(me);
    assert.ok(!/password_hash|totp_secret|scrypt/.test(text), text);
  });

  test('a bad cursor answers 400 invalid_cursor', async () => {
    assertError(await t.client.get('/admin/users?cursor=not*a*cursor', { token: owner.access }), 400, 'invalid_cursor', 'cursor');
    assertError(await t.client.get('/admin/users?cursor=%00%01', { token: owner.access }), 400, 'invalid_cursor');
  });

  test('limit=0, limit above 1000 and a non-numeric limit answer 400 invalid_input', async () => {
    assertError(await t.client.get('/admin/users?limit=0', { token: owner.access }), 400, 'invalid_input', 'limit');
    assertError(await t.client.get('/admin/users?limit=1001', { token: owner.access }), 400, 'invalid_input', 'limit');
    assertError(await t.client.get('/admin/users?limit=abc', { token: owner.access }), 400, 'invalid_input', 'limit');
    assertError(await t.client.get('/admin/users?limit=1.5', { token: owner.access }), 400, 'invalid_input', 'limit');
  });

  test('a member gets 403 forbidden on GET /admin/users and no token gets 401', async () => {
    assertError(await t.client.get('/admin/users', { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/users'), 401, 'unauthorized');
  });
});

describe('PATCH /admin/users/:id', () => {
  test('an admin promotes a member to admin, who may then use admin routes, and demotes them again', async () => {
    const up = await t.client.patch(`/admin/users/${bob.userId}`, { role: 'admin' }, { token: owner.access });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    assert.equal(up.body.id, bob.userId);
    assert.equal(up.body.role, 'admin');
    assert.equal((await t.client.get('/admin/users', { token: bob.access })).status, 200);

    const down = await t.client.patch(`/admin/users/${bob.userId}`, { role: 'member' }, { token: owner.access });
    assert.equal(down.status, 200);
    assert.equal(down.body.role, 'member');
    assertError(await t.client.get('/admin/users', { token: bob.access }), 403, 'forbidden');
  });

  test("an admin sets and clears one account's quota, which GET /me reports", async () => {
    const set = await t.client.patch(`/admin/users/${alice.userId}`, { quota_bytes: 5_000_000 }, { token: owner.access });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.quota, { used: 0, limit: 5_000_000 });
    const me = await t.client.get('/me', { token: alice.access });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.quota, { used: 0, limit: 5_000_000 });

    const clear = await t.client.patch(`/admin/users/${alice.userId}`, { quota_bytes: null }, { token: owner.access });
    assert.equal(clear.status, 200);
    assert.equal(clear.body.quota.limit, null);
    assert.equal((await t.client.get('/me', { token: alice.access })).body.quota.limit, null);
  });

  test('disabling an account revokes its sessions, hides it from GET /users and refuses sign-in; enabling restores sign-in', async () => {
    const dave = await createMember(t.client, owner, 'dave');
    const dave2 = await login(t.client, 'dave', dave.password);
    assert.ok((await t.client.get('/users', { token: owner.access })).body.items.some((u: any) => u.id === dave.userId));

    const off = await t.client.patch(`/admin/users/${dave.userId}`, { disabled: true }, { token: owner.access });
    assert.equal(off.status, 200);
    assert.equal(off.body.disabled, true);

    assertError(await t.client.get('/me', { token: dave.access }), 401, 'invalid_token');
    assertError(await t.client.get('/me', { token: dave2.access }), 401, 'invalid_token');
    assertError(await t.client.post('/auth/refresh', { refresh_token: dave.refresh }), 401, 'invalid_refresh_token');

    const users = await t.client.get('/users', { token: owner.access });
    assert.equal(users.status, 200);
    assert.ok(!users.body.items.some((u: any) => u.id === dave.userId), 'disabled accounts are left out of /users');
    assert.ok(users.body.items.some((u: any) => u.id === alice.userId));
    assert.equal((await adminUser(dave.userId)).disabled, true, 'admins still see disabled accounts');

    assertError(await t.client.post('/auth/login', { username: 'dave', password: dave.password }), 403, 'account_disabled');

    const on = await t.client.patch(`/admin/users/${dave.userId}`, { disabled: false }, { token: owner.access });
    assert.equal(on.status, 200);
    assert.equal(on.body.disabled, false);
    assertError(await t.client.get('/me', { token: dave.access }), 401, 'invalid_token', undefined);
    const again = await login(t.client, 'dave', dave.password);
    assert.equal((await t.client.get('/me', { token: again.access })).status, 200);
  });

  test('demoting or disabling the last admin answers 409 last_admin and changes nothing', async () => {
    assertError(await t.client.patch(`/admin/users/${owner.userId}`, { role: 'member' }, { token: owner.access }), 409, 'last_admin');
    assertError(await t.client.patch(`/admin/users/${owner.userId}`, { disabled: true }, { token: owner.access }), 409, 'last_admin');
    // No partial write: the quota in the same refused patch is not applied either.
    assertError(
      await t.client.patch(`/admin/users/${owner.userId}`, { quota_bytes: 123, role: 'member' }, { token: owner.access }),
      409,
      'last_admin',
    );
    const me = await t.client.get('/me', { token: owner.access });
    assert.equal(me.status, 200, 'the owner is still signed in');
    assert.equal(me.body.role, 'admin');
    assert.equal(me.body.quota.limit, null);
    assert.equal((await adminUser(owner.userId)).disabled, false);
  });

  test('with a second admin, one admin may be demoted; the remaining one is then the last', async () => {
    assert.equal((await t.client.patch(`/admin/users/${carol.userId}`, { role: 'admin' }, { token: owner.access })).status, 200);
    const disable = await t.client.patch(`/admin/users/${carol.userId}`, { disabled: true }, { token: owner.access });
    assert.equal(disable.status, 200);
    // A disabled admin does not count: the owner is again the last active admin.
    assertError(await t.client.patch(`/admin/users/${owner.userId}`, { role: 'member' }, { token: owner.access }), 409, 'last_admin');
    assert.equal(
      (await t.client.patch(`/admin/users/${carol.userId}`, { disabled: false, role: 'member' }, { token: owner.access })).status,
      200,
    );
    carol = await login(t.client, 'carol', carol.password);
    const row = await adminUser(carol.userId);
    assert.equal(row.role, 'member');
    assert.equal(row.disabled, false);
  });

  test('an unknown account id answers 404 not_found', async () => {
    assertError(
      await t.client.patch('/admin/users/01NOSUCHUSER000000000000000', { role: 'member' }, { token: owner.access }),
      404,
      'not_found',
    );
  });

  test('bad types in PATCH /admin/users/:id answer 400 invalid_input naming the field', async () => {
    const url = `/admin/users/${alice.userId}`;
    assertError(await t.client.patch(url, { role: 'superuser' }, { token: owner.access }), 400, 'invalid_input', 'role');
    assertError(await t.client.patch(url, { quota_bytes: -1 }, { token: owner.access }), 400, 'invalid_input', 'quota_bytes');
    assertError(await t.client.patch(url, { quota_bytes: '5' }, { token: owner.access }), 400, 'invalid_input', 'quota_bytes');
    assertError(await t.client.patch(url, { quota_bytes: 1.5 }, { token: owner.access }), 400, 'invalid_input', 'quota_bytes');
    assertError(await t.client.patch(url, { disabled: 'yes' }, { token: owner.access }), 400, 'invalid_input', 'disabled');
    const row = await adminUser(alice.userId);
    assert.equal(row.role, 'member');
    assert.equal(row.disabled, false);
  });

  test('a member gets 403 forbidden on PATCH /admin/users/:id and reset-password', async () => {
    assertError(await t.client.patch(`/admin/users/${alice.userId}`, { role: 'admin' }, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.patch(`/admin/users/${bob.userId}`, { disabled: true }, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.post(`/admin/users/${bob.userId}/reset-password`, {}, { token: alice.access }), 403, 'forbidden');
    assert.equal((await adminUser(alice.userId)).role, 'member');
    assert.equal((await adminUser(bob.userId)).disabled, false);
  });
});
