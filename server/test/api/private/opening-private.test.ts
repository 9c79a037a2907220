import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { uploadPhoto } from '../../helpers/albums.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Private opens with the account's password or its PIN, in one session, for a few minutes;
// guesses count as password guesses do; moving in needs no unlock, moving out does.

let t: TestServer;
let mum: SignedIn;

async function call(who: SignedIn, method: string, route: string, body?: unknown) {
  return t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) });
}

async function ok(who: SignedIn, method: string, route: string, body?: unknown): Promise<any> {
  const res = await call(who, method, route, body);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function mine(who: SignedIn): Promise<string[]> {
  const months = (await ok(who, 'GET', '/nodes/gallery/months')).items as { month: string }[];
  const names: string[] = [];
  for (const { month } of months)
    names.push(...(await ok(who, 'GET', `/nodes?filter=gallery&month=${month}`)).items.map((n: any) => n.name));
  return names;
}

before(async () => {
  // A short unlock, so its end can be waited for.
  t = await startTestServer({ privateUnlockMs: 1500 });
  const admin = await setupOwner(t.client);
  mum = await createMember(t.client, admin, 'mum');
});
after(() => t.close());

describe('opening Private', () => {
  test('before first use there is no folder, and it is locked', async () => {
    assert.deepEqual(await ok(mum, 'GET', '/private'), { folder_id: null, unlocked_until: null, has_pin: false, unlock_minutes: 1 });
  });

  test('the password opens it in this session only, until the unlock runs out; Lock now locks it', async () => {
    const wrong = await call(mum, 'POST', '/private/unlock', { password: 'not-her-password' });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error.code, 'wrong_password');
    const opened = await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    assert.ok(opened.folder_id);
    assert.ok(opened.unlocked_until > Date.now());
    await ok(mum, 'GET', `/nodes?parent_id=${opened.folder_id}`);
    const otherPhone = await login(t.client, 'mum', mum.password);
    assert.equal((await ok(otherPhone, 'GET', '/private')).unlocked_until, null);
    assert.equal((await call(otherPhone, 'GET', `/nodes?parent_id=${opened.folder_id}`)).body.error.code, 'private_locked');
    await sleep(1700);
    assert.equal((await ok(mum, 'GET', '/private')).unlocked_until, null);
    assert.equal((await call(mum, 'GET', `/nodes?parent_id=${opened.folder_id}`)).status, 403);
    await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    await ok(mum, 'POST', '/private/lock');
    assert.equal((await call(mum, 'GET', `/nodes?parent_id=${opened.folder_id}`)).body.error.code, 'private_locked');
  });

  test('a PIN of 4 to 8 digits, set with the password, opens it too; it is stored hashed', async () => {
    assert.equal((await call(mum, 'POST', '/private/unlock', { pin: '2468' })).body.error.code, 'no_pin');
    for (const pin of ['123', '123456789', 'abcd', '12 34']) {
      const bad = await call(mum, 'PUT', '/private/pin', { password: mum.password, pin });
      assert.equal(bad.status, 400, pin);
      assert.equal(bad.body.error.code, 'invalid_pin', pin);
    }
    assert.equal((await call(mum, 'PUT', '/private/pin', { password: 'wrong-password', pin: '2468' })).body.error.code, 'wrong_password');
    assert.equal((await ok(mum, 'PUT', '/private/pin', { password: mum.password, pin: '2468' })).has_pin, true);
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
    const stored = db.prepare('SELECT pin_hash FROM private_folders WHERE user_id = ?').get(mum.userId) as { pin_hash: string };
    db.close();
    assert.ok(stored.pin_hash.length > 20 && !stored.pin_hash.includes('2468'));
    assert.equal((await call(mum, 'POST', '/private/unlock', { pin: '1111' })).body.error.code, 'wrong_pin');
    assert.ok((await ok(mum, 'POST', '/private/unlock', { pin: '2468' })).unlocked_until > Date.now());
    await ok(mum, 'POST', '/private/lock');
  });

  test('wrong PINs are refused with 429 once the sign-in limit is reached, even the right one', async () => {
    // A server of its own with a low limit, reached at once (the guesses of the tests above count on theirs).
    const strict = await startTestServer({ rateLimit: { maxFailures: 4, slowAfter: 100 } });
    try {
      const owner = await setupOwner(strict.client);
      assert.equal(
        (await strict.client.request('PUT', '/private/pin', { token: owner.access, body: { password: owner.password, pin: '9753' } }))
          .status,
        200,
      );
      const answers: number[] = [];
      for (const pin of ['0000', '0001', '0002', '0003', '0004', '9753']) {
        answers.push((await strict.client.post('/private/unlock', { pin }, { token: owner.access })).status);
      }
      assert.deepEqual(answers, [403, 403, 403, 403, 429, 429]);
    } finally {
      await strict.close();
    }
  });
});

describe('moving in and out', () => {
  test('Move to Private needs no unlock and takes a photo out of Photos; Move out needs it open and puts it back', async () => {
    const photo = await uploadPhoto(t, mum, 'kiss.jpg', { when: '2022:02:14 12:00:00' });
    assert.ok((await mine(mum)).includes('kiss.jpg'));
    const moved = await ok(mum, 'POST', `/nodes/${photo}/private`);
    assert.ok(!(await mine(mum)).includes('kiss.jpg'));
    const refused = await call(mum, 'DELETE', `/nodes/${photo}/private`);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'private_locked');
    await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    assert.deepEqual(
      (await ok(mum, 'GET', `/nodes?parent_id=${moved.parent_id}`)).items.map((n: any) => n.name),
      ['kiss.jpg'],
    );
    const out = await ok(mum, 'DELETE', `/nodes/${photo}/private`);
    assert.equal(out.parent_id, null);
    assert.ok((await mine(mum)).includes('kiss.jpg'));
  });

  test('a name already taken in Private gets a free one; the Private folder itself cannot be renamed, moved, trashed or moved out', async () => {
    const a = await uploadPhoto(t, mum, 'same.jpg');
    const folder = await ok(mum, 'POST', '/nodes/folder', { name: 'Box' });
    const b = await uploadPhoto(t, mum, 'same.jpg', { parentId: folder.id });
    await ok(mum, 'POST', `/nodes/${a}/private`);
    assert.equal((await ok(mum, 'POST', `/nodes/${b}/private`)).name, 'same (1).jpg');
    const privateId = (await ok(mum, 'GET', '/private')).folder_id;
    await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    assert.equal((await call(mum, 'PATCH', `/nodes/${privateId}`, { name: 'Open' })).status, 403);
    assert.equal((await call(mum, 'PATCH', `/nodes/${privateId}`, { parent_id: folder.id })).status, 403);
    assert.equal((await call(mum, 'DELETE', `/nodes/${privateId}`)).status, 403);
    assert.equal((await call(mum, 'DELETE', `/nodes/${privateId}/private`)).status, 403);
    // A whole folder moved in takes what is inside with it, and out again.
    const trip = await ok(mum, 'POST', '/nodes/folder', { name: 'Trip' });
    await uploadPhoto(t, mum, 'trip.jpg', { parentId: trip.id, when: '2021:07:01 10:00:00' });
    await ok(mum, 'POST', `/nodes/${trip.id}/private`);
    assert.ok(!(await mine(mum)).includes('trip.jpg'));
    await ok(mum, 'DELETE', `/nodes/${trip.id}/private`);
    assert.ok((await mine(mum)).includes('trip.jpg'));
  });
});
