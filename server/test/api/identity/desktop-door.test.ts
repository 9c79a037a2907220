/**
 * What the desktop app needs from the server, and the line it must not cross: the owner at
 * the machine signs in through the process that started the server, never through HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { listLanAddresses } from '../../../src/platform/network.ts';
import { createMember, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

describe('the owner at the machine (localOwnerSession)', () => {
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  test('before first-run setup there is no owner: null, so the window shows setup', () => {
    assert.equal(t.server.localOwnerSession(), null);
  });

  test('after setup it gives the owner a working admin session at once, even with device approval on', async () => {
    owner = await setupOwner(t.client);
    const admin2 = await createMember(t.client, owner, 'second-admin', undefined, 'admin');
    assert.equal((await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access })).status, 200);

    const tokens = t.server.localOwnerSession()!;
    assert.equal(tokens.user.username, OWNER.username, 'the owner from setup, not another admin');
    assert.notEqual(tokens.user.id, admin2.userId);
    const me = await t.client.get('/me', { token: tokens.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.role, 'admin');
    const sessions = await t.client.get('/sessions', { token: tokens.access_token });
    const mine = sessions.body.items.find((s: any) => s.current);
    assert.equal(mine.device_name, 'This PC (Hearth app)');
    assert.equal(mine.status, 'active');
    const refreshed = await t.client.post('/auth/refresh', { refresh_token: tokens.refresh_token });
    assert.equal(refreshed.status, 200, 'its refresh token rotates like any other');
  });

  test('opening it again ends the previous desktop session, so sessions never pile up', async () => {
    const first = t.server.localOwnerSession()!;
    const second = t.server.localOwnerSession()!;
    assertError(await t.client.get('/me', { token: first.access_token }), 401, 'invalid_token');
    assert.equal((await t.client.get('/me', { token: second.access_token })).status, 200);
    const live = (await t.client.get('/sessions', { token: second.access_token })).body.items.filter(
      (s: any) => s.device_name === 'This PC (Hearth app)',
    );
    assert.equal(live.length, 1);
  });

  test('a sign-in from the machine itself (127.0.0.1) still waits for approval: an address earns no trust', async () => {
    const res = await t.client.post('/auth/login', {
      username: OWNER.username,
      password: OWNER.password,
      device_name: 'This PC (Hearth app)',
      platform: 'desktop',
    });
    assert.equal(res.status, 202);
    assert.equal(res.body.status, 'pending');
  });

  test('no route of the API is a door for the desktop: none is named for it, and none signs in without a secret', async () => {
    const doc = (await t.client.get('/openapi.json')).body;
    const paths = Object.keys(doc.paths);
    assert.ok(paths.length > 50);
    assert.deepEqual(
      paths.filter((p) => /local|desktop|owner-session|electron/i.test(p)),
      [],
    );
  });
});

describe('LAN addresses for admins (GET /admin/network)', () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'member');
  });
  after(() => t.close());

  test("an admin gets this PC's LAN addresses with the server's port and the address a phone opens", async () => {
    const res = await t.client.get('/admin/network', { token: owner.access });
    assert.equal(res.status, 200);
    assert.equal(res.body.port, t.server.port);
    const expected = listLanAddresses().map((a) => ({
      ...a,
      url: `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${t.server.port}/`,
    }));
    assert.deepEqual(res.body.addresses, expected);
    for (const a of res.body.addresses) {
      assert.ok(!/^127\.|^::1$|^169\.254\.|^fe80:/i.test(a.address), `${a.address} is not loopback or link-local`);
    }
    // Not announcing (a test server never does: local-name.test.ts announces in a namespace of its own).
    assert.equal(res.body.local_name, null);
  });

  test('a member is 403 and no token is 401', async () => {
    assertError(await t.client.get('/admin/network', { token: member.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/network'), 401, 'unauthorized');
  });
});
