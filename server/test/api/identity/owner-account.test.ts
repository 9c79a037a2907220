/**
 * The owner of this PC's Hearth is the account first-run setup made, recorded then: the
 * desktop window signs in as it (not "the first admin still enabled"), older databases
 * without the record get their oldest enabled admin recorded, no other admin can switch the
 * owner off, demote it or hand it a temporary password, and an owner (admin) who passes the
 * second factor at sign-in is not held for device approval.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

const engine = (process.env.HEARTH_SQLITE as 'node' | 'better' | undefined) ?? 'auto';

async function enrollTotp(t: TestServer, user: SignedIn): Promise<{ totp: OTPAuth.TOTP; recovery: string[] }> {
  const begin = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(begin.body.secret) });
  const verify = await t.client.post('/auth/2fa/verify', { code: totp.generate() }, { token: user.access });
  assert.equal(verify.status, 200, JSON.stringify(verify.body));
  return { totp, recovery: verify.body.recovery_codes };
}

describe('sign-in with device approval on', () => {
  let t: TestServer;
  let owner: SignedIn;
  let coAdmin: SignedIn;
  let member: SignedIn;
  let ownerTotp: { totp: OTPAuth.TOTP; recovery: string[] };
  let memberTotp: { totp: OTPAuth.TOTP; recovery: string[] };

  before(async () => {
    t = await startTestServer({ rateLimit: { maxFailures: 100 } });
    owner = await setupOwner(t.client);
    coAdmin = await createMember(t.client, owner, 'second-owner', undefined, 'admin');
    member = await createMember(t.client, owner, 'kid');
    ownerTotp = await enrollTotp(t, owner);
    memberTotp = await enrollTotp(t, member);
    assert.equal((await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access })).status, 200);
  });
  after(() => t.close());

  test('an owner who passes two-step sign-in with the authenticator gets the 200 token response, not 202', async () => {
    // The step after enrollment's: a code is accepted once.
    const code = ownerTotp.totp.generate({ timestamp: Date.now() + 30_000 });
    const res = await t.client.post('/auth/login', { ...OWNER, totp_code: code });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await t.client.get('/me', { token: res.body.access_token })).status, 200);
  });

  test('and with a recovery code too', async () => {
    const res = await t.client.post('/auth/login', { ...OWNER, totp_code: ownerTotp.recovery[0] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  test('an owner without two-step sign-in still waits; so does a family member who passed it', async () => {
    assert.equal((await t.client.post('/auth/login', { username: coAdmin.username, password: coAdmin.password })).status, 202);
    const res = await t.client.post('/auth/login', {
      username: member.username,
      password: member.password,
      totp_code: memberTotp.recovery[0],
    });
    assert.equal(res.status, 202, 'the owner approves family members');
  });

  test('a wrong second factor is still refused (401 totp_required), approval or not', async () => {
    assertError(await t.client.post('/auth/login', { ...OWNER, totp_code: 'AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-F' }), 401, 'totp_required');
  });
});

describe("the owner's account among other admins", () => {
  let t: TestServer;
  let owner: SignedIn;
  let coAdmin: SignedIn;
  let member: SignedIn;

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    coAdmin = await createMember(t.client, owner, 'second-owner', undefined, 'admin');
    member = await createMember(t.client, owner, 'kid');
  });
  after(() => t.close());

  test('another admin cannot switch the owner off, make it a member, or give it a temporary password: 409 owner_account, nothing changes', async () => {
    assertError(await t.client.patch(`/admin/users/${owner.userId}`, { disabled: true }, { token: coAdmin.access }), 409, 'owner_account');
    assertError(
      await t.client.patch(`/admin/users/${owner.userId}`, { role: 'member', quota_bytes: 5 }, { token: coAdmin.access }),
      409,
      'owner_account',
    );
    assertError(await t.client.post(`/admin/users/${owner.userId}/reset-password`, {}, { token: coAdmin.access }), 409, 'owner_account');
    const me = await t.client.get('/me', { token: owner.access });
    assert.equal(me.status, 200, 'still signed in');
    assert.equal(me.body.role, 'admin');
    assert.equal(me.body.quota.limit, null, 'no part of a refused change lands');
    assert.equal((await t.client.post('/auth/login', OWNER)).status, 200, 'the password is unchanged');
  });

  test('the owner cannot do it to itself either, but may set its own quota; other admins stay manageable', async () => {
    assertError(await t.client.patch(`/admin/users/${owner.userId}`, { role: 'member' }, { token: owner.access }), 409, 'owner_account');
    assert.equal((await t.client.patch(`/admin/users/${owner.userId}`, { quota_bytes: 10 ** 12 }, { token: coAdmin.access })).status, 200);
    assert.equal((await t.client.patch(`/admin/users/${coAdmin.userId}`, { role: 'member' }, { token: owner.access })).status, 200);
    assert.equal((await t.client.post(`/admin/users/${member.userId}/reset-password`, {}, { token: owner.access })).status, 200);
  });

  test("the console's list marks the main owner, so it offers none of the refused changes", async () => {
    const list = (await t.client.get('/admin/users', { token: owner.access })).body.items;
    assert.deepEqual(list.map((u: any) => [u.username, u.main_owner]).sort(), [
      ['kid', false],
      ['owner', true],
      ['second-owner', false],
    ]);
    const patched = await t.client.patch(`/admin/users/${member.userId}`, { quota_bytes: 10 ** 9 }, { token: owner.access });
    assert.equal(patched.body.main_owner, false);
    assert.equal(
      (await t.client.patch(`/admin/users/${owner.userId}`, { quota_bytes: null }, { token: owner.access })).body.main_owner,
      true,
    );
  });

  test("the desktop window is the owner's, whoever else is an admin", () => {
    assert.equal(t.server.localOwnerSession()!.user.id, owner.userId);
  });
});

describe('a database from before owners were recorded', () => {
  test('the oldest admin still enabled becomes the owner, and is recorded: it stays the owner when an older one comes back', async () => {
    const first = await startTestServer();
    const original = await setupOwner(first.client);
    const second = await createMember(first.client, original, 'second-owner', undefined, 'admin');
    await first.server.close();

    // As an older version left it: no record of the owner, and its first admin switched off.
    const db = openConnection(path.join(first.dataDir, 'hearth.db'), { engine });
    db.prepare("DELETE FROM meta WHERE key = 'owner_user_id'").run();
    db.prepare('UPDATE users SET disabled = 1 WHERE id = ?').run(original.userId);
    db.close();

    let t = await startTestServer({ dataDir: first.dataDir });
    assert.equal(t.server.localOwnerSession()!.user.id, second.userId, 'the oldest admin still enabled');
    await t.server.close();

    const again = openConnection(path.join(first.dataDir, 'hearth.db'), { engine });
    assert.equal(
      JSON.parse((again.prepare("SELECT value FROM meta WHERE key = 'owner_user_id'").get() as { value: string }).value),
      second.userId,
    );
    again.prepare('UPDATE users SET disabled = 0 WHERE id = ?').run(original.userId);
    again.close();

    t = await startTestServer({ dataDir: first.dataDir });
    try {
      assert.equal(t.server.localOwnerSession()!.user.id, second.userId, 'recorded: it does not move');
      const olderAdmin = await signInAs(t, original);
      assertError(
        await t.client.patch(`/admin/users/${second.userId}`, { disabled: true }, { token: olderAdmin.access }),
        409,
        'owner_account',
      );
    } finally {
      await t.close();
    }
  });
});

async function signInAs(t: TestServer, user: SignedIn): Promise<SignedIn> {
  const res = await t.client.post('/auth/login', { username: user.username, password: user.password });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { ...user, access: res.body.access_token, refresh: res.body.refresh_token };
}
