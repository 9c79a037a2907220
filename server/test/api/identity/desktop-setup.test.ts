/**
 * In the desktop app nobody on the network can take first-run setup: the server listens on
 * this PC's loopback only until its owner exists, POST /setup is refused to every caller (this
 * PC included: any local program could send it), and setup comes from the app's process
 * (RunningServer.setupOwner, reached through the window's bridge). Once the owner exists the
 * server listens on the home network too, without a restart.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { OWNER } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/** Answers the status code of GET /api/v1/status at host:port, or the connection error's code. */
function statusAt(host: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path: '/api/v1/status', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe("the desktop app's first run (hostedSetup)", () => {
  let t: TestServer;
  // The address the app would open to the home network (0.0.0.0 in the app); a second
  // loopback address here, so the test stays on this machine.
  const lanHost = '127.0.0.2';

  before(async () => {
    t = await startTestServer({ hostedSetup: true, host: lanHost });
  });
  after(() => t.close());

  test("before the owner exists it listens on 127.0.0.1 only: the home network's address is refused", async () => {
    assert.equal(new URL(t.url).hostname, '127.0.0.1', "the window's address");
    assert.equal(await statusAt('127.0.0.1', t.server.port), 200);
    assert.equal(await statusAt(lanHost, t.server.port), 'ECONNREFUSED');
  });

  test('GET /status says setup happens in the desktop app; no setup code exists to print', async () => {
    const status = (await t.client.get('/status')).body;
    assert.equal(status.setup_required, true);
    assert.equal(status.setup_in_desktop_app, true);
    assert.equal(status.setup_code_required, false);
    assert.equal(t.server.setup, null);
  });

  test('POST /setup over HTTP is refused with 403 setup_in_app, even from this PC, and creates nothing', async () => {
    assertError(await t.client.post('/setup', OWNER), 403, 'setup_in_app');
    assertError(await t.client.post('/setup', { ...OWNER, setup_code: '1234-5678' }), 403, 'setup_in_app');
    assert.equal(t.server.localOwnerSession(), null);
    assert.equal((await t.client.get('/status')).body.setup_required, true);
  });

  test('setup through the app checks its input like the route does', async () => {
    await assert.rejects(t.server.setupOwner({ username: 'x', password: 'owner-password-1' }), { code: 'invalid_username' });
    await assert.rejects(t.server.setupOwner({ username: 'owner', password: 'short' }), { code: 'weak_password' });
    assert.equal(await statusAt(lanHost, t.server.port), 'ECONNREFUSED', 'still closed to the network');
  });

  test('setup through the app makes the owner, answers the desktop session, and opens the home network without a restart', async () => {
    const tokens = await t.server.setupOwner({ username: 'dad', password: 'our family photos 1', server_name: 'The Millers' });
    assert.equal(tokens.user.username, 'dad');
    assert.equal(tokens.user.role, 'admin');
    const sessions = (await t.client.get('/sessions', { token: tokens.access_token })).body.items;
    assert.deepEqual(
      sessions.map((s: any) => s.device_name),
      ['This PC (Hearth app)'],
      'the desktop session, nothing else',
    );
    assert.equal((await t.client.get('/status')).body.name, 'The Millers');

    assert.equal(await statusAt(lanHost, t.server.port), 200, 'phones reach it now');
    assert.equal(await statusAt('127.0.0.1', t.server.port), 200, 'and the window still does');
    const status = (await t.client.get('/status')).body;
    assert.deepEqual([status.setup_required, status.setup_in_desktop_app], [false, false]);

    await assert.rejects(t.server.setupOwner({ username: 'mallory', password: 'mallory-password-1' }), { code: 'already_set_up' });
    assert.equal(t.server.localOwnerSession()!.user.username, 'dad', "the window stays the owner's");
  });
});

describe('the desktop app once its owner exists', () => {
  test("a start listens on the home network at once, and the window's loopback address too", async () => {
    const first = await startTestServer({ hostedSetup: true, host: '127.0.0.2' });
    await first.server.setupOwner(OWNER);
    await first.server.close();
    const again = await startTestServer({ hostedSetup: true, host: '127.0.0.2', dataDir: first.dataDir });
    try {
      assert.equal(new URL(again.url).hostname, '127.0.0.1');
      assert.equal(await statusAt('127.0.0.2', again.server.port), 200);
      assert.equal(await statusAt('127.0.0.1', again.server.port), 200);
      assert.equal(again.server.localOwnerSession()!.user.username, OWNER.username);
    } finally {
      await again.close();
    }
  });
});
