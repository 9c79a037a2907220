/**
 * The owner is never locked out for good: at the PC, `npm run owner -- reset` (or the desktop
 * app's tray) makes a one-time code, and POST /auth/recover trades it with a new password for
 * a session that waits for no approval, ending the owner's other sessions. The code is single
 * use, lives 15 minutes, is limited like a password guess, stored hashed, and never logged.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { startServer } from '../../../src/index.ts';
import { openConnection } from '../../../src/store/database/db.ts';
import { OwnerRepo } from '../../../src/store/database/owner.repo.ts';
import { makeOwnerRecoveryCode } from '../../../src/services/identity/owner-recovery.ts';
import { hashSecret, normaliseTypableSecret } from '../../../src/services/common/secrets.ts';
import { createMember, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { codeIn, runOwnerCli } from '../../helpers/owner-cli.ts';
import { makeTempDir, startTestServer, TEST_HASH_COST, type TestServer } from '../../helpers/server.ts';

const engine = { HEARTH_SQLITE: process.env.HEARTH_SQLITE ?? 'auto' };

async function cliCode(dataDir: string): Promise<string> {
  const run = await runOwnerCli(['reset'], { DATA_DIR: dataDir, ...engine });
  assert.equal(run.code, 0, run.stderr);
  return codeIn(run.stdout);
}

describe('npm run owner', () => {
  test('with no command it prints its usage and succeeds; an unknown command prints the usage and fails', async () => {
    const usage = await runOwnerCli([], {});
    assert.equal(usage.code, 0, usage.stderr);
    assert.match(usage.stdout, /Usage: npm run owner -- <command>/);
    assert.match(usage.stdout, /reset/);
    const unknown = await runOwnerCli(['frobnicate'], {});
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /Unknown command: frobnicate/);
    assert.match(unknown.stderr, /Usage:/);
  });

  test('a DATA_DIR without a Hearth database is said plainly, and nothing is created there', async () => {
    const empty = await makeTempDir();
    try {
      const run = await runOwnerCli(['reset'], { DATA_DIR: empty, ...engine });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /There is no Hearth database in .* \(no hearth\.db there\)/);
      assert.match(run.stderr, /DATA_DIR/);
      assert.deepEqual(fs.readdirSync(empty), [], 'no database was made');

      fs.writeFileSync(path.join(empty, 'hearth.db'), 'these are not the bytes of a database, only some text in its place');
      const notDb = await runOwnerCli(['reset'], { DATA_DIR: empty, ...engine });
      assert.equal(notDb.code, 1);
      assert.match(notDb.stderr, /is not a Hearth database/);
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  test('before first-run setup there is no owner to recover: it says to set Hearth up', async () => {
    const t = await startTestServer();
    try {
      const run = await runOwnerCli(['reset'], { DATA_DIR: t.dataDir, ...engine });
      assert.equal(run.code, 1);
      assert.match(run.stderr, /not set up yet/);
    } finally {
      await t.close();
    }
  });
});

describe('POST /auth/recover with a code made at the PC', () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;

  before(async () => {
    t = await startTestServer({ rateLimit: { maxFailures: 4 } });
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'kid');
    // The lock-out of the issue: approval on, and the owner's only session gone.
    assert.equal((await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access })).status, 200);
  });
  after(() => t.close());

  test('made while the server runs, the code signs the owner in at once (no approval) with the new password, and ends every other session of the owner', async () => {
    const desktop = t.server.localOwnerSession()!;
    const socket = await EventSocket.open(t.url, owner.access);
    const waiting = await t.client.post('/auth/login', OWNER);
    assert.equal(waiting.status, 202, 'without the code, a new browser waits for approval');

    const code = await cliCode(t.dataDir);
    const res = await t.client.post('/auth/recover', { code, new_password: 'a brand new passphrase', device_name: 'Chrome on Linux' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.id, owner.userId);
    assert.equal(res.body.user.role, 'admin');
    assert.equal(res.body.user.must_change_password, false);
    assert.equal((await t.client.get('/me', { token: res.body.access_token })).status, 200, 'a full session, not a pending one');

    assertError(await t.client.get('/me', { token: owner.access }), 401, 'invalid_token');
    // Its devices hear why: their password changed (not "the owner reset your password").
    const revoked = await socket.waitFor((m) => m.type === 'session.revoked');
    assert.deepEqual(revoked.payload, { session_id: owner.sessionId, reason: 'password_changed' });
    await socket.closed;
    assertError(await t.client.get('/me', { token: desktop.access_token }), 401, 'invalid_token');
    assertError(
      await t.client.get(`/auth/session/${waiting.body.session_id}/status`, { token: waiting.body.access_token }),
      401,
      'invalid_token',
    );
    assertError(await t.client.post('/auth/refresh', { refresh_token: owner.refresh }), 401, 'invalid_refresh_token');
    const sessions = (await t.client.get('/sessions', { token: res.body.access_token })).body.items;
    assert.deepEqual(
      sessions.map((s: any) => [s.device_name, s.current]),
      [['Chrome on Linux', true]],
    );

    assertError(await t.client.post('/auth/login', OWNER), 401, 'invalid_credentials');
    assert.equal(
      (await t.client.post('/auth/login', { ...OWNER, password: 'a brand new passphrase' })).status,
      202,
      'approval still applies to sign-ins',
    );
    assert.equal((await t.client.get('/me', { token: member.access })).status, 200, 'nobody else is signed out');
    owner = { ...owner, access: res.body.access_token, refresh: res.body.refresh_token, password: 'a brand new passphrase' };
  });

  test('the code works once: a second use answers 400 invalid_recovery_code', async () => {
    const code = await cliCode(t.dataDir);
    assert.equal((await t.client.post('/auth/recover', { code, new_password: 'another new passphrase' })).status, 200);
    assertError(await t.client.post('/auth/recover', { code, new_password: 'a third passphrase' }), 400, 'invalid_recovery_code', 'code');
    owner = await loginFresh('another new passphrase');
  });

  test('two requests with one code at the same moment: exactly one signs in', async () => {
    const code = await cliCode(t.dataDir);
    const [a, b] = await Promise.all([
      t.client.post('/auth/recover', { code, new_password: 'racing passphrase one' }),
      t.client.post('/auth/recover', { code, new_password: 'racing passphrase two' }),
    ]);
    assert.deepEqual([a.status, b.status].sort(), [200, 400]);
    const won = a.status === 200 ? 'racing passphrase one' : 'racing passphrase two';
    owner = await loginFresh(won);
  });

  test('it is typed as people type: lower case, spaces for dashes, O for 0 all work', async () => {
    const code = await cliCode(t.dataDir);
    const typed = code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o');
    const res = await t.client.post('/auth/recover', { code: typed, new_password: 'typed passphrase 1' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    owner = await loginFresh('typed passphrase 1');
  });

  test('a newer code replaces the older one', async () => {
    const older = await cliCode(t.dataDir);
    const newer = await cliCode(t.dataDir);
    assertError(await t.client.post('/auth/recover', { code: older, new_password: 'older code passphrase' }), 400, 'invalid_recovery_code');
    assert.equal((await t.client.post('/auth/recover', { code: newer, new_password: 'newer code passphrase' })).status, 200);
    owner = await loginFresh('newer code passphrase');
  });

  test('a weak new password answers 400 weak_password and leaves the code usable', async () => {
    const code = await cliCode(t.dataDir);
    assertError(await t.client.post('/auth/recover', { code, new_password: 'short' }), 400, 'weak_password', 'new_password');
    assertError(await t.client.post('/auth/recover', { code }), 400, 'missing_field', 'new_password');
    assert.equal((await t.client.post('/auth/recover', { code, new_password: 'long enough passphrase' })).status, 200);
    owner = await loginFresh('long enough passphrase');
  });

  test('a code past its 15 minutes answers 410 recovery_code_expired, and is gone', async () => {
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), {
      engine: (process.env.HEARTH_SQLITE as 'node' | 'better' | undefined) ?? 'auto',
    });
    db.pragma('busy_timeout = 5000');
    const { code } = makeOwnerRecoveryCode(new OwnerRepo(db), Date.now() - 15 * 60_000 - 1);
    db.close();
    assertError(await t.client.post('/auth/recover', { code, new_password: 'too late passphrase' }), 410, 'recovery_code_expired', 'code');
    assertError(await t.client.post('/auth/recover', { code, new_password: 'too late passphrase' }), 400, 'invalid_recovery_code', 'code');
    assertError(await t.client.post('/auth/login', { ...OWNER, password: 'too late passphrase' }), 401, 'invalid_credentials');
  });

  test('it is stored only as its hash', async () => {
    const code = await cliCode(t.dataDir);
    const raw =
      fs.readFileSync(path.join(t.dataDir, 'hearth.db-wal'), 'latin1') + fs.readFileSync(path.join(t.dataDir, 'hearth.db'), 'latin1');
    assert.ok(!raw.includes(code) && !raw.includes(normaliseTypableSecret(code)), 'the code is nowhere in the database files');
    assert.ok(raw.includes(hashSecret(normaliseTypableSecret(code))), 'its hash is');
  });

  test('wrong codes count like wrong passwords: the address is refused with 429 and Retry-After; the right code from elsewhere still works', async () => {
    const code = await cliCode(t.dataDir);
    const guesser = new ClientFrom(t.api, '127.0.0.42');
    for (let i = 0; i < 4; i++) {
      assertError(
        await guesser.post('/auth/recover', { code: `AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-${i}`, new_password: 'guessing passphrase' }),
        400,
        'invalid_recovery_code',
      );
    }
    const refused = await guesser.post('/auth/recover', { code, new_password: 'guessing passphrase' });
    assertError(refused, 429, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const res = await new ClientFrom(t.api, '127.0.0.43').post('/auth/recover', { code, new_password: 'from the right place' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    owner = await loginFresh('from the right place');
  });

  test('no second factor is asked: an owner who lost the authenticator gets in with the code', async () => {
    const begin = await t.client.post('/auth/2fa/begin', undefined, { token: owner.access });
    const totp = new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(begin.body.secret) });
    assert.equal((await t.client.post('/auth/2fa/verify', { code: totp.generate() }, { token: owner.access })).status, 200);
    const code = await cliCode(t.dataDir);
    const res = await t.client.post('/auth/recover', { code, new_password: 'lost my phone passphrase' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.totp_enabled, true, 'two-step stays on: the owner turns it off or enrolls again, signed in');
  });

  /** The owner's session after a reset, from the desktop door (with approval on, a password sign-in waits). */
  async function loginFresh(password: string): Promise<SignedIn> {
    const tokens = t.server.localOwnerSession()!;
    return { ...owner, access: tokens.access_token, refresh: tokens.refresh_token, sessionId: tokens.session_id, password };
  }
});

describe("the recovery code from the desktop app's tray (the server's host process)", () => {
  test('it works like the command\'s, the log says only "a recovery code was made", and before setup there is none', async () => {
    const dataDir = await makeTempDir();
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(String(chunk));
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      logLevel: 'info',
      passwordHashCost: TEST_HASH_COST,
      mediaWorkersAtStart: false,
      webDir: null,
      ...(process.env.HEARTH_SQLITE ? { sqliteEngine: process.env.HEARTH_SQLITE as 'node' | 'better' } : {}),
    });
    try {
      assert.equal(server.ownerRecoveryCode(), null, 'no owner yet');
      const api = `${server.url}/api/v1`;
      const setup = await fetch(`${api}/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(OWNER),
      });
      assert.equal(setup.status, 200);
      const made = server.ownerRecoveryCode()!;
      assert.ok(made.expires_at > Date.now() + 14 * 60_000 && made.expires_at <= Date.now() + 15 * 60_000);
      const res = await fetch(`${api}/auth/recover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: made.code, new_password: 'tray made passphrase' }),
      });
      assert.equal(res.status, 200);
      const log = lines.join('');
      assert.match(log, /"msg":"a recovery code was made"/);
      assert.ok(!log.includes(made.code), 'the code is not in the log');
      assert.ok(!log.includes(normaliseTypableSecret(made.code)));
      assert.ok(!log.includes('tray made passphrase'));
    } finally {
      process.stderr.write = write;
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('an owner locked out by refresh-token reuse (a restored browser profile)', () => {
  test('the only session ended, approval on: the password alone waits, the code gets in', async () => {
    const t = await startTestServer();
    try {
      const owner = await setupOwner(t.client);
      await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
      assert.equal((await t.client.post('/auth/refresh', { refresh_token: owner.refresh })).status, 200);
      assertError(await t.client.post('/auth/refresh', { refresh_token: owner.refresh }), 401, 'refresh_token_reused');
      assert.equal((await t.client.get('/sessions', { token: owner.access })).status, 401, 'no session left to approve from');
      assert.equal((await t.client.post('/auth/login', OWNER)).status, 202);
      const res = await t.client.post('/auth/recover', { code: await cliCode(t.dataDir), new_password: 'back in again 123' });
      assert.equal(res.status, 200);
      const pending = await t.client.get('/devices/pending', { token: res.body.access_token });
      assert.deepEqual(pending.body.items, [], 'the waiting sign-in ended with the other sessions');
    } finally {
      await t.close();
    }
  });
});
