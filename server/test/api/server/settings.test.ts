import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

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
