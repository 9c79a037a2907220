import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
});
after(() => t.close());

async function createInvite(body: object = {}) {
  const res = await t.client.post('/admin/invites', body, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

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
    assertError(
      await t.client.post('/admin/invites', { expires_at: Date.now() - 1000 }, { token: owner.access }),
      400,
      'invalid_input',
      'expires_at',
    );
    assertError(
      await t.client.post('/admin/invites', { expires_at: 'tomorrow' }, { token: owner.access }),
      400,
      'invalid_input',
      'expires_at',
    );
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

/* The console shows who an invite is for. */
describe('invite labels', () => {
  test('an invite carries the label it was made with, in its answer and in the list', async () => {
    const made = await t.client.post('/admin/invites', { label: '  Grandma Rose ' }, { token: owner.access });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(made.body.label, 'Grandma Rose');
    const listed = (await t.client.get('/admin/invites', { token: owner.access })).body.items.find((i: any) => i.id === made.body.id);
    assert.equal(listed.label, 'Grandma Rose');
    assert.equal(listed.code, undefined, 'the code is not shown again');
  });

  test('no label, or an empty one, is null', async () => {
    assert.equal((await t.client.post('/admin/invites', {}, { token: owner.access })).body.label, null);
    assert.equal((await t.client.post('/admin/invites', { label: '   ' }, { token: owner.access })).body.label, null);
  });

  test('a label that could spoof or is too long answers 400 invalid_name on the field', async () => {
    assertError(await t.client.post('/admin/invites', { label: 'Mum\u202Eeb' }, { token: owner.access }), 400, 'invalid_name', 'label');
    assertError(await t.client.post('/admin/invites', { label: 'x'.repeat(65) }, { token: owner.access }), 400, 'invalid_name', 'label');
    assertError(await t.client.post('/admin/invites', { label: 42 }, { token: owner.access }), 400, 'invalid_input', 'label');
  });
});
