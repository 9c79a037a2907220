import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { OWNER, createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

let t: TestServer;
let owner: SignedIn;
before(async () => {
  // All requests come from 127.0.0.1; the old-password checks below add address failures.
  t = await startTestServer({ rateLimit: { maxFailures: 50 } });
  owner = await setupOwner(t.client);
});
after(() => t.close());

describe('GET /me and PATCH /me/profile', () => {
  test('GET /me answers the account with its flags and quota {used, limit}', async () => {
    const alice = await createMember(t.client, owner, 'alice');
    const me = await t.client.get('/me', { token: alice.access });
    assert.equal(me.status, 200);
    assert.deepEqual(Object.keys(me.body).sort(), [
      'avatar_seed',
      'display_name',
      'id',
      'must_change_password',
      'phone_start',
      'quota',
      'role',
      'totp_enabled',
      'username',
    ]);
    assert.equal(me.body.id, alice.userId);
    assert.equal(me.body.username, 'alice');
    assert.equal(me.body.role, 'member');
    assert.equal(me.body.display_name, null);
    assert.equal(me.body.must_change_password, false);
    assert.equal(me.body.totp_enabled, false);
    assert.deepEqual(me.body.quota, { used: 0, limit: null });

    const ownerMe = await t.client.get('/me', { token: owner.access });
    assert.equal(ownerMe.body.role, 'admin');
    assert.notEqual(ownerMe.body.avatar_seed, me.body.avatar_seed);
  });

  test('GET /me reports the quota limit an admin sets for the account', async () => {
    const bob = await createMember(t.client, owner, 'bob');
    const patched = await t.client.patch(`/admin/users/${bob.userId}`, { quota_bytes: 5_000_000 }, { token: owner.access });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const me = await t.client.get('/me', { token: bob.access });
    assert.deepEqual(me.body.quota, { used: 0, limit: 5_000_000 });
    await t.client.patch(`/admin/users/${bob.userId}`, { quota_bytes: null }, { token: owner.access });
    assert.deepEqual((await t.client.get('/me', { token: bob.access })).body.quota, { used: 0, limit: null });
  });

  test('PATCH /me/profile sets a trimmed display name, answers the account, and GET /me shows it', async () => {
    const carol = await createMember(t.client, owner, 'carol');
    const res = await t.client.patch('/me/profile', { display_name: '  Carol Smith  ' }, { token: carol.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.display_name, 'Carol Smith');
    assert.equal(res.body.username, 'carol');
    assert.deepEqual(res.body.quota, { used: 0, limit: null });
    assert.equal((await t.client.get('/me', { token: carol.access })).body.display_name, 'Carol Smith');
  });

  test('PATCH /me/profile with display_name null (or blank) clears it; omitting it changes nothing', async () => {
    const dora = await createMember(t.client, owner, 'dora');
    await t.client.patch('/me/profile', { display_name: 'Dora' }, { token: dora.access });
    const unchanged = await t.client.patch('/me/profile', {}, { token: dora.access });
    assert.equal(unchanged.status, 200);
    assert.equal(unchanged.body.display_name, 'Dora');
    const cleared = await t.client.patch('/me/profile', { display_name: null }, { token: dora.access });
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.display_name, null);
    await t.client.patch('/me/profile', { display_name: 'Dora' }, { token: dora.access });
    const blank = await t.client.patch('/me/profile', { display_name: '   ' }, { token: dora.access });
    assert.equal(blank.body.display_name, null);
    assert.equal((await t.client.get('/me', { token: dora.access })).body.display_name, null);
  });

  test('PATCH /me/profile with a non-string name answers 400 invalid_input, an over-long or control-character one 400 invalid_name, and keeps the old name', async () => {
    const eve = await createMember(t.client, owner, 'eve');
    await t.client.patch('/me/profile', { display_name: 'Eve' }, { token: eve.access });
    for (const display_name of [42, true, ['Eve'], { name: 'Eve' }]) {
      const res = await t.client.patch('/me/profile', { display_name }, { token: eve.access });
      assertError(res, 400, 'invalid_input');
      assert.equal(res.body.error.field, 'display_name');
    }
    for (const display_name of ['x'.repeat(65), 'Eve\u0000', 'tab\there']) {
      assertError(await t.client.patch('/me/profile', { display_name }, { token: eve.access }), 400, 'invalid_name', 'display_name');
    }
    assert.equal((await t.client.get('/me', { token: eve.access })).body.display_name, 'Eve');
    const longest = await t.client.patch('/me/profile', { display_name: 'é'.repeat(64) }, { token: eve.access });
    assert.equal(longest.status, 200, '64 characters are allowed');
  });

  test('PATCH /me/profile with a malformed body answers 400 invalid_json', async () => {
    const res = await t.client.request('PATCH', '/me/profile', {
      token: owner.access,
      rawBody: '{"display_name":',
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 400, 'invalid_json');
  });
});

describe('PATCH /me/preferences', () => {
  test('where the app opens on a phone: Photos at first; chosen once, /me and every later sign-in (a new phone) carry it; bad input is 400 invalid_input', async () => {
    const person = await createMember(t.client, owner, 'phoneperson');
    assert.equal((await t.client.get('/me', { token: person.access })).body.phone_start, 'photos');
    const changed = await t.client.patch('/me/preferences', { phone_start: 'files' }, { token: person.access });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.phone_start, 'files');
    assert.equal((await t.client.get('/me', { token: person.access })).body.phone_start, 'files');
    const again = await t.client.post('/auth/login', { username: 'phoneperson', password: person.password });
    assert.equal(again.body.user.phone_start, 'files');
    // Nothing asked, nothing changed.
    assert.equal((await t.client.patch('/me/preferences', {}, { token: person.access })).body.phone_start, 'files');
    assertError(
      await t.client.patch('/me/preferences', { phone_start: 'albums' }, { token: person.access }),
      400,
      'invalid_input',
      'phone_start',
    );
    assertError(await t.client.patch('/me/preferences', { phone_start: 'files' }), 401, 'unauthorized');
    // Another account's choice is its own.
    assert.equal((await t.client.get('/me', { token: owner.access })).body.phone_start, 'photos');
  });
});

describe('PATCH /me/password', () => {
  test('a wrong current password answers 403 wrong_password and changes nothing', async () => {
    const fay = await createMember(t.client, owner, 'fay');
    const res = await t.client.patch(
      '/me/password',
      { current_password: 'not-fays-password', new_password: 'fay-new-password-1' },
      { token: fay.access },
    );
    assertError(res, 403, 'wrong_password');
    assert.equal(res.body.error.field, 'current_password');
    await login(t.client, 'fay', fay.password);
    assert.equal((await t.client.get('/me', { token: fay.access })).status, 200);
  });

  test('a new password shorter than 10 characters answers 400 weak_password; missing fields 400 missing_field', async () => {
    const gus = await createMember(t.client, owner, 'gus');
    const weak = await t.client.patch('/me/password', { current_password: gus.password, new_password: 'short' }, { token: gus.access });
    assertError(weak, 400, 'weak_password');
    assert.equal(weak.body.error.field, 'new_password');
    assertError(await t.client.patch('/me/password', { current_password: gus.password }, { token: gus.access }), 400, 'missing_field');
    assertError(await t.client.patch('/me/password', { new_password: 'gus-new-password-1' }, { token: gus.access }), 400, 'missing_field');
    await login(t.client, 'gus', gus.password);
  });

  test('success answers 204, revokes the other sessions (access and refresh), keeps the current one; the new password signs in, the old does not', async () => {
    const hal = await createMember(t.client, owner, 'hal');
    const other = await login(t.client, 'hal', hal.password);
    const res = await t.client.patch(
      '/me/password',
      { current_password: hal.password, new_password: 'hal-brand-new-password' },
      { token: hal.access },
    );
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assertError(await t.client.get('/me', { token: other.access }), 401, 'invalid_token');
    assertError(await t.client.post('/auth/refresh', { refresh_token: other.refresh }), 401, 'invalid_refresh_token');
    assert.equal((await t.client.get('/me', { token: hal.access })).status, 200, 'the session that changed it stays');
    const refreshed = await t.client.post('/auth/refresh', { refresh_token: hal.refresh });
    assert.equal(refreshed.status, 200, 'and its refresh token still rotates');

    assertError(await t.client.post('/auth/login', { username: 'hal', password: hal.password }), 401, 'invalid_credentials');
    await login(t.client, 'hal', 'hal-brand-new-password');
    const sessions = await t.client.get('/sessions', { token: hal.access });
    assert.ok(!sessions.body.items.some((s: any) => s.id === other.sessionId));
  });

  test("another account's sessions are untouched by a password change", async () => {
    const ivy = await createMember(t.client, owner, 'ivy');
    const jon = await createMember(t.client, owner, 'jon');
    const res = await t.client.patch(
      '/me/password',
      { current_password: ivy.password, new_password: 'ivy-new-password-1' },
      { token: ivy.access },
    );
    assert.equal(res.status, 204);
    assert.equal((await t.client.get('/me', { token: jon.access })).status, 200);
  });
});

describe('password checks are rate limited', () => {
  test('after the limit of wrong current passwords, PATCH /me/password answers 429 rate_limited even with the right one', async () => {
    const own = await startTestServer({ rateLimit: { maxFailures: 3 } });
    try {
      const admin = await setupOwner(own.client);
      for (let i = 0; i < 3; i++) {
        const res = await own.client.patch(
          '/me/password',
          { current_password: `wrong-guess-${i}-xx`, new_password: 'another-password-1' },
          { token: admin.access },
        );
        assertError(res, 403, 'wrong_password');
      }
      const blocked = await own.client.patch(
        '/me/password',
        { current_password: OWNER.password, new_password: 'another-password-1' },
        { token: admin.access },
      );
      assertError(blocked, 429, 'rate_limited');
      assert.ok(Number(blocked.headers.get('retry-after')) >= 1);
      // Nothing changed: the old password still signs in.
      await login(own.client, OWNER.username, OWNER.password);
    } finally {
      await own.close();
    }
  });
});

describe('GET /users', () => {
  test('GET /users lists every enabled account as exactly {id, name, avatar_seed}; name is the display name, else the username', async () => {
    const kim = await createMember(t.client, owner, 'kim');
    await t.client.patch('/me/profile', { display_name: 'Kimberly' }, { token: kim.access });
    const lee = await createMember(t.client, owner, 'lee');
    const res = await t.client.get('/users', { token: lee.access });
    assert.equal(res.status, 200);
    assert.equal(res.body.next_cursor, null);
    assert.deepEqual(Object.keys(res.body).sort(), ['items', 'next_cursor']);
    for (const item of res.body.items) {
      assert.deepEqual(Object.keys(item).sort(), ['avatar_seed', 'id', 'name'], JSON.stringify(item));
    }
    const byId = new Map(res.body.items.map((u: any) => [u.id, u]));
    assert.deepEqual(byId.get(kim.userId), {
      id: kim.userId,
      name: 'Kimberly',
      avatar_seed: (await t.client.get('/me', { token: kim.access })).body.avatar_seed,
    });
    assert.equal((byId.get(lee.userId) as any).name, 'lee');
    assert.equal((byId.get(owner.userId) as any).name, OWNER.username);
    assert.ok(!JSON.stringify(res.body).includes('"role"'));
    assert.ok(!JSON.stringify(res.body).includes('"username"'));
  });

  test('GET /users leaves disabled accounts out, and lists them again once enabled', async () => {
    const mo = await createMember(t.client, owner, 'moe');
    const viewer = await createMember(t.client, owner, 'ned');
    const off = await t.client.patch(`/admin/users/${mo.userId}`, { disabled: true }, { token: owner.access });
    assert.equal(off.status, 200);
    const res = await t.client.get('/users', { token: viewer.access });
    assert.ok(!res.body.items.some((u: any) => u.id === mo.userId));
    assert.ok(res.body.items.some((u: any) => u.id === viewer.userId));
    await t.client.patch(`/admin/users/${mo.userId}`, { disabled: false }, { token: owner.access });
    const again = await t.client.get('/users', { token: viewer.access });
    assert.ok(again.body.items.some((u: any) => u.id === mo.userId));
  });

  test('GET /users?q= filters by username or display name, ignoring case', async () => {
    const olga = await createMember(t.client, owner, 'olga');
    const pat = await createMember(t.client, owner, 'pat');
    await t.client.patch('/me/profile', { display_name: 'Patricia Quux' }, { token: pat.access });
    const byUsername = await t.client.get('/users?q=OLG', { token: olga.access });
    assert.equal(byUsername.status, 200);
    assert.deepEqual(
      byUsername.body.items.map((u: any) => u.id),
      [olga.userId],
    );
    const byDisplay = await t.client.get(`/users?q=${encodeURIComponent('quux')}`, { token: olga.access });
    assert.deepEqual(
      byDisplay.body.items.map((u: any) => u.name),
      ['Patricia Quux'],
    );
    const none = await t.client.get('/users?q=zzz-nobody', { token: olga.access });
    assert.deepEqual(none.body.items, []);
    // LIKE wildcards in q are taken literally.
    const percent = await t.client.get(`/users?q=${encodeURIComponent('%')}`, { token: olga.access });
    assert.deepEqual(percent.body.items, []);
  });
  test('GET /users pages with limit and next_cursor; following the cursors visits everyone once; a bad cursor is 400 invalid_cursor', async () => {
    const all = await t.client.get('/users', { token: owner.access });
    assert.ok(all.body.items.length >= 5);
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
      const page = await t.client.get(`/users?limit=2${query}`, { token: owner.access });
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.items.length <= 2);
      seen.push(...page.body.items.map((u: any) => u.id));
      cursor = page.body.next_cursor;
      if (cursor === null) break;
    }
    assert.deepEqual(
      seen,
      all.body.items.map((u: any) => u.id),
    );
    assertError(await t.client.get('/users?cursor=not-a-cursor', { token: owner.access }), 400, 'invalid_cursor');
    assertError(await t.client.get('/users?limit=0', { token: owner.access }), 400, 'invalid_input');
  });
});

describe('temporary passwords', () => {
  test('POST /admin/users/:id/reset-password answers {temporary_password} and revokes every session of that account', async () => {
    const quin = await createMember(t.client, owner, 'quin');
    const second = await login(t.client, 'quin', quin.password);
    const res = await t.client.post(`/admin/users/${quin.userId}/reset-password`, {}, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body), ['temporary_password']);
    assert.equal(typeof res.body.temporary_password, 'string');
    assert.ok([...res.body.temporary_password].length >= 10);
    for (const s of [quin, second]) {
      assertError(await t.client.get('/me', { token: s.access }), 401, 'invalid_token');
      assertError(await t.client.post('/auth/refresh', { refresh_token: s.refresh }), 401, 'invalid_refresh_token');
    }
    assertError(await t.client.post('/auth/login', { username: 'quin', password: quin.password }), 401, 'invalid_credentials');
    assert.equal((await t.client.get('/me', { token: owner.access })).status, 200, "the admin's own session is untouched");
  });

  test('signing in with the temporary password works and reports must_change_password; the token may read and change the password only', async () => {
    const rae = await createMember(t.client, owner, 'rae');
    const reset = await t.client.post(`/admin/users/${rae.userId}/reset-password`, {}, { token: owner.access });
    const temp = reset.body.temporary_password;
    const signIn = await t.client.post('/auth/login', { username: 'rae', password: temp });
    assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    assert.equal(signIn.body.user.must_change_password, true);
    const token = signIn.body.access_token;

    const me = await t.client.get('/me', { token });
    assert.equal(me.status, 200);
    assert.equal(me.body.must_change_password, true);
    assert.equal((await t.client.get('/sessions', { token })).status, 200, 'other reads are allowed too');
    assert.equal((await t.client.get('/users', { token })).status, 200);

    assertError(await t.client.post('/auth/2fa/begin', undefined, { token }), 403, 'must_change_password');
    assertError(await t.client.patch('/me/profile', { display_name: 'Rae' }, { token }), 403, 'must_change_password');
    assertError(await t.client.delete(`/sessions/${signIn.body.session_id}`, { token }), 403, 'must_change_password');
    assert.equal((await t.client.get('/me', { token })).body.display_name, null, 'the refused profile change wrote nothing');

    const changed = await t.client.patch('/me/password', { current_password: temp, new_password: 'rae-own-password-1' }, { token });
    assert.equal(changed.status, 204, JSON.stringify(changed.body));
    const after = await t.client.get('/me', { token });
    assert.equal(after.body.must_change_password, false);
    const profile = await t.client.patch('/me/profile', { display_name: 'Rae' }, { token });
    assert.equal(profile.status, 200, JSON.stringify(profile.body));
    assert.equal(profile.body.display_name, 'Rae');

    assertError(await t.client.post('/auth/login', { username: 'rae', password: temp }), 401, 'invalid_credentials');
    const fresh = await login(t.client, 'rae', 'rae-own-password-1');
    assert.equal((await t.client.get('/me', { token: fresh.access })).body.must_change_password, false);
  });

  test('an account with a temporary password may sign out: POST /auth/logout answers 204', async () => {
    const sam = await createMember(t.client, owner, 'sam');
    const reset = await t.client.post(`/admin/users/${sam.userId}/reset-password`, {}, { token: owner.access });
    const s = await login(t.client, 'sam', reset.body.temporary_password);
    assert.equal((await t.client.post('/auth/logout', undefined, { token: s.access })).status, 204);
    assertError(await t.client.get('/me', { token: s.access }), 401, 'invalid_token');
  });

  test('reset-password takes an admin-chosen new_password, refusing a weak one with 400 weak_password', async () => {
    const tia = await createMember(t.client, owner, 'tia');
    const weak = await t.client.post(`/admin/users/${tia.userId}/reset-password`, { new_password: 'short' }, { token: owner.access });
    assertError(weak, 400, 'weak_password');
    assert.equal((await t.client.get('/me', { token: tia.access })).status, 200, 'a refused reset signs nobody out');
    const chosen = await t.client.post(
      `/admin/users/${tia.userId}/reset-password`,
      { new_password: 'chosen-by-admin-1' },
      { token: owner.access },
    );
    assert.equal(chosen.status, 200);
    assert.equal(chosen.body.temporary_password, 'chosen-by-admin-1');
    const s = await login(t.client, 'tia', 'chosen-by-admin-1');
    assert.equal((await t.client.get('/me', { token: s.access })).body.must_change_password, true);
  });

  test('reset-password of an unknown account answers 404 not_found', async () => {
    const res = await t.client.post('/admin/users/01ARZ3NDEKTSV4RRFFQ69G5FAV/reset-password', {}, { token: owner.access });
    assertError(res, 404, 'not_found');
  });

  test('a member calling reset-password answers 403 forbidden and changes nothing', async () => {
    const uma = await createMember(t.client, owner, 'uma');
    const res = await t.client.post(`/admin/users/${owner.userId}/reset-password`, {}, { token: uma.access });
    assertError(res, 403, 'forbidden');
    assert.equal((await t.client.get('/me', { token: owner.access })).status, 200);
    await login(t.client, OWNER.username, OWNER.password);
  });
});
