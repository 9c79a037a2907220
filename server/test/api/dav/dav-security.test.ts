import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { transportAllows } from '../../../src/http/dav/auth.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, type DriveLogin, davErrorOf } from './dav-support.ts';

/** A server that believes the forwarding headers of a proxy on 127.0.0.1, as TRUSTED_PROXIES=127.0.0.1 says. */
let proxied: TestServer;
let plain: TestServer;
let owner: SignedIn;
let proxiedOwner: SignedIn;

before(async () => {
  [plain, proxied] = await Promise.all([startTestServer(), startTestServer({ trustedProxies: ['127.0.0.1'] })]);
  owner = await setupOwner(plain.client);
  proxiedOwner = await setupOwner(proxied.client);
});
after(() => Promise.all([plain.close(), proxied.close()]));

async function codeOf(res: Response): Promise<string> {
  return (await davErrorOf(res)).code;
}

function propfind(t: TestServer, login: DriveLogin | undefined, headers: Record<string, string> = {}): Promise<Response> {
  return dav(t, 'PROPFIND', '/dav/', { ...(login && { login }), headers: { Depth: '0', ...headers } });
}

describe('WebDAV: a drive password over plain http only at home', () => {
  test('the rule: https from anywhere; plain http from loopback, private, link-local and CGNAT addresses only', () => {
    for (const ip of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '192.168.1.20',
      '10.0.0.3',
      '172.16.4.4',
      '169.254.1.1',
      'fe80::1%eth0',
      'fd12::5',
      '100.101.1.2',
    ]) {
      assert.equal(transportAllows('http', ip), true, ip);
    }
    for (const ip of ['203.0.113.9', '8.8.8.8', '::ffff:203.0.113.9', '2001:db8::1', '172.32.0.1', '']) {
      assert.equal(transportAllows('http', ip), false, ip);
      assert.equal(transportAllows('https', ip), true, ip);
    }
    assert.equal(transportAllows('http', null), false);
  });

  test('from this PC over plain http the drive opens; forwarding headers from a proxy not in TRUSTED_PROXIES are not believed', async () => {
    const drive = await driveLogin(plain, owner, 'owner');
    assert.equal((await propfind(plain, drive)).status, 207);
    assert.equal((await propfind(plain, drive, { 'X-Forwarded-For': '203.0.113.9' })).status, 207);
  });

  test('from outside over plain http (through a trusted proxy): 403 https_required, with or without a password, and no challenge', async () => {
    const drive = await driveLogin(proxied, proxiedOwner, 'owner');
    const outside = { 'X-Forwarded-For': '203.0.113.9' };
    for (const who of [drive, undefined]) {
      const res = await propfind(proxied, who, outside);
      assert.equal(res.status, 403);
      assert.equal(res.headers.get('www-authenticate'), null, 'no challenge: the client must not send the password in clear');
      const error = await davErrorOf(res);
      assert.equal(error.code, 'https_required');
      assert.match(error.message, /https address/);
    }
    const put = await dav(proxied, 'PUT', '/dav/x.txt', { login: drive, headers: outside, body: 'x' });
    assert.equal(put.status, 403);
    assert.equal((await dav(proxied, 'OPTIONS', '/dav/', { headers: outside })).status, 200, 'OPTIONS carries no password');
  });

  test('through the trusted proxy: from the home network over http, and from anywhere over https, the drive opens', async () => {
    const drive = await driveLogin(proxied, proxiedOwner, 'owner');
    assert.equal((await propfind(proxied, drive, { 'X-Forwarded-For': '192.168.1.20' })).status, 207);
    assert.equal((await propfind(proxied, drive, { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https' })).status, 207);
  });
});

describe('WebDAV: signing out everywhere takes the drive passwords too', () => {
  test("changing one's password revokes every drive password; the session that changed it keeps going and makes new ones", async () => {
    const fay = await createMember(plain.client, owner, 'fay');
    const drive = await driveLogin(plain, fay, 'fay');
    assert.equal((await propfind(plain, drive)).status, 207);
    const res = await plain.client.patch(
      '/me/password',
      { current_password: fay.password, new_password: 'fay-new-password-2' },
      { token: fay.access },
    );
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const refused = await propfind(plain, drive);
    assert.equal(refused.status, 401);
    assert.equal(await codeOf(refused), 'invalid_credentials');
    assert.deepEqual((await plain.client.get('/me/dav-passwords', { token: fay.access })).body.items, []);
    const fresh = await driveLogin(plain, fay, 'fay');
    assert.equal((await propfind(plain, fresh)).status, 207);
  });

  test('a password reset by an admin revokes them: after choosing a new password, the old drive password stays refused', async () => {
    const gus = await createMember(plain.client, owner, 'gus');
    const drive = await driveLogin(plain, gus, 'gus');
    const reset = await plain.client.post(`/admin/users/${gus.userId}/reset-password`, {}, { token: owner.access });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    const back = await login(plain.client, 'gus', reset.body.temporary_password);
    const changed = await plain.client.patch(
      '/me/password',
      { current_password: reset.body.temporary_password, new_password: 'gus-new-password-2' },
      { token: back.access },
    );
    assert.equal(changed.status, 204, JSON.stringify(changed.body));
    assert.equal((await propfind(plain, drive)).status, 401);
  });

  test('an account switched off loses them: switched on again, the old drive password is still refused', async () => {
    const hal = await createMember(plain.client, owner, 'hal');
    const drive = await driveLogin(plain, hal, 'hal');
    assert.equal((await plain.client.patch(`/admin/users/${hal.userId}`, { disabled: true }, { token: owner.access })).status, 200);
    assert.equal((await propfind(plain, drive)).status, 401);
    assert.equal((await plain.client.patch(`/admin/users/${hal.userId}`, { disabled: false }, { token: owner.access })).status, 200);
    assert.equal((await propfind(plain, drive)).status, 401);
  });

  test('signing out one other device leaves the drive passwords alone', async () => {
    const ivy = await createMember(plain.client, owner, 'ivy');
    const other = await login(plain.client, 'ivy', ivy.password);
    const drive = await driveLogin(plain, ivy, 'ivy');
    assert.equal((await plain.client.delete(`/sessions/${other.sessionId}`, { token: ivy.access })).status, 204);
    assert.equal((await propfind(plain, drive)).status, 207);
  });
});

describe('WebDAV: a drive is no session', () => {
  test('a PUT and a MKCOL over WebDAV are in the activity log as the account, into a shared folder as the editor', async () => {
    const joan = await createMember(plain.client, owner, 'joan');
    const drive = await driveLogin(plain, joan, 'joan');
    assert.equal((await dav(plain, 'MKCOL', '/dav/Drawings', { login: drive })).status, 201);
    assert.equal((await dav(plain, 'PUT', '/dav/Drawings/cat.txt', { login: drive, body: 'meow' })).status, 201);
    const activity = (await plain.client.get('/activity', { token: joan.access })).body.items;
    const types = activity.filter((a: any) => a.actor_id === joan.userId).map((a: any) => a.type);
    assert.ok(types.includes('folder.created') && types.includes('file.uploaded'), types.join(' '));

    const family = await createFolder(plain.client, owner, 'Family recipes');
    await plain.client.post(`/nodes/${family.id}/permissions`, { user_id: joan.userId, role: 'editor' }, { token: owner.access });
    const put = await dav(plain, 'PUT', '/dav/Shared%20with%20me/Family%20recipes/soup.txt', { login: drive, body: 'leek' });
    assert.equal(put.status, 201);
    const ownerActivity = (await plain.client.get('/activity', { token: owner.access })).body.items;
    const upload = ownerActivity.find((a: any) => a.type === 'file.uploaded' && a.details.name === 'soup.txt');
    assert.equal(upload?.actor_id, joan.userId, "in the sharer's log, made by the editor");
    // The drive signed in no device: the devices list is the sessions alone.
    const sessions = (await plain.client.get('/sessions', { token: joan.access })).body.items;
    assert.ok(sessions.every((s: any) => !String(s.id).startsWith('dav:')));
  });
});
