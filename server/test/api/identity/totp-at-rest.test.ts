import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import * as OTPAuth from 'otpauth';
import { OWNER, setupOwner } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';

/*
 * Issue 12, finding 7: TOTP secrets were stored in clear in the database, while keys.json
 * exists so that a copy of the database alone opens nothing. With a copy of hearth.db (a
 * backup on a USB stick), anyone could generate the family's second-factor codes.
 */

function codeAt(secret: string, at = Date.now()): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at });
}

function storedSecrets(dataDir: string): { totp_secret: string | null; totp_pending_secret: string | null }[] {
  const db = openConnection(path.join(dataDir, 'hearth.db'), { readonly: true });
  try {
    return db.prepare('SELECT totp_secret, totp_pending_secret FROM users').all() as never;
  } finally {
    db.close();
  }
}

describe('TOTP secrets are sealed at rest (issue 12, finding 7)', () => {
  test('a copy of the database holds no TOTP secret in clear, pending or enabled, and the authenticator still signs in', async () => {
    const t = await startTestServer();
    try {
      const owner = await setupOwner(t.client);
      const begin = await t.client.post('/auth/2fa/begin', undefined, { token: owner.access });
      const secret: string = begin.body.secret;
      const pending = storedSecrets(t.dataDir).find((r) => r.totp_pending_secret !== null)!;
      assert.ok(!pending.totp_pending_secret!.includes(secret), 'the pending secret is in clear');

      assert.equal((await t.client.post('/auth/2fa/verify', { code: codeAt(secret) }, { token: owner.access })).status, 200);
      const [row] = storedSecrets(t.dataDir);
      assert.ok(row!.totp_secret !== null);
      assert.ok(!row!.totp_secret!.includes(secret), 'the secret is in clear');
      assert.ok(!row!.totp_secret!.toUpperCase().includes(secret.slice(0, 16)), 'the secret is in clear');

      // The secret still works: the next step's code signs in.
      const signIn = await t.client.post('/auth/login', { ...OWNER, totp_code: codeAt(secret, Date.now() + 30_000) });
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
    } finally {
      await t.close();
    }
  });

  test('secrets an earlier version stored in clear are sealed at the next start, and keep working', async () => {
    const dataDir = await makeTempDir();
    try {
      const first = await startTestServer({ dataDir });
      const secret = new OTPAuth.Secret({ size: 20 }).base32;
      try {
        await setupOwner(first.client);
      } finally {
        await first.server.close();
      }
      // What a database from before this version holds: the secret in clear.
      const db = openConnection(path.join(dataDir, 'hearth.db'));
      db.prepare('UPDATE users SET totp_secret = ?, totp_last_step = NULL').run(secret);
      db.close();

      const second = await startTestServer({ dataDir });
      try {
        const [row] = storedSecrets(dataDir);
        assert.ok(row!.totp_secret !== null && !row!.totp_secret.includes(secret), `still in clear: ${row!.totp_secret}`);
        assertError401(await second.client.post('/auth/login', OWNER));
        const signIn = await second.client.post('/auth/login', { ...OWNER, totp_code: codeAt(secret) });
        assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      } finally {
        await second.server.close();
      }
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  test("a sealed secret copied onto another account's row does not open there", async () => {
    const t = await startTestServer();
    try {
      const owner = await setupOwner(t.client);
      const begin = await t.client.post('/auth/2fa/begin', undefined, { token: owner.access });
      await t.client.post('/auth/2fa/verify', { code: codeAt(begin.body.secret) }, { token: owner.access });
      const invite = await t.client.post('/admin/invites', {}, { token: owner.access });
      await t.client.post('/auth/register', { username: 'copycat', password: 'copycat-password', invite_code: invite.body.code });
      const db = openConnection(path.join(t.dataDir, 'hearth.db'));
      db.prepare(
        "UPDATE users SET totp_secret = (SELECT totp_secret FROM users WHERE username = 'owner') WHERE username = 'copycat'",
      ).run();
      db.close();
      const res = await t.client.post('/auth/login', {
        username: 'copycat',
        password: 'copycat-password',
        totp_code: codeAt(begin.body.secret, Date.now() + 30_000),
      });
      assert.equal(res.status, 401);
      assert.equal(res.body.error.code, 'totp_required');
    } finally {
      await t.close();
    }
  });
});

function assertError401(res: { status: number; body: any }): void {
  assert.equal(res.status, 401, JSON.stringify(res.body));
  assert.equal(res.body.error.code, 'totp_required');
}
