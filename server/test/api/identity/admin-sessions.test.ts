import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * What the owner's console needs from the admin API beyond the rest: every account's devices,
 * and signing any of them out.
 */

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;
let aliceTablet: SignedIn;
let bob: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  aliceTablet = await login(t.client, 'alice', alice.password, { device_name: 'Tablet', platform: 'android' });
  bob = await createMember(t.client, owner, 'bob');
});
after(() => t.close());

describe('GET /admin/sessions', () => {
  test("an admin sees every account's live devices, each with whose it is, and the caller's own marked current", async () => {
    const res = await t.client.get('/admin/sessions', { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.next_cursor, null);
    const items: any[] = res.body.items;
    const ids = new Set(items.map((s) => s.id));
    for (const s of [owner, alice, aliceTablet, bob]) assert.ok(ids.has(s.sessionId), `${s.username}'s session is listed`);
    const tablet = items.find((s) => s.id === aliceTablet.sessionId);
    assert.equal(tablet.user_id, alice.userId);
    assert.equal(tablet.username, 'alice');
    assert.equal(tablet.device_name, 'Tablet');
    assert.equal(tablet.status, 'active');
    assert.equal(tablet.current, false);
    assert.equal(items.find((s) => s.id === owner.sessionId).current, true);
    // Account by account: alice's two sessions sit together, before bob's and the owner's.
    const order = items.map((s) => s.username);
    assert.deepEqual(order, [...order].sort(), 'grouped by account name');
    assert.ok(!/refresh|token_hash|password/.test(JSON.stringify(items)), 'no secret is listed');
  });

  test('a session that ended is no longer listed', async () => {
    const gone = await login(t.client, 'bob', bob.password, { device_name: 'Old laptop' });
    assert.equal((await t.client.post('/auth/logout', undefined, { token: gone.access })).status, 204);
    const res = await t.client.get('/admin/sessions', { token: owner.access });
    assert.ok(!res.body.items.some((s: any) => s.id === gone.sessionId));
  });

  test('a member gets 403 forbidden, and no token 401', async () => {
    assertError(await t.client.get('/admin/sessions', { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/sessions'), 401, 'unauthorized');
  });
});

describe('DELETE /admin/sessions/{id}', () => {
  test("an admin signs out another account's device: its tokens stop working at once and its socket hears session.revoked", async () => {
    const phone = await login(t.client, 'bob', bob.password, { device_name: 'Lost phone' });
    const socket = await EventSocket.open(t.url, phone.access);
    try {
      const res = await t.client.delete(`/admin/sessions/${phone.sessionId}`, { token: owner.access });
      assert.equal(res.status, 204, JSON.stringify(res.body));
      const revoked = await socket.waitFor((m) => m.type === 'session.revoked');
      assert.deepEqual(revoked.payload, { session_id: phone.sessionId, reason: 'signed_out' });
      assertError(await t.client.get('/me', { token: phone.access }), 401, 'invalid_token');
      assertError(await t.client.post('/auth/refresh', { refresh_token: phone.refresh }), 401, 'invalid_refresh_token');
      // Bob's other device is untouched.
      assert.equal((await t.client.get('/me', { token: bob.access })).status, 200);
    } finally {
      socket.close();
    }
  });

  test('an ended or unknown session answers 404 not_found', async () => {
    const phone = await login(t.client, 'bob', bob.password);
    assert.equal((await t.client.delete(`/admin/sessions/${phone.sessionId}`, { token: owner.access })).status, 204);
    assertError(await t.client.delete(`/admin/sessions/${phone.sessionId}`, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.delete('/admin/sessions/nope', { token: owner.access }), 404, 'not_found');
  });

  test("a member cannot sign out someone else's device (403), and the device stays signed in", async () => {
    assertError(await t.client.delete(`/admin/sessions/${bob.sessionId}`, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.delete(`/admin/sessions/${bob.sessionId}`), 401, 'unauthorized');
    assert.equal((await t.client.get('/me', { token: bob.access })).status, 200);
  });
});
