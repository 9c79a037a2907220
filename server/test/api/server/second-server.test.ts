import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { startServer } from '../../../src/index.ts';
import { configFromEnv } from '../../../src/config.ts';
import { StartRefused } from '../../../src/start-refused.ts';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, TEST_HASH_COST, type TestServer } from '../../helpers/server.ts';
import { spawnRefusedServer } from '../../helpers/spawn.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 19, finding 5: a second server started on a data folder another one is using is
 * refused before it touches anything, with a message naming the process that holds it; the
 * first goes on as if nothing happened (its two-factor sign-ins above all, which a second
 * server rewriting keys and migrating the database used to break with 500).
 */

function codeAt(secret: string, at: number): string {
  return new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({
    timestamp: at,
  });
}

/** Everything in the data folder that a second server could have touched, with its bytes. */
async function snapshot(dataDir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of ['keys.json', 'files/.hearth-library']) {
    out.set(
      name,
      crypto
        .createHash('sha256')
        .update(await fs.readFile(path.join(dataDir, name)))
        .digest('hex'),
    );
  }
  return out;
}

describe('a second server on a data folder in use', () => {
  let t: TestServer;
  let owner: SignedIn;
  let secret: string;
  let recovery: string[];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    const begin = await t.client.post('/auth/2fa/begin', undefined, { token: owner.access });
    assert.equal(begin.status, 200, JSON.stringify(begin.body));
    secret = begin.body.secret;
    const verify = await t.client.post('/auth/2fa/verify', { code: codeAt(secret, Date.now()) }, { token: owner.access });
    assert.equal(verify.status, 200, JSON.stringify(verify.body));
    recovery = verify.body.recovery_codes;
  });
  after(() => t.close());

  test('in the same process: startServer is refused (StartRefused data_dir_in_use) naming this process, and changes nothing', async () => {
    const before = await snapshot(t.dataDir);
    const second = startServer({
      dataDir: t.dataDir,
      host: '127.0.0.1',
      port: 0,
      logLevel: 'silent',
      passwordHashCost: TEST_HASH_COST,
      mediaWorkersAtStart: false,
      sqliteEngine: configFromEnv().sqliteEngine ?? 'auto',
      webDir: null,
    });
    await assert.rejects(second, (error: unknown) => {
      assert.ok(error instanceof StartRefused, String(error));
      assert.equal(error.reason, 'data_dir_in_use');
      assert.match(error.message, new RegExp(`data folder ${t.dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is in use`));
      assert.match(error.message, new RegExp(`this same process \\(pid ${process.pid}\\)`));
      return true;
    });
    assert.deepEqual(await snapshot(t.dataDir), before, 'keys and seal untouched');
  });

  test('as its own process (npm start): it exits 1 with a plain message naming the holder (pid, what it is), no stack trace', async () => {
    const before = await snapshot(t.dataDir);
    const refused = await spawnRefusedServer(t.dataDir);
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, new RegExp(`is in use by process ${process.pid}: a Hearth server \\(`), refused.output);
    assert.match(refused.output, /running since \d{4}-\d{2}-\d{2}T/);
    assert.match(refused.output, /Stop the other one first/);
    assert.doesNotMatch(refused.output, /\n\s+at /, 'no stack trace');
    assert.doesNotMatch(refused.output, /listening on/);
    assert.deepEqual(await snapshot(t.dataDir), before, 'keys and seal untouched');
  });

  test('the first server keeps working: two-factor sign-in with a code and with a recovery code, uploads, downloads', async () => {
    const withCode = await t.client.post('/auth/login', {
      username: owner.username,
      password: owner.password,
      totp_code: codeAt(secret, Date.now() + 30_000),
    });
    assert.equal(withCode.status, 200, JSON.stringify(withCode.body));
    const withRecovery = await t.client.post('/auth/login', { username: owner.username, password: owner.password, totp_code: recovery[0] });
    assert.equal(withRecovery.status, 200, JSON.stringify(withRecovery.body));
    const data = crypto.randomBytes(50_000);
    const id = await uploadFile(t.api, withCode.body.access_token, data, { filename: 'still.bin' });
    const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${withRecovery.body.access_token}` } });
    assert.equal(res.status, 200);
    assert.ok(Buffer.from(await res.arrayBuffer()).equals(data));
  });

  test('once the first server has closed, the folder can be started again (the lock goes with it)', async () => {
    await t.server.close();
    const again = await startTestServer({ dataDir: t.dataDir });
    try {
      const login = await again.client.post('/auth/login', { username: owner.username, password: owner.password, totp_code: recovery[1] });
      assert.equal(login.status, 200, JSON.stringify(login.body));
    } finally {
      await again.server.close();
    }
  });
});
