import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { Decrypter, Encrypter } from 'age-encryption';
import { login, OWNER, setupOwner } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder, finishedRun, restoredServer, signAsTheKit } from '../../helpers/backup.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { paddedSize } from '../../../src/store/archives/backup-padding.ts';

/**
 * Encrypted backups made before Hearth wrote age files with Node's own crypto (issue 35) were
 * written by the JavaScript age library, and their manifests recorded no `header_mac`. Such a
 * backup is made here file for file as that library wrote it (every age file decrypted and
 * encrypted again by it, to the same key; the manifests without `header_mac`, signed again), and
 * the check, the restore of one folder and the restore of the whole server all still read it:
 * by the SHA-256 of every file.
 */
function everyFile(root: string): string[] {
  return fs
    .readdirSync(root, { recursive: true })
    .map(String)
    .map((name) => path.join(root, name))
    .filter((file) => fs.statSync(file).isFile());
}

async function writtenByTheEarlierLibrary(root: string, identity: string, recipient: string): Promise<number> {
  let rewritten = 0;
  for (const file of everyFile(root)) {
    const bytes = fs.readFileSync(file);
    if (!bytes.subarray(0, 22).equals(Buffer.from('age-encryption.org/v1\n'))) continue;
    const decrypter = new Decrypter();
    decrypter.addIdentity(identity);
    const manifest = path.basename(file) === 'manifest.json';
    const plain = manifest ? asWrittenBefore(await decrypter.decrypt(bytes), identity) : await decrypter.decrypt(bytes);
    const encrypter = new Encrypter();
    encrypter.addRecipient(recipient);
    const again = Buffer.from(await encrypter.encrypt(plain));
    if (!manifest) assert.equal(again.length, bytes.length, `${file}: the library lays an age file out as Hearth now does`);
    fs.writeFileSync(file, again);
    rewritten++;
  }
  return rewritten;
}

/** A manifest as it was before `header_mac`: without it, signed again with the kit's key, padded as before. */
function asWrittenBefore(plain: Uint8Array, identity: string): Uint8Array {
  const text = Buffer.from(plain).toString('utf8');
  const manifest = JSON.parse(text) as { files: { header_mac?: string }[] };
  assert.ok(
    manifest.files.every((file) => /^[0-9a-f]{64}$/.test(file.header_mac ?? '')),
    'Hearth records every file’s header MAC now',
  );
  for (const file of manifest.files) delete file.header_mac;
  const json = JSON.stringify(signAsTheKit(manifest, identity), null, 1);
  return Buffer.from(json.padEnd(paddedSize(Buffer.byteLength(json)), ' '));
}

async function download(t: TestServer, token: string, id: string): Promise<Buffer> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

test('an encrypted backup the earlier age library wrote is checked, restored one folder at a time and restored whole', async () => {
  const folder = destinationFolder();
  const servers: TestServer[] = [];
  try {
    const t = await startTestServer();
    servers.push(t);
    const owner = await setupOwner(t.client);
    const holiday = await createFolder(t.client, owner, 'Holiday');
    // Bigger than one 64 KiB chunk, and not a multiple of it.
    const photo = crypto.randomBytes(200_000);
    const photoId = await uploadFile(t.api, owner.access, photo, { filename: 'beach.jpg', parentId: holiday.id });
    const dest = await addFolderDestination(t.client, owner.access, folder, { encrypt: true });
    assert.equal((await backUp(t.client, owner.access, dest.id)).state, 'succeeded');
    const kit = (await t.client.get('/admin/backup/kit', { token: owner.access })).body;
    const root = path.join(folder, 'hearth-backup');
    const rewritten = await writtenByTheEarlierLibrary(root, kit.key, kit.public_key);
    assert.ok(rewritten >= 4, `the manifest, the database, keys.json and the photo (${rewritten} files)`);

    const check = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(check.state, 'succeeded', JSON.stringify(check));

    const [snapshot] = fs.readdirSync(path.join(root, 'snapshots'));
    const started = await t.client.post(
      `/admin/backup/destinations/${dest.id}/snapshots/${snapshot}/restore`,
      { node_id: holiday.id, mode: 'beside' },
      { token: owner.access },
    );
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const one = await finishedRun(t.client, owner.access, started.body.id);
    assert.equal(one.state, 'succeeded', JSON.stringify(one));
    const inCopy = await t.client.get(`/nodes?parent_id=${one.restored.node_id}&limit=10`, { token: owner.access });
    assert.deepEqual(await download(t, owner.access, inCopy.body.items[0].id), photo, 'the folder came back beside, its photo whole');
    await t.close();
    servers.pop();

    const fresh = await startTestServer();
    servers.push(fresh);
    const restore = await fresh.client.post('/setup/restore', { kind: 'folder', path: folder, key: kit.file_text });
    assert.equal(restore.status, 202, JSON.stringify(restore.body));
    await restoredServer(fresh.client);
    const again = await login(fresh.client, OWNER.username, OWNER.password);
    assert.deepEqual(await download(fresh, again.access, photoId), photo, 'the whole server is back, the photo byte for byte');
  } finally {
    for (const server of servers) await server.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
