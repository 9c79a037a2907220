import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { createMember, setupOwner } from '../../helpers/accounts.ts';

let t: TestServer;
before(async () => (t = await startTestServer()));
after(() => t.close());

test('a fresh server needs setup, then an owner can invite a member who signs in', async () => {
  const status = await t.client.get('/status');
  assert.equal(status.status, 200);
  assert.equal(status.body.setup_required, true);
  const owner = await setupOwner(t.client);
  const member = await createMember(t.client, owner, 'alice');
  const me = await t.client.get('/me', { token: member.access });
  assert.equal(me.status, 200);
  assert.equal(me.body.username, 'alice');
  assert.equal(me.body.role, 'member');
});
