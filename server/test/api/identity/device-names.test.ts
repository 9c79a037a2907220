import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 19, finding 15: the devices list showed four identical "Chrome on Android ·
 * 127.0.0.1". The server names a device from its browser (with the model where the browser
 * gives it), people rename their own devices and the owner anyone's, and the console's
 * request card can show the account's display name.
 */

const PIXEL_7 = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
// Chrome's reduced user agent: the model is "K"; the web app adds it from Client Hints.
const REDUCED = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const IPHONE_CHROME =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/130.0.6723.90 Mobile/15E148 Safari/604.1';
const EDGE_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0';

describe('devices get names a person recognises, and can be renamed (issue 19, finding 15)', () => {
  let t: TestServer;
  let owner: SignedIn;
  let kim: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    kim = await createMember(t.client, owner, 'kim');
    const profile = await t.client.patch('/me/profile', { display_name: 'Kim Lee' }, { token: kim.access });
    assert.equal(profile.status, 200);
  });
  after(() => t.close());

  async function signInFrom(userAgent: string, extra: object = {}): Promise<string> {
    const res = await t.client.post(
      '/auth/login',
      { username: 'kim', password: kim.password, platform: 'android', ...extra },
      { headers: { 'user-agent': userAgent } },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.session_id;
  }

  async function nameOf(sessionId: string): Promise<string | null> {
    const list = await t.client.get('/sessions', { token: kim.access });
    return list.body.items.find((s: { id: string }) => s.id === sessionId)?.device_name ?? null;
  }

  test('a sign-in without a device name is named from its browser: browser and model, or browser and system', async () => {
    assert.equal(await nameOf(await signInFrom(PIXEL_7)), 'Chrome on Pixel 7');
    assert.equal(await nameOf(await signInFrom(IPHONE)), 'Safari on iPhone');
    assert.equal(await nameOf(await signInFrom(IPHONE_CHROME)), 'Chrome on iPhone');
    assert.equal(await nameOf(await signInFrom(EDGE_WINDOWS)), 'Edge on Windows');
    // The reduced user agent hides the model: without a hint it is an Android phone, with one it is that phone.
    assert.equal(await nameOf(await signInFrom(REDUCED)), 'Chrome on Android phone');
    assert.equal(await nameOf(await signInFrom(REDUCED, { device_model: 'Pixel 8a' })), 'Chrome on Pixel 8a');
    // A name the client chose is kept.
    assert.equal(await nameOf(await signInFrom(PIXEL_7, { device_name: 'Kitchen tablet' })), 'Kitchen tablet');
  });

  test('a model hint that could spoof is refused like any name', async () => {
    const res = await t.client.post(
      '/auth/login',
      { username: 'kim', password: kim.password, device_model: 'Pixel\u202E7' },
      { headers: { 'user-agent': REDUCED } },
    );
    assertError(res, 400, 'invalid_name', 'device_model');
  });

  test("PATCH /sessions/{id} renames one of the caller's own devices; the list shows the new name", async () => {
    const id = await signInFrom(PIXEL_7);
    const res = await t.client.patch(`/sessions/${id}`, { device_name: '  Grandma’s tablet ' }, { token: kim.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.device_name, 'Grandma’s tablet');
    assert.equal(res.body.id, id);
    assert.equal(await nameOf(id), 'Grandma’s tablet');
    // The current session too.
    const own = await t.client.patch(`/sessions/${kim.sessionId}`, { device_name: 'My laptop' }, { token: kim.access });
    assert.equal(own.status, 200);
    assert.equal(own.body.current, true);
  });

  test('a bad device name answers 400 invalid_name naming device_name; nothing changes', async () => {
    const id = await signInFrom(PIXEL_7);
    for (const device_name of ['', '   ', 'x'.repeat(65), 'phone\u202Eenohp']) {
      assertError(await t.client.patch(`/sessions/${id}`, { device_name }, { token: kim.access }), 400, 'invalid_name', 'device_name');
    }
    assertError(await t.client.patch(`/sessions/${id}`, {}, { token: kim.access }), 400, 'missing_field');
    assert.equal(await nameOf(id), 'Chrome on Pixel 7');
  });

  test("another account's session is not found (even for a session that exists), and a request without a token is 401", async () => {
    assertError(await t.client.patch(`/sessions/${owner.sessionId}`, { device_name: 'Mine now' }, { token: kim.access }), 404, 'not_found');
    assertError(await t.client.patch(`/sessions/${kim.sessionId}`, { device_name: 'Mine now' }, { token: owner.access }), 404, 'not_found');
    assert.equal((await t.client.patch(`/sessions/${kim.sessionId}`, { device_name: 'x' })).status, 401);
  });

  test('a signed-out device cannot be renamed: it is gone from every list', async () => {
    const id = await signInFrom(PIXEL_7);
    assert.equal((await t.client.delete(`/sessions/${id}`, { token: kim.access })).status, 204);
    assertError(await t.client.patch(`/sessions/${id}`, { device_name: 'Old phone' }, { token: kim.access }), 404, 'not_found');
  });

  test("the owner renames any account's device with PATCH /admin/sessions/{id}; a member may not", async () => {
    const id = await signInFrom(PIXEL_7);
    const res = await t.client.patch(`/admin/sessions/${id}`, { device_name: 'Kim’s school phone' }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.device_name, 'Kim’s school phone');
    assert.equal(res.body.username, 'kim');
    assert.equal(res.body.display_name, 'Kim Lee');
    assert.equal(await nameOf(id), 'Kim’s school phone');
    assertError(await t.client.patch(`/admin/sessions/${id}`, { device_name: 'x' }, { token: kim.access }), 403, 'forbidden');
    assertError(await t.client.patch('/admin/sessions/nope', { device_name: 'x' }, { token: owner.access }), 404, 'not_found');
  });

  test("the console's lists carry the account's display name beside its username", async () => {
    const all = await t.client.get('/admin/sessions', { token: owner.access });
    const kims = all.body.items.filter((s: { username: string }) => s.username === 'kim');
    assert.ok(kims.length > 0);
    for (const s of kims) assert.equal(s.display_name, 'Kim Lee');
    assert.equal(all.body.items.find((s: { username: string }) => s.username === 'owner').display_name, null);

    await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    try {
      const waiting = await t.client.post(
        '/auth/login',
        { username: 'kim', password: kim.password },
        { headers: { 'user-agent': PIXEL_7 } },
      );
      assert.equal(waiting.status, 202);
      const pending = await t.client.get('/devices/pending', { token: owner.access });
      const request = pending.body.items.find((d: { id: string }) => d.id === waiting.body.session_id);
      assert.equal(request.display_name, 'Kim Lee');
      assert.equal(request.username, 'kim');
      assert.equal(request.device_name, 'Chrome on Pixel 7');
    } finally {
      await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
    }
  });
});
