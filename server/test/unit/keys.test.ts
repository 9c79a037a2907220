import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openConnection } from '../../src/store/database/db.ts';
import { loadOrCreateKeys, restoredKeys } from '../../src/store/data-dir/keys.ts';
import { makeTempDir, startTestServer } from '../helpers/server.ts';

test('the server keys are created once, readable by the owner only, and kept again across restarts', async () => {
  const dir = await makeTempDir();
  try {
    const first = loadOrCreateKeys(dir);
    const again = loadOrCreateKeys(dir);
    assert.ok(first.token.equals(again.token) && first.link.equals(again.link) && first.totp.equals(again.totp));
    assert.equal(first.token.length, 32);
    assert.ok(!first.token.equals(first.link));
    assert.equal(fs.statSync(path.join(dir, 'keys.json')).mode & 0o777, 0o600);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a copy of the database alone holds no signing or link key', async () => {
  const t = await startTestServer();
  try {
    const keys = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8')) as { token: string; link: string };
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
    try {
      const meta = db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
      for (const row of meta) {
        assert.ok(!row.value.includes(keys.token) && !row.value.includes(keys.link), `meta.${row.key} holds a key`);
      }
    } finally {
      db.close();
    }
  } finally {
    await t.close();
  }
});

test('a keys.json from before TOTP sealing gains a TOTP key, and its token and link keys are kept as they were', async () => {
  const dir = await makeTempDir();
  try {
    const old = { token: Buffer.alloc(32, 1).toString('base64'), link: Buffer.alloc(32, 2).toString('base64') };
    fs.writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(old), { mode: 0o600 });
    const keys = loadOrCreateKeys(dir);
    assert.ok(keys.token.equals(Buffer.alloc(32, 1)) && keys.link.equals(Buffer.alloc(32, 2)));
    assert.equal(keys.totp.length, 32);
    assert.ok(loadOrCreateKeys(dir).totp.equals(keys.totp), 'the new key is kept');
    assert.equal(fs.statSync(path.join(dir, 'keys.json')).mode & 0o777, 0o600);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a backup's keys.json comes back with when a phone first took the authority: a restored server keeps the authority phones trust instead of making another", () => {
  const link = crypto.randomBytes(32).toString('base64');
  const totp = crypto.randomBytes(32).toString('base64');
  const authority = { keyPem: '-----BEGIN PRIVATE KEY-----\nx\n', certPem: '-----BEGIN CERTIFICATE-----\ny\n' };
  const handedOut = JSON.parse(
    restoredKeys(JSON.stringify({ link, totp, authority: { ...authority, handedOutAt: '2026-11-01T10:00:00.000Z' } })),
  );
  assert.equal(handedOut.authority.handedOutAt, '2026-11-01T10:00:00.000Z');
  const never = JSON.parse(restoredKeys(JSON.stringify({ link, totp, authority: { ...authority, handedOutAt: 'soon' } })));
  assert.equal(never.authority.handedOutAt, null);
  assert.equal(JSON.parse(restoredKeys(JSON.stringify({ link, totp, token: link, authority }))).token, undefined);
});
