import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../helpers/accounts.ts';
import { makeTempDir, startTestServer, type ApiResponse, type TestServer } from '../helpers/server.ts';
import { assertError } from '../helpers/assert.ts';

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

async function createInvite(body: object = {}) {
  const res = await t.client.post('/admin/invites', body, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

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

  test('an admin sets and clears one account\'s quota, which GET /me reports', async () => {
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
    assertError(await t.client.patch('/admin/users/01NOSUCHUSER000000000000000', { role: 'member' }, { token: owner.access }), 404, 'not_found');
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

describe('invites', () => {
  test('POST /admin/invites answers 201 with the code, which GET /admin/invites never shows again', async () => {
    const invite = await createInvite();
    assert.equal(typeof invite.id, 'string');
    assert.equal(typeof invite.code, 'string');
    assert.ok(invite.code.length >= 16, 'an invite code carries enough randomness');
    assert.equal(invite.role, 'member');
    assert.equal(invite.max_uses, 1);
    assert.equal(invite.uses, 0);
    assert.equal(invite.expires_at, null);
    assert.equal(invite.created_by, owner.userId);

    const list = await t.client.get('/admin/invites', { token: owner.access });
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body.items));
    assert.equal(list.body.next_cursor, null);
    const listed = list.body.items.find((i: any) => i.id === invite.id);
    assert.ok(listed, 'the new invite is listed');
    for (const item of list.body.items) assert.ok(!('code' in item), 'codes are never listed');
    assert.ok(!JSON.stringify(list.body).includes(invite.code));
  });

  test('GET /admin/invites pages with limit and cursor', async () => {
    await createInvite();
    await createInvite();
    const first = await t.client.get('/admin/invites?limit=1', { token: owner.access });
    assert.equal(first.status, 200);
    assert.equal(first.body.items.length, 1);
    assert.equal(typeof first.body.next_cursor, 'string');
    const second = await t.client.get(`/admin/invites?limit=1&cursor=${first.body.next_cursor}`, { token: owner.access });
    assert.equal(second.status, 200);
    assert.equal(second.body.items.length, 1);
    assert.notEqual(second.body.items[0].id, first.body.items[0].id);
    assertError(await t.client.get('/admin/invites?cursor=***', { token: owner.access }), 400, 'invalid_cursor');
  });

  test('a fresh invite checks valid; a deleted one answers 204 and then checks invalid', async () => {
    const invite = await createInvite();
    const fresh = await t.client.get(`/invites/${invite.code}/check`);
    assert.equal(fresh.status, 200);
    assert.deepEqual(fresh.body, { valid: true });

    const del = await t.client.delete(`/admin/invites/${invite.id}`, { token: owner.access });
    assert.equal(del.status, 204);
    assert.equal(del.body, '');
    const gone = await t.client.get(`/invites/${invite.code}/check`);
    assert.equal(gone.status, 200);
    assert.deepEqual(gone.body, { valid: false });
    const list = await t.client.get('/admin/invites?limit=1000', { token: owner.access });
    assert.ok(!list.body.items.some((i: any) => i.id === invite.id));

    assertError(await t.client.delete(`/admin/invites/${invite.id}`, { token: owner.access }), 404, 'not_found');
    assertError(
      await t.client.post('/auth/register', { username: 'ghost', password: 'ghost-password-1', invite_code: invite.code }),
      400,
      'invalid_invite',
      'invite_code',
    );
  });

  test('an unknown invite code checks invalid', async () => {
    const res = await t.client.get('/invites/AAAAAAAAAAAAAAAAAAAAAAAA/check');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { valid: false });
  });

  test('an invite with a future expiry checks valid with its expires_at', async () => {
    const expires = Date.now() + 3_600_000;
    const invite = await createInvite({ expires_at: expires });
    assert.equal(invite.expires_at, expires);
    const res = await t.client.get(`/invites/${invite.code}/check`);
    assert.deepEqual(res.body, { valid: true, expires_at: expires });
  });

  test('an invite with expires_at in the past answers 400', async () => {
    assertError(await t.client.post('/admin/invites', { expires_at: Date.now() - 1000 }, { token: owner.access }), 400, 'invalid_input', 'expires_at');
    assertError(await t.client.post('/admin/invites', { expires_at: 'tomorrow' }, { token: owner.access }), 400, 'invalid_input', 'expires_at');
    assertError(await t.client.post('/admin/invites', { max_uses: 0 }, { token: owner.access }), 400, 'invalid_input', 'max_uses');
    assertError(await t.client.post('/admin/invites', { role: 'owner' }, { token: owner.access }), 400, 'invalid_input', 'role');
  });

  test('an invite with max_uses 2 allows two registrations, then answers invalid_invite', async () => {
    const invite = await createInvite({ max_uses: 2 });
    assert.equal(invite.max_uses, 2);
    for (const name of ['erin', 'frank']) {
      const reg = await t.client.post('/auth/register', { username: name, password: `${name}-password-1`, invite_code: invite.code });
      assert.equal(reg.status, 201, JSON.stringify(reg.body));
      assert.equal(reg.body.user.username, name);
      assert.equal(reg.body.user.role, 'member');
    }
    assert.deepEqual((await t.client.get(`/invites/${invite.code}/check`)).body, { valid: false });
    assertError(
      await t.client.post('/auth/register', { username: 'gina', password: 'gina-password-1', invite_code: invite.code }),
      400,
      'invalid_invite',
      'invite_code',
    );
    const listed = (await t.client.get('/admin/invites?limit=1000', { token: owner.access })).body.items.find(
      (i: any) => i.id === invite.id,
    );
    assert.equal(listed.uses, 2);
    assertError(await t.client.post('/auth/login', { username: 'gina', password: 'gina-password-1' }), 401, 'invalid_credentials');
  });

  test('an invite with role admin registers an admin', async () => {
    const invite = await createInvite({ role: 'admin' });
    const reg = await t.client.post('/auth/register', { username: 'hank', password: 'hank-password-1', invite_code: invite.code });
    assert.equal(reg.status, 201);
    assert.equal(reg.body.user.role, 'admin');
    const hank = await login(t.client, 'hank', 'hank-password-1');
    assert.equal((await t.client.get('/admin/users', { token: hank.access })).status, 200);
    // Leave the server with the owner as the only admin for the other tests.
    assert.equal((await t.client.patch(`/admin/users/${hank.userId}`, { role: 'member' }, { token: owner.access })).status, 200);
  });

  test('registering without an invite while self registration is off answers 403 invite_required', async () => {
    assertError(await t.client.post('/auth/register', { username: 'ivan', password: 'ivan-password-1' }), 403, 'invite_required');
  });

  test('a member gets 403 forbidden on every invite admin route', async () => {
    const invite = await createInvite();
    assertError(await t.client.get('/admin/invites', { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.post('/admin/invites', {}, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/admin/invites/${invite.id}`, { token: alice.access }), 403, 'forbidden');
    assert.deepEqual((await t.client.get(`/invites/${invite.code}/check`)).body, { valid: true }, 'the member deleted nothing');
    assertError(await t.client.post('/admin/invites', {}), 401, 'unauthorized');
  });
});

describe('server settings', () => {
  test('GET /server/settings answers any signed-in user with the defaults', async () => {
    const res = await t.client.get('/server/settings', { token: alice.access });
    assert.equal(res.status, 200);
    assert.equal(typeof res.body.server_name, 'string');
    assert.ok(res.body.server_name.length > 0);
    assert.equal(res.body.allow_self_registration, false);
    assert.equal(res.body.require_device_approval, false);
    assert.equal(res.body.trash_retention_days, 30);
    assert.equal(res.body.default_quota_bytes, null);
    assert.deepEqual(res.body, (await t.client.get('/server/settings', { token: owner.access })).body);
    assertError(await t.client.get('/server/settings'), 401, 'unauthorized');
  });

  test('an admin PATCHes settings and gets 200 with the new values, seen by everyone', async () => {
    const res = await t.client.patch(
      '/server/settings',
      { server_name: '  Family Cloud  ', trash_retention_days: 14 },
      { token: owner.access },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.server_name, 'Family Cloud');
    assert.equal(res.body.trash_retention_days, 14);
    assert.equal(res.body.allow_self_registration, false);
    const seen = await t.client.get('/server/settings', { token: alice.access });
    assert.equal(seen.body.server_name, 'Family Cloud');
    assert.equal(seen.body.trash_retention_days, 14);
    assert.equal((await t.client.get('/status')).body.name, 'Family Cloud');
    assert.equal(
      (await t.client.patch('/server/settings', { trash_retention_days: 30 }, { token: owner.access })).body.trash_retention_days,
      30,
    );
  });

  test('a member gets 403 forbidden on PATCH /server/settings and nothing changes', async () => {
    const before = (await t.client.get('/server/settings', { token: owner.access })).body;
    assertError(await t.client.patch('/server/settings', { server_name: 'Hacked' }, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.patch('/server/settings', { allow_self_registration: true }, { token: bob.access }), 403, 'forbidden');
    assert.deepEqual((await t.client.get('/server/settings', { token: owner.access })).body, before);
  });

  test('bad settings values answer 400 and write nothing', async () => {
    const before = (await t.client.get('/server/settings', { token: owner.access })).body;
    const cases: [object, string][] = [
      [{ trash_retention_days: 0 }, 'trash_retention_days'],
      [{ trash_retention_days: 1.5 }, 'trash_retention_days'],
      [{ trash_retention_days: '30' }, 'trash_retention_days'],
      [{ server_name: '' }, 'server_name'],
      [{ server_name: '    ' }, 'server_name'],
      [{ server_name: 42 }, 'server_name'],
      [{ default_quota_bytes: -1 }, 'default_quota_bytes'],
      [{ allow_self_registration: 'true' }, 'allow_self_registration'],
      [{ require_device_approval: 1 }, 'require_device_approval'],
      [{ server_name: 'Partial', trash_retention_days: 0 }, 'trash_retention_days'],
    ];
    for (const [body, field] of cases) {
      const res = await t.client.patch('/server/settings', body, { token: owner.access });
      assertError(res, 400, 'invalid_input', field);
    }
    assert.deepEqual((await t.client.get('/server/settings', { token: owner.access })).body, before);
  });

  test('default_quota_bytes applies to accounts created afterwards, not to existing ones', async () => {
    const set = await t.client.patch('/server/settings', { default_quota_bytes: 1_000_000 }, { token: owner.access });
    assert.equal(set.status, 200);
    assert.equal(set.body.default_quota_bytes, 1_000_000);
    const judy = await createMember(t.client, owner, 'judy');
    const me = await t.client.get('/me', { token: judy.access });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body.quota, { used: 0, limit: 1_000_000 });
    assert.equal((await t.client.get('/me', { token: alice.access })).body.quota.limit, null);

    const clear = await t.client.patch('/server/settings', { default_quota_bytes: null }, { token: owner.access });
    assert.equal(clear.status, 200);
    assert.equal(clear.body.default_quota_bytes, null);
    const kate = await createMember(t.client, owner, 'kate');
    assert.equal((await t.client.get('/me', { token: kate.access })).body.quota.limit, null);
    assert.equal((await t.client.get('/me', { token: judy.access })).body.quota.limit, 1_000_000);
  });

  test('allow_self_registration lets people register without an invite', async () => {
    assert.equal((await t.client.patch('/server/settings', { allow_self_registration: true }, { token: owner.access })).status, 200);
    assert.equal((await t.client.get('/status')).body.allow_self_registration, true);
    const reg = await t.client.post('/auth/register', { username: 'liam', password: 'liam-password-1' });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    assert.equal(reg.body.user.role, 'member');
    assert.equal((await t.client.patch('/server/settings', { allow_self_registration: false }, { token: owner.access })).status, 200);
    assertError(await t.client.post('/auth/register', { username: 'mona', password: 'mona-password-1' }), 403, 'invite_required');
  });

  test('settings PATCHed by an admin persist across a restart on the same data dir', async () => {
    const dataDir = await makeTempDir();
    const first = await startTestServer({ dataDir });
    let closed = false;
    try {
      const admin = await setupOwner(first.client);
      const patch = await first.client.patch(
        '/server/settings',
        { server_name: 'Attic Server', trash_retention_days: 7, default_quota_bytes: 42_000, allow_self_registration: true },
        { token: admin.access },
      );
      assert.equal(patch.status, 200);
      await first.server.close();
      closed = true;

      const second = await startTestServer({ dataDir });
      try {
        const again = await login(second.client, admin.username, admin.password);
        const res = await second.client.get('/server/settings', { token: again.access });
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, {
          ...res.body,
          server_name: 'Attic Server',
          trash_retention_days: 7,
          default_quota_bytes: 42_000,
          allow_self_registration: true,
          require_device_approval: false,
        });
        const status = await second.client.get('/status');
        assert.equal(status.body.name, 'Attic Server');
        assert.equal(status.body.allow_self_registration, true);
      } finally {
        await second.close();
      }
    } finally {
      if (!closed) await first.close();
    }
  });
});
