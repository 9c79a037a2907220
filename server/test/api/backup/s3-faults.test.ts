import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import { backUp, blobHolding, holdContentFile, startRun } from '../../helpers/backup.ts';
import { addS3Destination, startS3 } from '../../helpers/s3.ts';
import { ApiClient, makeTempDir } from '../../helpers/server.ts';
import { spawnServer } from '../../helpers/spawn.ts';
import { uploadFile } from '../../helpers/upload.ts';

const ROOT = 'hearth-backup/';

describe('off-site backup faults: a run cut mid-way leaves the bucket’s earlier snapshots whole', () => {
  const cleanup: string[] = [];
  after(() => {
    for (const folder of cleanup) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('kill -9 during a bucket backup: the earlier snapshot is untouched, the cut one never counts, the next run completes and verifies; the secret key is in no log', async () => {
    const s3 = await startS3();
    const dataDir = await makeTempDir();
    cleanup.push(dataDir);
    let server = await spawnServer(dataDir, { LOG_LEVEL: 'debug' });
    let logs = '';
    try {
      let client = new ApiClient(server.api);
      const owner = await setupOwner(client);
      await uploadFile(server.api, owner.access, crypto.randomBytes(120_000), { filename: 'old.bin' });
      const dest = await addS3Destination(client, owner.access, s3);
      const first = await backUp(client, owner.access, dest.id);
      assert.equal(first.state, 'succeeded', JSON.stringify(first));
      const before = await s3.objects(`${ROOT}snapshots/${first.snapshot_id}/`);

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
      logs += server.output();

      const cutKeys = (await s3.objects(`${ROOT}snapshots/`)).map((o) => o.key).filter((k) => !k.includes(first.snapshot_id));
      assert.ok(cutKeys.length > 0, 'the cut run had begun its snapshot (its database is up)');
      assert.ok(!cutKeys.some((k) => k.endsWith('manifest.json')), 'without a manifest: unfinished');

      server = await spawnServer(dataDir, { LOG_LEVEL: 'debug' });
      client = new ApiClient(server.api);
      const afterRestart = await client.get(`/admin/backup/runs/${cut.id}`, { token: owner.access });
      assert.equal(afterRestart.body.state, 'failed');
      assert.match(afterRestart.body.error, /server stopped before this run finished/);
      const still = await s3.objects(`${ROOT}snapshots/${first.snapshot_id}/`);
      assert.deepEqual(
        still.map((o) => [o.key, o.bytes.toString('base64')]),
        before.map((o) => [o.key, o.bytes.toString('base64')]),
        'the earlier snapshot is untouched, byte for byte',
      );
      const listed = await client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
      assert.deepEqual(
        listed.body.items.map((s: any) => s.id),
        [first.snapshot_id],
        'the cut run made no snapshot',
      );

      const next = await backUp(client, owner.access, dest.id);
      assert.equal(next.state, 'succeeded', JSON.stringify(next));
      const left = (await s3.objects(`${ROOT}snapshots/`)).map((o) => o.key);
      for (const key of cutKeys) assert.ok(!left.includes(key), `what the cut run left is cleared: ${key}`);
      const verify = await backUp(client, owner.access, dest.id, 'verify');
      assert.equal(verify.state, 'succeeded', JSON.stringify(verify));
      // Retention keeps the latest runs: both snapshots are read back, the content they share once (the first adds its database and keys.json).
      assert.equal(verify.files, next.files + 2, 'every file of the kept snapshots is read back');
    } finally {
      await server.stop();
      logs += server.output();
      await s3.stop();
    }
    assert.ok(logs.length > 0);
    assert.ok(!logs.includes(s3.secretAccessKey), 'the secret key is never logged');
  });
});
