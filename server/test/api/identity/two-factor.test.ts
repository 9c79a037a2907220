import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

/** What an authenticator app computes: SHA-1, 6 digits, 30 s steps. */
function codeAt(secret: string, at: number): string {
  return new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/** A six-digit code that matches none of the steps the server accepts around now. */
function wrongCode(secret: string): string {
  const now = Date.now();
  const live = new Set([-2, -1, 0, 1, 2].map((s) => codeAt(secret, now + s * 30_000)));
  return ['000000', '123456', '999999', '424242'].find((c) => !live.has(c))!;
}

let t: TestServer;
let owner: SignedIn;
before(async () => {
  // Every test sends from 127.0.0.1, and refused codes of all accounts share that address's
  // bucket: a roomy limit here; the limit itself is tested on a server of its own below.
  t = await startTestServer({ rateLimit: { maxFailures: 100 } });
  owner = await setupOwner(t.client);
});
after(() => t.close());

/** Turns TOTP on for a fresh member; the code spent by verify is that of the current step. */
async function enrolled(username: string): Promise<{ user: SignedIn; secret: string; recovery: string[]; verifiedAt: number }> {
  const user = await createMember(t.client, owner, username);
  const begin = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  assert.equal(begin.status, 200, JSON.stringify(begin.body));
  const verifiedAt = Date.now();
  const verify = await t.client.post('/auth/2fa/verify', { code: codeAt(begin.body.secret, verifiedAt) }, { token: user.access });
  assert.equal(verify.status, 200, JSON.stringify(verify.body));
  return { user, secret: begin.body.secret, recovery: verify.body.recovery_codes, verifiedAt };
}

function signIn(user: SignedIn, extra: object = {}) {
  return t.client.post('/auth/login', { username: user.username, password: user.password, ...extra });
}

test('POST /auth/2fa/begin answers {secret, otpauth_url}: a base32 secret and an otpauth://totp URL carrying it', async () => {
  const user = await createMember(t.client, owner, 'beginner');
  const res = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(Object.keys(res.body).sort(), ['otpauth_url', 'secret']);
  assert.match(res.body.secret, /^[A-Z2-7]{32}$/);
  const url = new URL(res.body.otpauth_url);
  assert.equal(url.protocol, 'otpauth:');
  assert.equal(url.host, 'totp');
  assert.equal(url.searchParams.get('secret'), res.body.secret);
  assert.equal(url.searchParams.get('algorithm'), 'SHA1');
  assert.equal(url.searchParams.get('digits'), '6');
  assert.equal(url.searchParams.get('period'), '30');
  assert.match(decodeURIComponent(url.pathname), /beginner/);
  // Beginning alone does not turn two-factor on.
  const me = await t.client.get('/me', { token: user.access });
  assert.equal(me.body.totp_enabled, false);
  assert.equal((await signIn(user)).status, 200);
});

test('POST /auth/2fa/verify before begin answers 409 totp_not_started', async () => {
  const user = await createMember(t.client, owner, 'eager');
  assertError(await t.client.post('/auth/2fa/verify', { code: '123456' }, { token: user.access }), 409, 'totp_not_started');
});

test('POST /auth/2fa/verify with a wrong code answers 400 invalid_totp_code and leaves two-factor off', async () => {
  const user = await createMember(t.client, owner, 'fumbler');
  const begin = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  const res = await t.client.post('/auth/2fa/verify', { code: wrongCode(begin.body.secret) }, { token: user.access });
  assertError(res, 400, 'invalid_totp_code');
  assert.equal(res.body.error.field, 'code');
  assertError(await t.client.post('/auth/2fa/verify', { code: 'abcdef' }, { token: user.access }), 400, 'invalid_totp_code');
  assert.equal((await t.client.get('/me', { token: user.access })).body.totp_enabled, false);
  assert.equal((await signIn(user)).status, 200);
});

test('beginning again replaces the pending secret: a code of the first secret no longer confirms, one of the second does', async () => {
  const user = await createMember(t.client, owner, 'restarter');
  const first = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  const second = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  assert.equal(second.status, 200);
  assert.notEqual(second.body.secret, first.body.secret);
  const stale = codeAt(first.body.secret, Date.now());
  const live = new Set([-1, 0, 1].map((s) => codeAt(second.body.secret, Date.now() + s * 30_000)));
  if (!live.has(stale)) {
    assertError(await t.client.post('/auth/2fa/verify', { code: stale }, { token: user.access }), 400, 'invalid_totp_code');
  }
  const ok = await t.client.post('/auth/2fa/verify', { code: codeAt(second.body.secret, Date.now()) }, { token: user.access });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.recovery_codes.length, 10);
});

test("POST /auth/2fa/verify with the authenticator's current code answers 10 distinct recovery codes and turns two-factor on", async () => {
  const { user, recovery } = await enrolled('verifier');
  assert.equal(recovery.length, 10);
  assert.equal(new Set(recovery).size, 10);
  for (const code of recovery) assert.match(code, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}-[0-9A-Z]$/);
  const me = await t.client.get('/me', { token: user.access });
  assert.equal(me.body.totp_enabled, true);
});

test('sign-in with TOTP on: no code answers 401 totp_required, a wrong code 401 totp_required, a valid code 200', async () => {
  const { user, secret } = await enrolled('signer');
  assertError(await signIn(user), 401, 'totp_required');
  assertError(await signIn(user, { totp_code: '' }), 401, 'totp_required');
  const wrong = await signIn(user, { totp_code: wrongCode(secret) });
  assertError(wrong, 401, 'totp_required');
  // The wrong password is still just a wrong password, whatever the code.
  assertError(
    await t.client.post('/auth/login', {
      username: user.username,
      password: 'not-the-password',
      totp_code: codeAt(secret, Date.now() + 30_000),
    }),
    401,
    'invalid_credentials',
  );
  // The code spent by /2fa/verify is that of the current step; the next step's is inside the ±1 window.
  const ok = await signIn(user, { totp_code: codeAt(secret, Date.now() + 30_000) });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal(ok.body.user.totp_enabled, true);
  assert.equal(typeof ok.body.access_token, 'string');
});

test('a TOTP code is accepted once: the code spent by verify, and a code that just signed in, both answer 401 totp_required', async () => {
  // The steps are counted from the moment verify was sent, not from now: a step boundary passed
  // meanwhile (a loaded machine) would otherwise make "the code verify spent" a fresh one.
  const { user, secret, verifiedAt } = await enrolled('replayer');
  const verifyCode = codeAt(secret, verifiedAt);
  const next = codeAt(secret, verifiedAt + 30_000);
  if (verifyCode !== next) {
    assertError(await signIn(user, { totp_code: verifyCode }), 401, 'totp_required');
  }
  const first = await signIn(user, { totp_code: next });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assertError(await signIn(user, { totp_code: next }), 401, 'totp_required');
  // An older step than the last accepted one is refused too.
  assertError(await signIn(user, { totp_code: codeAt(secret, verifiedAt) }), 401, 'totp_required');
});

test('the same TOTP code sent by two sign-ins at once lets exactly one in', async () => {
  const { user, secret } = await enrolled('racer');
  const code = codeAt(secret, Date.now() + 30_000);
  const results = await Promise.all([signIn(user, { totp_code: code }), signIn(user, { totp_code: code })]);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 401], JSON.stringify(results.map((r) => r.body)));
  assert.equal(results.find((r) => r.status === 401)!.body.error.code, 'totp_required');
});

test('the same recovery code sent by two sign-ins at once lets exactly one in', async () => {
  const { user, recovery } = await enrolled('racer-two');
  const results = await Promise.all([signIn(user, { totp_code: recovery[0] }), signIn(user, { totp_code: recovery[0] })]);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 401], JSON.stringify(results.map((r) => r.body)));
});

test('a recovery code signs in once; the second use answers 401 totp_required', async () => {
  const { user, recovery } = await enrolled('recoverer');
  const first = await signIn(user, { totp_code: recovery[0] });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assertError(await signIn(user, { totp_code: recovery[0] }), 401, 'totp_required');
  // The other codes are still good.
  assert.equal((await signIn(user, { totp_code: recovery[1] })).status, 200);
});

test('a recovery code is accepted typed in lowercase and without dashes, and is then spent in every spelling', async () => {
  const { user, recovery } = await enrolled('typist');
  const lower = recovery[2]!.toLowerCase();
  assert.equal((await signIn(user, { totp_code: lower })).status, 200);
  assertError(await signIn(user, { totp_code: recovery[2] }), 401, 'totp_required');
  const bare = recovery[3]!.replace(/-/g, '');
  assert.equal((await signIn(user, { totp_code: bare })).status, 200);
  assertError(await signIn(user, { totp_code: recovery[3]!.toLowerCase() }), 401, 'totp_required');
  const spaced = ` ${recovery[4]!.toLowerCase().replace(/-/g, ' ')} `;
  assert.equal((await signIn(user, { totp_code: spaced })).status, 200);
});

test('a recovery code typed with the letters base32 confuses (o for 0, l or i for 1) is still accepted', async () => {
  const { user, recovery } = await enrolled('squinter');
  const code = recovery.find((c) => /[01]/.test(c));
  assert.ok(code, 'some recovery code holds a 0 or a 1');
  const misread = code.replace(/0/g, 'o').replace(/1/g, (_m, i: number) => (i % 2 === 0 ? 'l' : 'I'));
  assert.notEqual(misread, code);
  assert.equal((await signIn(user, { totp_code: misread })).status, 200);
  assertError(await signIn(user, { totp_code: code }), 401, 'totp_required');
});

test('a recovery code of another account does not sign in', async () => {
  const a = await enrolled('holder-a');
  const b = await enrolled('holder-b');
  assertError(await signIn(b.user, { totp_code: a.recovery[0] }), 401, 'totp_required');
  assert.equal((await signIn(a.user, { totp_code: a.recovery[0] })).status, 200, 'the failed try did not spend it');
});

test('POST /auth/2fa/begin while two-factor is on answers 409 totp_already_enabled; verify again 409 too', async () => {
  const { user, secret } = await enrolled('doubler');
  assertError(await t.client.post('/auth/2fa/begin', undefined, { token: user.access }), 409, 'totp_already_enabled');
  assertError(
    await t.client.post('/auth/2fa/verify', { code: codeAt(secret, Date.now() + 30_000) }, { token: user.access }),
    409,
    'totp_already_enabled',
  );
});

test('POST /auth/2fa/disable with a wrong password answers 403 wrong_password and two-factor stays on', async () => {
  const { user } = await enrolled('keeper');
  const res = await t.client.post('/auth/2fa/disable', { password: 'not-the-password' }, { token: user.access });
  assertError(res, 403, 'wrong_password');
  assert.equal((await t.client.get('/me', { token: user.access })).body.totp_enabled, true);
  assertError(await signIn(user), 401, 'totp_required');
});

test('POST /auth/2fa/disable with the right password answers 204; then sign-in needs no code and old recovery codes are gone', async () => {
  const { user, recovery } = await enrolled('disabler');
  const res = await t.client.post('/auth/2fa/disable', { password: user.password }, { token: user.access });
  assert.equal(res.status, 204);
  assert.equal((await t.client.get('/me', { token: user.access })).body.totp_enabled, false);
  const plain = await signIn(user);
  assert.equal(plain.status, 200, JSON.stringify(plain.body));
  assert.equal(plain.body.user.totp_enabled, false);
  assertError(await t.client.post('/auth/2fa/disable', { password: user.password }, { token: user.access }), 409, 'totp_not_enabled');

  // Enrolling again issues a new secret and new recovery codes; the old codes open nothing.
  const again = await t.client.post('/auth/2fa/begin', undefined, { token: user.access });
  assert.equal(again.status, 200);
  const verify = await t.client.post('/auth/2fa/verify', { code: codeAt(again.body.secret, Date.now()) }, { token: user.access });
  assert.equal(verify.status, 200);
  assertError(await signIn(user, { totp_code: recovery[0] }), 401, 'totp_required');
  assert.equal((await signIn(user, { totp_code: verify.body.recovery_codes[0] })).status, 200);
});

test('the 2FA routes validate their bodies: 400 missing_field without code or password', async () => {
  const user = await createMember(t.client, owner, 'sloppy');
  assertError(await t.client.post('/auth/2fa/verify', {}, { token: user.access }), 400, 'missing_field');
  assertError(await t.client.post('/auth/2fa/disable', {}, { token: user.access }), 400, 'missing_field');
});

test('wrong TOTP codes are rate limited per account: after the limit, 429 rate_limited with Retry-After, even for a valid code', async () => {
  const own = await startTestServer({ rateLimit: { maxFailures: 3 } });
  try {
    const admin = await setupOwner(own.client);
    const begin = await own.client.post('/auth/2fa/begin', undefined, { token: admin.access });
    const verify = await own.client.post('/auth/2fa/verify', { code: codeAt(begin.body.secret, Date.now()) }, { token: admin.access });
    assert.equal(verify.status, 200);
    const login = (totp_code: string) => own.client.post('/auth/login', { username: admin.username, password: admin.password, totp_code });
    for (let i = 0; i < 3; i++) assertError(await login(wrongCode(begin.body.secret)), 401, 'totp_required');
    const blocked = await login(codeAt(begin.body.secret, Date.now() + 30_000));
    assertError(blocked, 429, 'rate_limited');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 15 * 60, `Retry-After ${retryAfter}`);
    // The refused attempt did not spend the recovery code.
    assertError(await login(verify.body.recovery_codes[0]), 429, 'rate_limited');
  } finally {
    await own.close();
  }
});
