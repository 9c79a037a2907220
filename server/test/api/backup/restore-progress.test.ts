/**
 * A fresh install's restore progress (GET /setup/restore) tells a caller who proved nothing only
 * that a restore runs and how far it got: never the backup folder's path, the snapshot or what
 * the disk answered. This PC (the door that needs no code) still hears everything, and the
 * screen that started the restore from a phone still sees its progress.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder, endedRestore } from '../../helpers/backup.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { addS3Destination, startS3, type TestS3 } from '../../helpers/s3.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/** The first content file of a backup folder. */
function firstContentFile(folder: string): string {
  const root = path.join(folder, 'hearth-backup', 'content', 'internal');
  const shard = fs.readdirSync(root)[0]!;
  return path.join(root, shard, fs.readdirSync(path.join(root, shard))[0]!);
}

describe('GET /setup/restore on a fresh install: progress for anyone, details for this PC only', () => {
  let source: TestServer;
  let owner: SignedIn;
  let backupFolder: string;
  let s3: TestS3;
  let kitText: string;
  const temps: string[] = [];
  const fresh: TestServer[] = [];

  before(async () => {
    source = await startTestServer();
    owner = await setupOwner(source.client);
    await uploadFile(source.api, owner.access, crypto.randomBytes(100_000), { filename: 'photo.jpg' });
    backupFolder = destinationFolder();
    temps.push(backupFolder);
    const destination = await addFolderDestination(source.client, owner.access, backupFolder);
    assert.equal((await backUp(source.client, owner.access, destination.id)).state, 'succeeded');
    // A bucket's reads can be held mid-restore (TestS3.holdContent); a folder's cannot.
    s3 = await startS3();
    const offsite = await addS3Destination(source.client, owner.access, s3, { prefix: 'home' });
    assert.equal((await backUp(source.client, owner.access, offsite.id)).state, 'succeeded');
    kitText = (await source.client.get('/admin/backup/kit', { token: owner.access })).body.file_text;
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await source.close();
    await s3.stop();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test("a failed restore: another machine reads that it failed, without the folder's path or the snapshot; this PC reads why", async () => {
    const cut = destinationFolder();
    temps.push(cut);
    fs.cpSync(backupFolder, cut, { recursive: true });
    fs.rmSync(firstContentFile(cut));
    const t = await startTestServer();
    fresh.push(t);
    // 127.0.0.2 stands for another device on the home network: only 127.0.0.1 and ::1 are this PC.
    const neighbour = new ClientFrom(t.api, '127.0.0.2');

    assert.equal((await t.client.post('/setup/restore', { kind: 'folder', path: cut, key: kitText })).status, 202);
    const here = await endedRestore(t.client);
    assert.equal(here.state, 'failed');
    assert.ok(here.error.includes(cut), `this PC is told what failed, where: ${here.error}`);
    assert.notEqual(here.snapshot_id, null);

    const seen = await neighbour.get('/setup/restore');
    assert.equal(seen.status, 200, JSON.stringify(seen.body));
    assert.equal(seen.body.state, 'failed');
    assert.match(seen.body.error, /Nothing was restored/);
    const told = JSON.stringify(seen.body);
    assert.ok(!told.includes(cut) && !told.includes('hearth-backup-dest'), `the folder is not named to another machine: ${told}`);
    assert.ok(!told.includes(t.dataDir), `nor the data folder: ${told}`);
    assert.equal(seen.body.snapshot_id, null, 'nor the snapshot');
    assert.deepEqual(seen.body.problems, []);
  });

  test('a restore under way: another machine (the phone that started it) sees its progress, then the restored server', async (ctx) => {
    const hold = await s3.holdContent();
    ctx.after(() => hold.release());
    const t = await startTestServer();
    fresh.push(t);
    const phone = new ClientFrom(t.api, '127.0.0.2');
    const code = t.server.setup!.code;

    const started = await phone.post('/setup/restore', s3.destination({ prefix: 'home', key: kitText, setup_code: code }));
    assert.equal(started.status, 202, JSON.stringify(started.body));
    await hold.reached;
    const running = await phone.get('/setup/restore');
    assert.equal(running.status, 200, JSON.stringify(running.body));
    assert.equal(running.body.state, 'running');
    assert.equal(running.body.kind, 'restore');
    assert.equal(typeof running.body.files, 'number');
    assert.equal(typeof running.body.bytes_copied, 'number');
    assert.equal((await phone.get('/status')).body.restoring, true);
    hold.release();
    for (;;) {
      const status = await phone.get('/status').catch(() => null);
      if (status?.status === 200 && status.body.setup_required === false) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal((await phone.get('/setup/restore')).status, 409, 'once restored, the run is no one\u2019s business');
  });
});
