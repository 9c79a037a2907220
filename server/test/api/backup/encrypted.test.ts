import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { paddedSize } from '../../../src/store/archives/backup-padding.ts';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import {
  addFolderDestination,
  ageEncryptTo,
  backUp,
  destinationFolder,
  endedRestore,
  restoreBeside,
  type ManifestFile,
} from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { missingTool, skipBecause } from '../../helpers/skip.ts';
import { uploadFile } from '../../helpers/upload.ts';

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const AGE_HEADER = Buffer.from('age-encryption.org/v1\n');

/** Every file under a folder, with its path relative to it. */
function filesUnder(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile());
}

describe('encrypted backups: someone with the backup folder but not the emergency kit sees neither names nor content', () => {
  let t: TestServer;
  let owner: SignedIn;
  const temps: string[] = [];
  const folder = () => {
    const made = destinationFolder();
    temps.push(made);
    return made;
  };
  /** The kit, as the owner downloads it, saved to a file the age CLI reads. */
  const kitFile = async () => {
    const kit = await t.client.get('/admin/backup/kit', { token: owner.access });
    assert.equal(kit.status, 200, JSON.stringify(kit.body));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-kit-'));
    temps.push(dir);
    const file = path.join(dir, kit.body.file_name);
    fs.writeFileSync(file, kit.body.file_text);
    return { file, kit: kit.body };
  };
  const ageDecrypt = (kit: string, file: string) => execFileSync('age', ['-d', '-i', kit, file], { maxBuffer: 64 * 1024 * 1024 });

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test('an encrypted backup holds no file name and no plain content; with the kit, the age CLI opens every file by hand', async (ctx) => {
    const secretName = 'Grandmas-secret-recipe-7f3a.txt';
    const marker = `plain words nobody may read ${crypto.randomBytes(8).toString('hex')}`;
    const text = Buffer.from(`${marker}\n`.repeat(5000));
    await uploadFile(t.api, owner.access, text, { filename: secretName });
    const photo = crypto.randomBytes(300_000);
    await uploadFile(t.api, owner.access, photo, { filename: 'photo.jpg' });

    const dest = folder();
    const added = await addFolderDestination(t.client, owner.access, dest, { encrypt: true });
    assert.equal(added.encrypted, true);
    const run = await backUp(t.client, owner.access, added.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.deepEqual(run.problems, []);

    const root = path.join(dest, 'hearth-backup');
    const files = filesUnder(root);
    assert.ok(files.length >= 5, files.join(', '));
    for (const relative of files) {
      assert.ok(!relative.includes(secretName), `no file name in the paths: ${relative}`);
      const bytes = fs.readFileSync(path.join(root, relative));
      if (relative === 'age-recipient.txt') {
        assert.match(bytes.toString(), /^age1[0-9a-z]+\n$/);
        continue;
      }
      assert.ok(bytes.subarray(0, AGE_HEADER.length).equals(AGE_HEADER), `${relative} is an age file`);
      for (const plain of [secretName, marker, 'SQLite format 3', '"sha256"', 'owner'])
        assert.ok(!bytes.includes(Buffer.from(plain)), `${relative} does not show ${plain}`);
      assert.ok(!bytes.includes(photo.subarray(1000, 1064)), `${relative} does not hold the photo in clear`);
    }

    // The emergency kit is what opens it: the key this server keeps, in a file the age CLI reads.
    const { file: kit, kit: body } = await kitFile();
    assert.match(body.key, /^AGE-SECRET-KEY-1[0-9A-Z]+$/);
    assert.match(body.warning, /cannot be restored/);
    assert.ok(fs.readFileSync(path.join(t.dataDir, 'backup-key.txt'), 'utf8').includes(body.key));
    assert.equal(fs.statSync(path.join(t.dataDir, 'backup-key.txt')).mode & 0o777, 0o600);
    assert.equal(fs.readFileSync(path.join(root, 'age-recipient.txt'), 'utf8').trim(), body.public_key);

    const missing = missingTool('age', 'age');
    if (missing) return skipBecause(ctx, missing);
    const manifest = JSON.parse(ageDecrypt(kit, path.join(root, 'snapshots', run.snapshot_id, 'manifest.json')).toString()) as {
      format: string;
      files: ManifestFile[];
    };
    assert.equal(manifest.format, 'hearth-backup/2+age');
    assert.equal(manifest.files.length, run.files);
    for (const entry of manifest.files) {
      // Padded (docs/backup-format.md): the content is the first `size` bytes, as `head -c` cuts it by hand.
      const padded = ageDecrypt(kit, path.join(root, entry.path));
      assert.ok(padded.length >= entry.size, entry.path);
      const plain = padded.subarray(0, entry.size);
      assert.equal(sha256(plain), entry.sha256, entry.path);
      assert.equal(fs.statSync(path.join(root, entry.path)).size, (entry as { stored_size?: number }).stored_size, entry.path);
    }
    assert.ok(manifest.files.some((f) => f.sha256 === sha256(text)));
    assert.ok(manifest.files.some((f) => f.sha256 === sha256(photo)));
    // The database, decrypted by hand, is the server's: the file name is in it.
    const db = path.join(temps.at(-1)!, 'hearth.db');
    fs.writeFileSync(db, ageDecrypt(kit, path.join(root, 'snapshots', run.snapshot_id, 'hearth.db')));
    const conn = openConnection(db, { readonly: true, fileMustExist: true });
    try {
      assert.ok(conn.prepare('SELECT id FROM nodes WHERE name = ?').get(secretName));
    } finally {
      conn.close();
    }
  });

  test('runs stay incremental on an encrypted folder: a second run copies only the new photo (and the database, keys.json)', async () => {
    await uploadFile(t.api, owner.access, crypto.randomBytes(2_000_000), { filename: 'big-before.bin' });
    const added = await addFolderDestination(t.client, owner.access, folder(), { encrypt: true });
    const first = await backUp(t.client, owner.access, added.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));
    const fresh = crypto.randomBytes(100_000);
    await uploadFile(t.api, owner.access, fresh, { filename: 'new.bin' });
    const second = await backUp(t.client, owner.access, added.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    assert.equal(second.files, first.files + 1);
    assert.ok(second.bytes_copied >= fresh.length, 'the new photo was copied');
    assert.ok(second.bytes_copied < 1_000_000, `the 2 MB file already there was not copied again: ${second.bytes_copied} bytes`);
  });

  test('verify decrypts every file and checks its SHA-256: a changed byte and a cut file are named', async () => {
    const photo = crypto.randomBytes(400_000);
    await uploadFile(t.api, owner.access, photo, { filename: 'to-damage.bin' });
    const dest = folder();
    const added = await addFolderDestination(t.client, owner.access, dest, { encrypt: true });
    assert.equal((await backUp(t.client, owner.access, added.id)).state, 'succeeded');
    const good = await backUp(t.client, owner.access, added.id, 'verify');
    assert.equal(good.state, 'succeeded', JSON.stringify(good));
    assert.deepEqual(good.problems, []);

    // The two biggest content files: one gets a flipped byte, the other is cut short.
    const contentRoot = path.join(dest, 'hearth-backup');
    const content = filesUnder(contentRoot)
      .filter((p) => p.startsWith('content'))
      .map((p) => ({ p: p.split(path.sep).join('/'), size: fs.statSync(path.join(contentRoot, p)).size }))
      .sort((a, b) => b.size - a.size);
    const [flipped, cut] = content;
    const bytes = fs.readFileSync(path.join(contentRoot, flipped!.p));
    bytes[bytes.length - 5000] = bytes[bytes.length - 5000]! ^ 0x01;
    fs.writeFileSync(path.join(contentRoot, flipped!.p), bytes);
    fs.truncateSync(path.join(contentRoot, cut!.p), Math.floor(cut!.size / 2));

    const bad = await backUp(t.client, owner.access, added.id, 'verify');
    assert.equal(bad.state, 'failed');
    assert.match(bad.error, /2 files in the backup are damaged/);
    assert.deepEqual(bad.problems.map((p: { path: string }) => p.path).sort(), [flipped!.p, cut!.p].sort());
    for (const problem of bad.problems) assert.match(problem.reason, /damaged/);
  });

  test('a content file swapped for another made with only the public key opens with the kit, but the check names it and a restore refuses it', async (ctx) => {
    const missing = missingTool('age', 'age');
    if (missing) return skipBecause(ctx, missing);
    const photo = crypto.randomBytes(300_000);
    const photoId = await uploadFile(t.api, owner.access, photo, { filename: 'swapped.jpg' });
    const dest = folder();
    const added = await addFolderDestination(t.client, owner.access, dest, { encrypt: true });
    assert.equal((await backUp(t.client, owner.access, added.id)).state, 'succeeded');
    const root = path.join(dest, 'hearth-backup');
    const { kit, file: kitPath } = await kitFile();
    const [snapshot] = fs.readdirSync(path.join(root, 'snapshots'));
    const manifest = JSON.parse(ageDecrypt(kitPath, path.join(root, 'snapshots', snapshot!, 'manifest.json')).toString('utf8'));
    // Each file's age header MAC is recorded: the last line of its header, base64-decoded.
    for (const entry of manifest.files as { path: string; header_mac: string }[]) {
      const head = fs.readFileSync(path.join(root, entry.path)).subarray(0, 4096).toString('latin1');
      const macLine = head.split('\n').find((line) => line.startsWith('--- '))!;
      assert.equal(entry.header_mac, Buffer.from(macLine.slice(4), 'base64').toString('hex'), entry.path);
    }
    const target = (manifest.files as ManifestFile[]).find((f) => f.sha256 === sha256(photo))!;
    // Other bytes, padded as Hearth pads, encrypted to the public key beside the backup: the kit opens them.
    const other = crypto.randomBytes(photo.length);
    const planted = ageEncryptTo(kit.public_key, Buffer.concat([other, Buffer.alloc(paddedSize(photo.length) - photo.length)]));
    fs.writeFileSync(path.join(root, target.path), planted);
    assert.ok(ageDecrypt(kitPath, path.join(root, target.path)).subarray(0, photo.length).equals(other));

    const check = await backUp(t.client, owner.access, added.id, 'verify');
    assert.equal(check.state, 'failed', JSON.stringify(check));
    assert.deepEqual(
      check.problems.map((p: { path: string }) => p.path),
      [target.path],
    );
    // That photo alone, back beside itself: proved by the same header MAC, refused too, and nothing appears.
    const itemRun = await restoreBeside(t.client, owner.access, added.id, snapshot!, photoId);
    assert.equal(itemRun.state, 'failed', JSON.stringify(itemRun));
    assert.match(itemRun.error, /"swapped\.jpg" is damaged/);
    const named = (await t.client.get('/nodes?parent_id=root&limit=1000', { token: owner.access })).body.items.map(
      (n: { name: string }) => n.name,
    );
    assert.deepEqual(
      named.filter((name: string) => name.startsWith('swapped')),
      ['swapped.jpg'],
    );
    const fresh = await startTestServer();
    try {
      const restore = await fresh.client.post('/setup/restore', { kind: 'folder', path: dest, key: kit.file_text });
      assert.equal(restore.status, 202, JSON.stringify(restore.body));
      const ended = await endedRestore(fresh.client);
      assert.equal(ended.state, 'failed', JSON.stringify(ended));
      assert.match(ended.error, /damaged/i);
      assert.equal((await fresh.client.get('/status')).body.setup_required, true, 'the fresh install stays fresh');
    } finally {
      await fresh.close();
    }
  });

  test('retention works on an encrypted folder: a pruned snapshot and the content only it needed are gone', async () => {
    const dest = folder();
    const added = await addFolderDestination(t.client, owner.access, dest, { encrypt: true });
    await t.client.patch(
      `/admin/backup/destinations/${added.id}`,
      { retention: { last: 0, daily: 1, weekly: 0, monthly: 0 } },
      { token: owner.access },
    );
    const goneId = await uploadFile(t.api, owner.access, crypto.randomBytes(90_000), { filename: 'deleted-later.bin' });
    const first = await backUp(t.client, owner.access, added.id);
    assert.equal(first.state, 'succeeded');
    const before = new Set(filesUnder(path.join(dest, 'hearth-backup', 'content')));
    assert.equal((await t.client.delete(`/nodes/${goneId}`, { token: owner.access })).status, 200);
    await t.client.delete(`/nodes/${goneId}/permanent`, { token: owner.access });
    const second = await backUp(t.client, owner.access, added.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    const snapshots = (await t.client.get(`/admin/backup/destinations/${added.id}/snapshots`, { token: owner.access })).body.items;
    assert.deepEqual(
      snapshots.map((s: { id: string }) => s.id),
      [second.snapshot_id],
    );
    const afterPrune = new Set(filesUnder(path.join(dest, 'hearth-backup', 'content')));
    assert.equal(afterPrune.size, before.size - 1, "the deleted file's content went with the pruned snapshot");
    assert.equal((await backUp(t.client, owner.access, added.id, 'verify')).state, 'succeeded');
  });

  test('the kit is for admins only, and it is the same key every time', async () => {
    const member = await createMember(t.client, owner, 'kitless');
    assertError(await t.client.get('/admin/backup/kit', { token: member.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/backup/kit'), 401, 'unauthorized');
    const one = (await t.client.get('/admin/backup/kit', { token: owner.access })).body;
    const two = (await t.client.get('/admin/backup/kit', { token: owner.access })).body;
    assert.equal(one.key, two.key);
    assert.ok(one.file_text.includes(one.key));
    assert.match(one.file_text, /^# .*cannot be restored/m);
  });

  test('a folder holding a backup in the other format, or encrypted to another key, is refused', async () => {
    const plainThere = folder();
    const plain = await addFolderDestination(t.client, owner.access, plainThere);
    assert.equal((await backUp(t.client, owner.access, plain.id)).state, 'succeeded');
    assert.equal((await t.client.delete(`/admin/backup/destinations/${plain.id}`, { token: owner.access })).status, 204);
    const res = await t.client.post(
      '/admin/backup/destinations',
      { kind: 'folder', path: plainThere, encrypt: true },
      { token: owner.access },
    );
    assertError(res, 400, 'invalid_destination', 'path');
    assert.match(res.body.error.message, /not encrypted/);

    const other = folder();
    fs.mkdirSync(path.join(other, 'hearth-backup'));
    fs.writeFileSync(
      path.join(other, 'hearth-backup', 'age-recipient.txt'),
      'age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p\n',
    );
    const foreign = await t.client.post(
      '/admin/backup/destinations',
      { kind: 'folder', path: other, encrypt: true },
      { token: owner.access },
    );
    assertError(foreign, 400, 'invalid_destination', 'path');
    assert.match(foreign.body.error.message, /another key/);
    const asPlain = await t.client.post(
      '/admin/backup/destinations',
      { kind: 'folder', path: other, encrypt: false },
      { token: owner.access },
    );
    assertError(asPlain, 400, 'invalid_destination', 'path');
    assert.match(asPlain.body.error.message, /encrypted backup/);
  });
});
