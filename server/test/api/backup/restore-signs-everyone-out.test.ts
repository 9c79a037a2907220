import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { login, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder, emergencyKit, readManifest, restoredServer } from '../../helpers/backup.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { missingTool, skipBecause } from '../../helpers/skip.ts';

/*
 * A restored server starts with a new token key, and every session of the snapshot ended: a
 * token signed with the old key (a copied data folder, an old backup's keys.json) opens
 * nothing, and no refresh token of before signs a device back in (some were used, or their
 * phones signed out, after the snapshot). Everyone signs in again with their password.
 */
describe('a whole-server restore makes a new token key and signs every device out', () => {
  let source: TestServer;
  let owner: SignedIn;
  let folder: string;
  let kitText: string;
  let oldTokenKey: Buffer;
  const temps: string[] = [];
  const fresh: TestServer[] = [];

  before(async () => {
    source = await startTestServer();
    owner = await setupOwner(source.client);
    folder = destinationFolder();
    temps.push(folder);
    const dest = await addFolderDestination(source.client, owner.access, folder);
    assert.equal((await backUp(source.client, owner.access, dest.id)).state, 'succeeded');
    kitText = (await emergencyKit(source.client, owner.access)).text;
    oldTokenKey = Buffer.from(JSON.parse(fs.readFileSync(path.join(source.dataDir, 'keys.json'), 'utf8')).token, 'base64');
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await source.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /** What a thief of the old key and an old phone try on the restored server; then the owner signs in as usual. */
  async function assertSignedOut(t: TestServer): Promise<void> {
    const body = `${owner.sessionId}.f.${Date.now() + 5 * 60_000}`;
    const oldKeyToken = `${body}.${crypto.createHmac('sha256', oldTokenKey).update(body).digest('base64url')}`;
    assertError(await t.client.get('/me', { token: oldKeyToken }), 401, 'invalid_token');
    assertError(await t.client.get('/me', { token: owner.access }), 401, 'invalid_token');
    const refreshed = await t.client.post('/auth/refresh', { refresh_token: owner.refresh });
    assert.equal(refreshed.status, 401, JSON.stringify(refreshed.body));
    const again = await login(t.client, OWNER.username, OWNER.password);
    assert.equal((await t.client.get('/me', { token: again.access })).status, 200);
    const keys = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8'));
    assert.ok(!Buffer.from(keys.token, 'base64').equals(oldTokenKey), 'a new token key');
  }

  test('restored from the first screen: the old key and the old refresh token open nothing', async () => {
    const t = await startTestServer();
    fresh.push(t);
    const started = await t.client.post('/setup/restore', { kind: 'folder', path: folder, key: kitText });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await restoredServer(t.client);
    await assertSignedOut(t);
  });

  test('restored by hand as docs/backup-format.md says: the same', async (ctx) => {
    const missing = missingTool('age', 'age');
    if (missing) return skipBecause(ctx, missing);
    const dataDir = await makeTempDir();
    const kit = path.join(await makeTempDir('hearth-kit-'), 'kit.txt');
    temps.push(dataDir, path.dirname(kit));
    fs.writeFileSync(kit, kitText);
    const root = path.join(folder, 'hearth-backup');
    const [snapshot] = fs.readdirSync(path.join(root, 'snapshots'));
    fs.copyFileSync(path.join(root, 'snapshots', snapshot!, 'hearth.db'), path.join(dataDir, 'hearth.db'));
    execFileSync('age', ['-d', '-i', kit, '-o', path.join(dataDir, 'keys.json'), path.join(root, 'snapshots', snapshot!, 'keys.json')]);
    for (const file of readManifest(folder, snapshot!).files.filter((f) => f.path.startsWith('content/internal/'))) {
      const target = path.join(dataDir, 'files', 'blobs', ...file.path.split('/').slice(2));
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(path.join(root, file.path), target);
    }
    const t = await startTestServer({ dataDir });
    fresh.push(t);
    await assertSignedOut(t);
  });
});
