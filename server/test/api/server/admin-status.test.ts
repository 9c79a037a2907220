import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/* What the owner's console shows of the running server: its version, uptime and data folder. */

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
});
after(() => t.close());

describe('GET /admin/status', () => {
  test('an admin reads the version, when the server started, its uptime and its data folder', async () => {
    const res = await t.client.get('/admin/status', { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body).sort(), ['data_dir', 'started_at', 'uptime_seconds', 'version']);
    assert.equal(res.body.data_dir, t.dataDir);
    assert.equal(res.body.version, (await t.client.get('/status')).body.version);
    assert.ok(res.body.started_at <= Date.now() && res.body.started_at > Date.now() - 10 * 60_000);
    assert.ok(Number.isInteger(res.body.uptime_seconds) && res.body.uptime_seconds >= 0);
  });

  test('the data folder stays private: a member gets 403, no token 401, and GET /status does not carry it', async () => {
    assertError(await t.client.get('/admin/status', { token: alice.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/status'), 401, 'unauthorized');
    assert.ok(!JSON.stringify((await t.client.get('/status')).body).includes(t.dataDir));
  });
});
