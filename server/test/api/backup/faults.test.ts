import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import {
  addFolderDestination,
  backUp,
  blobHolding,
  destinationFolder,
  finishedRun,
  holdContentFile,
  readManifest,
  startRun,
} from '../../helpers/backup.ts';
import { ApiClient, makeTempDir, startTestServer } from '../../helpers/server.ts';
import { spawnServer } from '../../helpers/spawn.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('backup faults: a cut run leaves the earlier snapshots whole and the next run completes', () => {
  const cleanup: string[] = [];
  after(() => {
    for (const folder of cleanup) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('kill -9 during a backup: the run reads as failed after restart, the earlier snapshot is intact, the next run completes and verifies', async () => {
    const dataDir = await makeTempDir();
    const folder = destinationFolder();
    cleanup.push(dataDir, folder);
    let server = await spawnServer(dataDir);
    try {
      let client = new ApiClient(server.api);
      const owner = await setupOwner(client);
      await uploadFile(server.api, owner.access, crypto.randomBytes(120_000), { filename: 'old.bin' });
      const dest = await addFolderDestination(client, owner.access, folder);
      const first = await backUp(client, owner.access, dest.id);
      assert.equal(first.state, 'succeeded', JSON.stringify(first));
      const firstManifest = fs.readFileSync(path.join(folder, 'hearth-backup', 'snapshots', first.snapshot_id, 'manifest.json'));

      const fresh = crypto.randomBytes(400_000);
      await uploadFile(server.api, owner.access, fresh, { filename: 'new.bin' });
      const hold = holdContentFile(blobHolding(dataDir, fresh));
      let cut: any;
      try {
        cut = await startRun(client, owner.access, dest.id);
        await hold.reached;
        await server.kill9();
      } finally {
        hold.restore();
      }

      const snapshotsDir = path.join(folder, 'hearth-backup', 'snapshots');
      const unfinished = fs.readdirSync(snapshotsDir).filter((id) => id !== first.snapshot_id);
      assert.equal(unfinished.length, 1, 'the cut run had begun its snapshot');
      assert.ok(!fs.existsSync(path.join(snapshotsDir, unfinished[0]!, 'manifest.json')), 'without a manifest: unfinished');

      server = await spawnServer(dataDir);
      client = new ApiClient(server.api);
      const after = await client.get(`/admin/backup/runs/${cut.id}`, { token: owner.access });
      assert.equal(after.status, 200);
      assert.equal(after.body.state, 'failed');
      assert.match(after.body.error, /server stopped before this run finished/);
      assert.ok(
        fs.readFileSync(path.join(folder, 'hearth-backup', 'snapshots', first.snapshot_id, 'manifest.json')).equals(firstManifest),
        'the earlier snapshot is untouched',
      );
      const listed = await client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
      assert.deepEqual(
        listed.body.items.map((s: any) => s.id),
        [first.snapshot_id],
        'the cut run made no snapshot',
      );

      const next = await backUp(client, owner.access, dest.id);
      assert.equal(next.state, 'succeeded', JSON.stringify(next));
      assert.ok(
        readManifest(folder, next.snapshot_id).files.some((f) => f.sha256 === crypto.createHash('sha256').update(fresh).digest('hex')),
      );
      assert.deepEqual(fs.readdirSync(path.join(folder, 'hearth-backup', 'tmp')), [], 'what the cut run left is cleared');
      assert.ok(!fs.existsSync(path.join(snapshotsDir, unfinished[0]!)), 'its unfinished snapshot is cleared');
      const verify = await backUp(client, owner.access, dest.id, 'verify');
      assert.equal(verify.state, 'succeeded', JSON.stringify(verify));
    } finally {
      await server.stop();
    }
  });

  test('the destination folder disappears mid-run (a drive unplugged): the run fails in words, and once it is back the earlier snapshot is intact and the next run completes', async () => {
    const t = await startTestServer();
    const folder = destinationFolder();
    const away = `${folder}-unplugged`;
    cleanup.push(folder, away);
    try {
      const owner = await setupOwner(t.client);
      await uploadFile(t.api, owner.access, crypto.randomBytes(90_000), { filename: 'old.bin' });
      const dest = await addFolderDestination(t.client, owner.access, folder);
      const first = await backUp(t.client, owner.access, dest.id);
      assert.equal(first.state, 'succeeded');

      const fresh = crypto.randomBytes(300_000);
      await uploadFile(t.api, owner.access, fresh, { filename: 'new.bin' });
      const hold = holdContentFile(blobHolding(t.dataDir, fresh));
      let run: any;
      try {
        run = await startRun(t.client, owner.access, dest.id);
        await hold.reached;
        fs.renameSync(folder, away);
        await hold.release();
        run = await finishedRun(t.client, owner.access, run.id);
      } finally {
        hold.restore();
      }
      assert.equal(run.state, 'failed');
      assert.equal(run.error, `The backup folder ${folder} is not there. Is its drive connected?`);
      const shown = (await t.client.get('/admin/backup', { token: owner.access })).body.destinations[0];
      assert.equal(shown.last_run.id, run.id);
      assert.equal(shown.last_success_at, first.finished_at);

      // Still unplugged: a new run says so at once.
      const again = await backUp(t.client, owner.access, dest.id);
      assert.equal(again.state, 'failed');
      assert.match(again.error, /is not there/);
      assert.equal(fs.existsSync(folder), false, 'a missing destination is not made anew (the backup would land on the system disk)');
      // What an unplugged USB disk often leaves: its mount point, an empty folder on the system disk.
      fs.mkdirSync(folder);
      const onEmptyMountPoint = await backUp(t.client, owner.access, dest.id);
      assert.equal(onEmptyMountPoint.state, 'failed');
      assert.match(onEmptyMountPoint.error, /is not there\. Is its drive connected\?/);
      assert.deepEqual(fs.readdirSync(folder), [], 'nothing was written to the system disk');
      // Unplugged, the snapshots are said to be out of reach, not "none yet".
      const onMountPoint = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
      assert.deepEqual(onMountPoint.body, { items: [], reachable: false });
      fs.rmdirSync(folder);
      const unplugged = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
      assert.deepEqual(unplugged.body, { items: [], reachable: false });

      fs.renameSync(away, folder);
      const listed = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
      assert.equal(listed.body.reachable, true);
      assert.deepEqual(
        listed.body.items.map((s: any) => s.id),
        [first.snapshot_id],
      );
      assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded', 'the earlier snapshot is whole');
      const next = await backUp(t.client, owner.access, dest.id);
      assert.equal(next.state, 'succeeded', JSON.stringify(next));
      assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded');
    } finally {
      await t.close();
    }
  });
});
