import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { generateX25519Identity } from 'age-encryption';
import { createMember, login, setupOwner, OWNER, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder, restoredServer, endedRestore } from '../../helpers/backup.ts';
import { addS3Destination, startS3 } from '../../helpers/s3.ts';
import { makeTempDir, startTestServer, ApiClient, type TestServer } from '../../helpers/server.ts';
import { spawnServer } from '../../helpers/spawn.ts';
import { uploadFile } from '../../helpers/upload.ts';

const totp = (secret: string, at = Date.now()) =>
  new OTPAuth.TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at });

describe('restore a whole server from a backup, from a fresh install: everyone signs in as before', () => {
  let source: TestServer;
  let owner: SignedIn;
  let grandma: SignedIn;
  let grandmaSecret: string;
  /** When grandma's enrolment spent its code: a code is never taken twice, so the restored servers get the next step's. */
  let enrolledAt: number;
  let photo: Buffer;
  let linkToken: string;
  let plainFolder: string;
  let encryptedFolder: string;
  let kitText: string;
  let sourceKeys: string;
  const temps: string[] = [];
  const fresh: TestServer[] = [];
  const freshServer = async () => {
    const made = await startTestServer();
    fresh.push(made);
    return made;
  };

  before(async () => {
    // With HTTPS on, keys.json holds Hearth's certificate authority: phones that trust it must go on trusting the restored server.
    source = await startTestServer({ https: true });
    await source.server.httpsReady();
    owner = await setupOwner(source.client);
    grandma = await createMember(source.client, owner, 'grandma');
    const begin = await source.client.post('/auth/2fa/begin', undefined, { token: grandma.access });
    grandmaSecret = begin.body.secret;
    enrolledAt = Date.now();
    const verified = await source.client.post('/auth/2fa/verify', { code: totp(grandmaSecret, enrolledAt) }, { token: grandma.access });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    photo = crypto.randomBytes(250_000);
    const photoId = await uploadFile(source.api, owner.access, photo, { filename: 'wedding.jpg' });
    const link = await source.client.post(`/nodes/${photoId}/share`, {}, { token: owner.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    linkToken = link.body.token;
    plainFolder = destinationFolder();
    encryptedFolder = destinationFolder();
    temps.push(plainFolder, encryptedFolder);
    const plain = await addFolderDestination(source.client, owner.access, plainFolder);
    const encrypted = await addFolderDestination(source.client, owner.access, encryptedFolder, { encrypt: true });
    assert.equal((await backUp(source.client, owner.access, plain.id)).state, 'succeeded');
    assert.equal((await backUp(source.client, owner.access, encrypted.id)).state, 'succeeded');
    kitText = (await source.client.get('/admin/backup/kit', { token: owner.access })).body.file_text;
    sourceKeys = fs.readFileSync(path.join(source.dataDir, 'keys.json'), 'utf8');
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await source.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /** The keys came back (links, two-step secrets, the authority phones trust), all but the token key, which is new. */
  function assertKeysBack(dataDir: string): void {
    const { token, ...kept } = JSON.parse(fs.readFileSync(path.join(dataDir, 'keys.json'), 'utf8'));
    const { token: oldToken, ...before } = JSON.parse(sourceKeys);
    assert.deepEqual(kept, before);
    assert.match(before.authority.certPem, /BEGIN CERTIFICATE/, 'the certificate authority travels with the keys');
    assert.ok(typeof token === 'string' && token !== oldToken, 'a new token key');
  }

  /** The family is back: old passwords, two-step sign-in, the public link and the photo's bytes. */
  async function familyIsBack(t: TestServer): Promise<void> {
    const status = (await t.client.get('/status')).body;
    assert.equal(status.setup_required, false);
    assert.equal(status.server_id, (await source.client.get('/status')).body.server_id, 'the restored server is the same server');
    await login(t.client, OWNER.username, OWNER.password);
    assertError(await t.client.post('/auth/login', { username: 'grandma', password: grandma.password }), 401, 'totp_required');
    const withCode = await t.client.post('/auth/login', {
      username: 'grandma',
      password: grandma.password,
      totp_code: totp(grandmaSecret, enrolledAt + 30_000),
    });
    assert.equal(withCode.status, 200, JSON.stringify(withCode.body));
    const opened = await t.client.get(`/s/${linkToken}`);
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const bytes = Buffer.from(await (await fetch(`${t.api}/s/${linkToken}/download`)).arrayBuffer());
    assert.ok(bytes.equals(photo), 'the photo is back byte for byte');
    assertKeysBack(t.dataDir);
    assert.ok(!fs.existsSync(path.join(t.dataDir, 'restore')), 'no staging left');
    assertError(await t.client.post('/setup/restore', { kind: 'folder', path: plainFolder }), 409, 'already_set_up');
    assertError(await t.client.get('/setup/restore'), 409, 'already_set_up');
  }

  test('a plain backup: list its snapshots with the kit, restore the newest, and everyone signs in with their old password and 2FA; links open', async () => {
    const t = await freshServer();
    const status = (await t.client.get('/status')).body;
    assert.equal(status.setup_required, true);
    assert.equal(status.restoring, false);
    // The kit proves the plain backup is this family's, and opens its keys.json.
    assertError(await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: plainFolder }), 400, 'backup_key_required', 'key');
    const listed = await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: plainFolder, key: kitText });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.encrypted, false);
    assert.equal(listed.body.items.length, 1);
    assert.equal(listed.body.items[0].signed, true);
    const started = await t.client.post('/setup/restore', {
      kind: 'folder',
      path: plainFolder,
      key: kitText,
      snapshot_id: listed.body.items[0].id,
    });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.body.kind, 'restore');
    assert.equal(started.body.state, 'running');
    await restoredServer(t.client);
    await familyIsBack(t);
  });

  test('an encrypted backup: without the key a clear error, a wrong key a clear error and nothing touched; with the kit it restores', async () => {
    const t = await freshServer();
    assertError(
      await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: encryptedFolder }),
      400,
      'backup_key_required',
      'key',
    );
    assertError(await t.client.post('/setup/restore', { kind: 'folder', path: encryptedFolder }), 400, 'backup_key_required', 'key');
    const otherKey = await generateX25519Identity();
    assertError(
      await t.client.post('/setup/restore', { kind: 'folder', path: encryptedFolder, key: otherKey }),
      400,
      'backup_key_wrong',
      'key',
    );
    assertError(
      await t.client.post('/setup/restore', { kind: 'folder', path: encryptedFolder, key: 'my dog' }),
      400,
      'backup_key_wrong',
      'key',
    );
    assert.ok(!fs.existsSync(path.join(t.dataDir, 'restore')), 'nothing staged');
    assert.equal((await t.client.get('/status')).body.setup_required, true);
    assert.equal((await t.client.get('/status')).body.restoring, false);

    const listed = await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: encryptedFolder, key: kitText });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.equal(listed.body.encrypted, true);
    assert.equal(listed.body.items.length, 1);
    const started = await t.client.post('/setup/restore', { kind: 'folder', path: encryptedFolder, key: kitText });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await restoredServer(t.client);
    await familyIsBack(t);
    assert.equal(
      fs.readFileSync(path.join(t.dataDir, 'backup-key.txt'), 'utf8').match(/AGE-SECRET-KEY-1\w+/)![0],
      kitText.match(/AGE-SECRET-KEY-1\w+/)![0],
      'the restored server keeps encrypting with the same kit',
    );
  });

  test('a damaged file in the backup: the restore fails in words, nothing is half-restored, and setup still works', async () => {
    const damaged = destinationFolder();
    temps.push(damaged);
    fs.cpSync(plainFolder, damaged, { recursive: true });
    const contentRoot = path.join(damaged, 'hearth-backup', 'content', 'internal');
    const shard = fs.readdirSync(contentRoot)[0]!;
    const file = path.join(contentRoot, shard, fs.readdirSync(path.join(contentRoot, shard))[0]!);
    const bytes = fs.readFileSync(file);
    bytes[0] = bytes[0]! ^ 0xff;
    fs.writeFileSync(file, bytes);

    const t = await freshServer();
    assert.equal((await t.client.post('/setup/restore', { kind: 'folder', path: damaged, key: kitText })).status, 202);
    const run = await endedRestore(t.client);
    assert.equal(run.state, 'failed');
    assert.match(run.error, /damaged.*Nothing was restored/);
    assert.ok(!fs.existsSync(path.join(t.dataDir, 'restore')), 'the half-built copy is gone');
    assert.equal((await t.client.get('/status')).body.setup_required, true);
    assert.equal((await t.client.get('/status')).body.restoring, false);
    await setupOwner(t.client, { username: 'newowner', password: 'new-owner-password-1' });
  });

  test('a kill -9 in the middle of a restore leaves a fresh install, which restores again', async (ctx) => {
    // From a bucket, whose reads can be held mid-restore (TestS3.holdContent): a folder's cannot, a pipe there is refused.
    const s3 = await startS3();
    ctx.after(() => s3.stop());
    const offsite = await addS3Destination(source.client, owner.access, s3, { prefix: 'home' });
    assert.equal((await backUp(source.client, owner.access, offsite.id)).state, 'succeeded');
    const fromBucket = s3.destination({ prefix: 'home', key: kitText });
    const hold = await s3.holdContent();
    const dataDir = await makeTempDir();
    temps.push(dataDir);

    const first = await spawnServer(dataDir);
    const client = new ApiClient(first.api);
    assert.equal((await client.post('/setup/restore', fromBucket)).status, 202);
    await hold.reached;
    assert.equal((await client.get('/status')).body.restoring, true);
    assert.ok(fs.existsSync(path.join(dataDir, 'restore', 'data')), 'mid-way: the staging folder is being filled');
    await first.kill9();
    hold.release();

    const second = await spawnServer(dataDir);
    try {
      const again = new ApiClient(second.api);
      const status = (await again.get('/status')).body;
      assert.equal(status.setup_required, true, 'a fresh install');
      assert.equal(status.restoring, false);
      assert.ok(!fs.existsSync(path.join(dataDir, 'restore')), 'the cut restore was thrown away');
      assert.equal((await again.post('/setup/restore', fromBucket)).status, 202);
      await restoredServer(again);
      await login(again, OWNER.username, OWNER.password);
      assertKeysBack(dataDir);
    } finally {
      await second.kill9();
    }
  });

  test('once set up, restoring is refused with 409 already_set_up, and setup is refused while a restore runs', async () => {
    assertError(await source.client.post('/setup/restore', { kind: 'folder', path: plainFolder }), 409, 'already_set_up');
    assertError(await source.client.post('/setup/restore/snapshots', { kind: 'folder', path: plainFolder }), 409, 'already_set_up');
    const t = await freshServer();
    assertError(
      await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: '/nonexistent-folder' }),
      400,
      'backup_not_found',
      'path',
    );
    assertError(await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: 'relative' }), 400, 'backup_not_found', 'path');
    assertError(
      await t.client.post('/setup/restore', { kind: 'folder', path: plainFolder, key: kitText, snapshot_id: 'nope' }),
      404,
      'snapshot_not_found',
      'snapshot_id',
    );
  });
});
