import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { login, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder, readManifest, restoredServer } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/**
 * A plain backup as releases before signatures wrote it (`hearth-backup/1`): the data folder's
 * keys.json in clear (token key included), a manifest without `mac`, `library` or `blob`.
 */
function asEarlierRelease(folder: string, snapshot: string, dataDir: string): void {
  const root = path.join(folder, 'hearth-backup');
  const keys = fs.readFileSync(path.join(dataDir, 'keys.json'));
  fs.writeFileSync(path.join(root, 'snapshots', snapshot, 'keys.json'), keys);
  const manifest = readManifest(folder, snapshot) as ReturnType<typeof readManifest> & Record<string, unknown>;
  const { mac: _mac, ...rest } = manifest;
  const files = manifest.files.map(({ library: _library, blob: _blob, ...file }: any) =>
    file.path.endsWith('/keys.json') ? { ...file, size: keys.length, sha256: sha256(keys) } : file,
  );
  fs.writeFileSync(
    path.join(root, 'snapshots', snapshot, 'manifest.json'),
    JSON.stringify({ ...rest, format: 'hearth-backup/1', files }, null, 1),
  );
}

/*
 * Backups made by an earlier release still restore: nothing proves who made them, so the first
 * screen offers them marked unsigned and restores one only at the owner's word; their keys.json
 * comes back without its token key (anyone who held that backup could sign tokens with it).
 */
describe('a plain backup of an earlier release (hearth-backup/1) restores at the owner’s word, without its token key', () => {
  let source: TestServer;
  let owner: SignedIn;
  let folder: string;
  let photo: Buffer;
  let oldKeys: { token: string; link: string; totp: string };
  const temps: string[] = [];
  const fresh: TestServer[] = [];

  before(async () => {
    source = await startTestServer();
    owner = await setupOwner(source.client);
    photo = crypto.randomBytes(120_000);
    await uploadFile(source.api, owner.access, photo, { filename: 'old-photo.jpg' });
    folder = destinationFolder();
    temps.push(folder);
    const run = await backUp(source.client, owner.access, (await addFolderDestination(source.client, owner.access, folder)).id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    asEarlierRelease(folder, run.snapshot_id, source.dataDir);
    oldKeys = JSON.parse(fs.readFileSync(path.join(source.dataDir, 'keys.json'), 'utf8'));
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await source.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test('listed without a kit as unsigned; refused without consent; restored with it, a new token key, the old links key', async () => {
    const t = await startTestServer();
    fresh.push(t);
    const listed = await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: folder });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(
      listed.body.items.map((s: { signed: boolean }) => s.signed),
      [false],
    );
    assertError(await t.client.post('/setup/restore', { kind: 'folder', path: folder }), 409, 'backup_unsigned', 'accept_unsigned');
    const started = await t.client.post('/setup/restore', { kind: 'folder', path: folder, accept_unsigned: true });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await restoredServer(t.client);
    const back = await login(t.client, OWNER.username, OWNER.password);
    const files = (await t.client.get('/nodes?parent_id=root', { token: back.access })).body.items;
    const restored = files.find((n: { name: string }) => n.name === 'old-photo.jpg');
    const bytes = Buffer.from(
      await (await fetch(`${t.api}/nodes/${restored.id}/download`, { headers: { authorization: `Bearer ${back.access}` } })).arrayBuffer(),
    );
    assert.ok(bytes.equals(photo));
    const keys = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8'));
    assert.equal(keys.link, oldKeys.link);
    assert.equal(keys.totp, oldKeys.totp);
    assert.notEqual(keys.token, oldKeys.token, 'the token key in clear on the drive signs nothing here');
    assertError(await t.client.get('/me', { token: owner.access }), 401, 'invalid_token');
  });
});
