import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type ApiClient, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

/** The poll interval of the fast server; the default one keeps the spec's 4 s. */
const POLL_MS = 300;

interface Pending {
  sessionId: string;
  token: string;
  pairingCode: string;
}

async function loginPending(client: ApiClient, username: string, password: string, device = 'Phone'): Promise<Pending> {
  const res = await client.post('/auth/login', { username, password, device_name: device, platform: 'android' });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['access_token', 'owner', 'pairing_code', 'session_id', 'status']);
  assert.equal(res.body.status, 'pending');
  assert.equal(typeof res.body.session_id, 'string');
  assert.equal(typeof res.body.access_token, 'string');
  assert.match(res.body.pairing_code, /^\d{6}$/);
  return { sessionId: res.body.session_id, token: res.body.access_token, pairingCode: res.body.pairing_code };
}

/** The poll's answer while the device waits: pending, with the device's pairing code. */
function assertWaiting(res: { status: number; body: any }, pending: Pending): void {
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body, { status: 'pending', pairing_code: pending.pairingCode });
}

function poll(client: ApiClient, pending: Pending, id = pending.sessionId) {
  return client.get(`/auth/session/${id}/status`, { token: pending.token });
}

async function setApproval(client: ApiClient, admin: SignedIn, on: boolean): Promise<void> {
  const res = await client.patch('/server/settings', { require_device_approval: on }, { token: admin.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.require_device_approval, on);
}

describe('device approval (fast poll interval)', () => {
  let t: TestServer;
  let owner: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;

  before(async () => {
    t = await startTestServer({ devicePollIntervalMs: POLL_MS });
    owner = await setupOwner(t.client);
    // Full sessions made before approval was switched on.
    alice = await createMember(t.client, owner, 'alice');
    bob = await createMember(t.client, owner, 'bob');
    await setApproval(t.client, owner, true);
  });
  after(() => t.close());

  /** Waits out the poll interval, then polls. */
  async function pollLater(pending: Pending) {
    await sleep(POLL_MS + 30);
    return poll(t.client, pending);
  }

  test('with require_device_approval on, sign-in answers 202 {status:pending, session_id, access_token} and /status says so', async () => {
    const status = await t.client.get('/status');
    assert.equal(status.body.require_device_approval, true);
    const pending = await loginPending(t.client, 'alice', alice.password);
    assert.notEqual(pending.sessionId, alice.sessionId);
  });

  test('the 202 answer says whether the account is an owner: only an owner is offered "Owner locked out?" while waiting', async () => {
    const member = await t.client.post('/auth/login', { username: 'alice', password: alice.password, device_name: 'Phone' });
    assert.equal(member.status, 202, JSON.stringify(member.body));
    assert.equal(member.body.owner, false);
    const admin = await t.client.post('/auth/login', { username: owner.username, password: owner.password, device_name: 'Phone' });
    assert.equal(admin.status, 202, JSON.stringify(admin.body));
    assert.equal(admin.body.owner, true);
  });

  test('a pending token gets 403 pending_approval on every route but the status poll', async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    const opts = { token: pending.token };
    assertError(await t.client.get('/me', opts), 403, 'pending_approval');
    assertError(await t.client.get('/sessions', opts), 403, 'pending_approval');
    assertError(await t.client.post('/auth/logout', undefined, opts), 403, 'pending_approval');
    assertError(await t.client.get('/users', opts), 403, 'pending_approval');
    assertError(await t.client.get('/server/settings', opts), 403, 'pending_approval');
    assertError(await t.client.get('/devices/pending', opts), 403, 'pending_approval');
    assertError(await t.client.patch('/me/profile', { display_name: 'Sneaky' }, opts), 403, 'pending_approval');
    assertError(await t.client.post('/auth/2fa/begin', undefined, opts), 403, 'pending_approval');
    assertError(await t.client.delete(`/sessions/${alice.sessionId}`, opts), 403, 'pending_approval');
    // A waiting device cannot let itself in.
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, opts), 403, 'pending_approval');
    // Logout above did nothing: the device still waits.
    assertWaiting(await poll(t.client, pending), pending);
    const list = await t.client.get('/devices/pending', { token: owner.access });
    assert.ok(list.body.items.some((d: any) => d.id === pending.sessionId));
    assert.equal((await t.client.get('/me', { token: alice.access })).body.display_name, null);
  });

  test('the status poll with the pending token answers {status:pending} while waiting', async () => {
    const pending = await loginPending(t.client, 'bob', bob.password);
    assertWaiting(await poll(t.client, pending), pending);
    assertWaiting(await pollLater(pending), pending);
  });

  test('a full-scope token on the status route answers 403', async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    assertError(await t.client.get(`/auth/session/${pending.sessionId}/status`, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.get(`/auth/session/${alice.sessionId}/status`, { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.get(`/auth/session/${pending.sessionId}/status`, { token: owner.access }), 403, 'forbidden');
    assertError(await t.client.get(`/auth/session/${pending.sessionId}/status`), 401, 'unauthorized');
  });

  test("polling another session's id with a pending token answers 404", async () => {
    const mine = await loginPending(t.client, 'alice', alice.password);
    const theirs = await loginPending(t.client, 'bob', bob.password);
    assertError(await poll(t.client, mine, theirs.sessionId), 404, 'not_found');
    assertError(await poll(t.client, mine, alice.sessionId), 404, 'not_found');
    assertError(await poll(t.client, mine, '01NOSUCHSESSION00000000000'), 404, 'not_found');
  });

  test("GET /devices/pending lists a waiting device for an admin and for its own account's full session, not for another member", async () => {
    const pending = await loginPending(t.client, 'alice', alice.password, 'Alice tablet');

    const forAdmin = await t.client.get('/devices/pending', { token: owner.access });
    assert.equal(forAdmin.status, 200);
    assert.equal(forAdmin.body.next_cursor, null);
    const seen = forAdmin.body.items.find((d: any) => d.id === pending.sessionId);
    assert.ok(seen, 'the admin sees the waiting device');
    assert.equal(seen.user_id, alice.userId);
    assert.equal(seen.username, 'alice');
    assert.equal(seen.device_name, 'Alice tablet');
    assert.equal(seen.platform, 'android');
    assert.equal(typeof seen.created_at, 'number');

    const forAlice = await t.client.get('/devices/pending', { token: alice.access });
    assert.equal(forAlice.status, 200);
    assert.ok(
      forAlice.body.items.some((d: any) => d.id === pending.sessionId),
      'the account itself sees it',
    );
    for (const item of forAlice.body.items) assert.equal(item.user_id, alice.userId);

    // Bob has nothing waiting of his own; he must not see Alice's devices.
    const bobOwn = (await t.client.get('/devices/pending', { token: owner.access })).body.items.filter(
      (d: any) => d.user_id === bob.userId,
    );
    for (const d of bobOwn) assert.equal((await t.client.post(`/devices/${d.id}/deny`, undefined, { token: owner.access })).status, 204);
    const forBob = await t.client.get('/devices/pending', { token: bob.access });
    assert.equal(forBob.status, 200);
    assert.deepEqual(forBob.body, { items: [], next_cursor: null });
  });

  test('GET /sessions of the account shows the waiting device with status pending', async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    const res = await t.client.get('/sessions', { token: alice.access });
    assert.equal(res.status, 200);
    const row = res.body.items.find((s: any) => s.id === pending.sessionId);
    assert.ok(row);
    assert.equal(row.status, 'pending');
    assert.equal(row.approved_at, null);
    assert.equal(row.current, false);
    assert.equal(res.body.items.find((s: any) => s.id === alice.sessionId).current, true);
  });

  test('an admin approves with 204, then the poll answers approved with a token pair that works', async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    assertWaiting(await poll(t.client, pending), pending);

    const approve = await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access });
    assert.equal(approve.status, 204);
    assert.equal(approve.body, '');

    const res = await pollLater(pending);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'approved');
    assert.equal(res.body.session_id, pending.sessionId);
    assert.equal(typeof res.body.access_token, 'string');
    assert.equal(typeof res.body.refresh_token, 'string');
    assert.equal(typeof res.body.expires_at, 'number');
    assert.equal(res.body.user.id, alice.userId);
    assert.equal(res.body.user.username, 'alice');
    assert.notEqual(res.body.access_token, pending.token);

    const me = await t.client.get('/me', { token: res.body.access_token });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, alice.userId);
    const refreshed = await t.client.post('/auth/refresh', { refresh_token: res.body.refresh_token });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal(refreshed.body.session_id, pending.sessionId);

    const list = await t.client.get('/devices/pending', { token: owner.access });
    assert.ok(!list.body.items.some((d: any) => d.id === pending.sessionId), 'an approved device no longer waits');
    const sessions = await t.client.get('/sessions', { token: alice.access });
    const row = sessions.body.items.find((s: any) => s.id === pending.sessionId);
    assert.equal(row.status, 'active');
    assert.equal(typeof row.approved_at, 'number');
  });

  test('the account itself approves its waiting device from a full session', async () => {
    const pending = await loginPending(t.client, 'bob', bob.password);
    const approve = await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: bob.access });
    assert.equal(approve.status, 204);
    const res = await poll(t.client, pending);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'approved');
    assert.equal((await t.client.get('/me', { token: res.body.access_token })).body.username, 'bob');
  });

  test("an unrelated member approving or denying someone else's device answers 404 and the device keeps waiting", async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: bob.access }), 404, 'not_found');
    assertError(await t.client.post(`/devices/${pending.sessionId}/deny`, undefined, { token: bob.access }), 404, 'not_found');
    assertWaiting(await poll(t.client, pending), pending);
    assertError(await t.client.post('/devices/01NOSUCHSESSION00000000000/approve', undefined, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.post('/devices/01NOSUCHSESSION00000000000/deny', undefined, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined), 401, 'unauthorized');
  });

  test('approving twice answers 409 not_pending, and so does denying an approved device', async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    assert.equal((await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access })).status, 204);
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access }), 409, 'not_pending');
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: alice.access }), 409, 'not_pending');
    assertError(await t.client.post(`/devices/${pending.sessionId}/deny`, undefined, { token: owner.access }), 409, 'not_pending');
    assert.equal((await poll(t.client, pending)).body.status, 'approved');
    // Approving an already full session is not a thing either.
    assertError(await t.client.post(`/devices/${alice.sessionId}/approve`, undefined, { token: owner.access }), 409, 'not_pending');
  });

  test('deny answers 204; the poll then answers 403 device_denied and the pending token gets 401 elsewhere', async () => {
    const pending = await loginPending(t.client, 'alice', alice.password);
    const deny = await t.client.post(`/devices/${pending.sessionId}/deny`, undefined, { token: owner.access });
    assert.equal(deny.status, 204);
    assert.equal(deny.body, '');

    assertError(await pollLater(pending), 403, 'device_denied');
    assertError(await t.client.get('/me', { token: pending.token }), 401, 'invalid_token');
    assertError(await t.client.get('/sessions', { token: pending.token }), 401, 'invalid_token');

    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access }), 409, 'not_pending');
    assertError(await t.client.post(`/devices/${pending.sessionId}/deny`, undefined, { token: alice.access }), 409, 'not_pending');
    const list = await t.client.get('/devices/pending', { token: owner.access });
    assert.ok(!list.body.items.some((d: any) => d.id === pending.sessionId));
    const sessions = await t.client.get('/sessions', { token: alice.access });
    assert.ok(!sessions.body.items.some((s: any) => s.id === pending.sessionId), 'a denied device is not a live session');
  });

  test('the account itself denies its waiting device from a full session', async () => {
    const pending = await loginPending(t.client, 'bob', bob.password);
    assert.equal((await t.client.post(`/devices/${pending.sessionId}/deny`, undefined, { token: bob.access })).status, 204);
    assertError(await poll(t.client, pending), 403, 'device_denied');
  });

  test("device approval applies to admins too; an admin's pending token cannot use admin routes", async () => {
    const pending = await loginPending(t.client, 'owner', owner.password, 'Owner laptop');
    assertError(await t.client.get('/admin/users', { token: pending.token }), 403, 'pending_approval');
    assertError(
      await t.client.patch('/server/settings', { require_device_approval: false }, { token: pending.token }),
      403,
      'pending_approval',
    );
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: pending.token }), 403, 'pending_approval');
    assert.equal((await t.client.get('/server/settings', { token: owner.access })).body.require_device_approval, true);

    // A member cannot let the owner's device in.
    assertError(await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: alice.access }), 404, 'not_found');
    assert.equal((await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access })).status, 204);
    const res = await poll(t.client, pending);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'approved');
    assert.equal(res.body.user.role, 'admin');
    assert.equal((await t.client.get('/admin/users', { token: res.body.access_token })).status, 200);
  });

  test('switching device approval off again lets sign-in answer 200 with a token pair', async () => {
    await setApproval(t.client, owner, false);
    const signedIn = await login(t.client, 'alice', alice.password);
    assert.equal((await t.client.get('/me', { token: signedIn.access })).status, 200);
    await setApproval(t.client, owner, true);
  });
});

describe('device approval poll rate (default 4 s interval)', () => {
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    await setApproval(t.client, owner, true);
  });
  after(() => t.close());

  test('polling again immediately answers 429 slow_down with Retry-After', async () => {
    const pending = await loginPending(t.client, 'owner', owner.password);
    assertWaiting(await poll(t.client, pending), pending);

    const second = await poll(t.client, pending);
    assertError(second, 429, 'slow_down');
    const retryAfter = second.headers.get('retry-after');
    assert.ok(retryAfter !== null, 'Retry-After is set');
    assert.match(retryAfter, /^\d+$/);
    assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= 4, `Retry-After ${retryAfter}`);
  });

  test("the throttle is per session: another device's first poll is answered", async () => {
    const a = await loginPending(t.client, 'owner', owner.password);
    const b = await loginPending(t.client, 'owner', owner.password);
    assert.equal((await poll(t.client, a)).status, 200);
    assert.equal((await poll(t.client, b)).status, 200);
    assertError(await poll(t.client, a), 429, 'slow_down');
  });

  test("a device's first poll after an approval answers approved with the token pair", async () => {
    const pending = await loginPending(t.client, 'owner', owner.password);
    assert.equal((await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access })).status, 204);
    const res = await poll(t.client, pending);
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'approved');
  });
});

describe("an approved device's tokens are handed over once (issue 12, finding 10)", () => {
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    t = await startTestServer({ devicePollIntervalMs: POLL_MS });
    owner = await setupOwner(t.client);
    await setApproval(t.client, owner, true);
  });
  after(() => t.close());

  test("after the device took its pair, a poll with the (leaked) pending token answers 409 tokens_already_issued and the device's own pair keeps working", async () => {
    const pending = await loginPending(t.client, 'owner', owner.password);
    assert.equal((await t.client.post(`/devices/${pending.sessionId}/approve`, undefined, { token: owner.access })).status, 204);
    const handed = await poll(t.client, pending);
    assert.equal(handed.status, 200);
    assert.equal(handed.body.status, 'approved');

    await sleep(POLL_MS + 30);
    const again = await poll(t.client, pending);
    assertError(again, 409, 'tokens_already_issued');
    assert.equal(again.body.access_token, undefined);
    assert.equal(again.body.refresh_token, undefined);

    // The device's refresh token was not killed by the second poll.
    const refreshed = await t.client.post('/auth/refresh', { refresh_token: handed.body.refresh_token });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    assert.equal((await t.client.get('/me', { token: refreshed.body.access_token })).status, 200);
    await sleep(POLL_MS + 30);
    assertError(await poll(t.client, pending), 409, 'tokens_already_issued');
  });
});

describe('a waiting device carries a pairing code (wave 2)', () => {
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    t = await startTestServer({ devicePollIntervalMs: POLL_MS });
    owner = await setupOwner(t.client);
    await setApproval(t.client, owner, true);
  });
  after(() => t.close());

  test('the 202 answer, every status poll and GET /devices/pending show the same six-digit pairing code for a device', async () => {
    const phone = await loginPending(t.client, 'owner', owner.password, 'Phone');
    assertWaiting(await poll(t.client, phone), phone);
    await sleep(POLL_MS + 30);
    assertWaiting(await poll(t.client, phone), phone);
    const listed = await t.client.get('/devices/pending', { token: owner.access });
    assert.equal(listed.body.items.find((d: any) => d.id === phone.sessionId).pairing_code, phone.pairingCode);
  });

  test('two devices waiting at the same moment get different codes, derived from their sessions (not their order)', async () => {
    const codes = new Set<string>();
    const devices: Pending[] = [];
    for (let i = 0; i < 5; i++) devices.push(await loginPending(t.client, 'owner', owner.password, `Device ${i}`));
    for (const d of devices) codes.add(d.pairingCode);
    assert.ok(codes.size >= 4, `codes: ${[...codes].join(' ')}`);
    const listed = (await t.client.get('/devices/pending', { token: owner.access })).body.items;
    for (const d of devices) assert.equal(listed.find((x: any) => x.id === d.sessionId).pairing_code, d.pairingCode);
  });
});
