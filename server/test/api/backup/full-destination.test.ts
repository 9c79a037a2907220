import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp } from '../../helpers/backup.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { mountTmpfs, tmpfsUnsupportedReason } from '../../helpers/small-disk.ts';
import { uploadFile } from '../../helpers/upload.ts';

test('a full backup drive fails the run in words, keeps the earlier snapshot whole and the server serving; once there is room the next run completes', async (ctx) => {
  const work = await makeTempDir('hearth-backup-full-');
  const why = tmpfsUnsupportedReason(work);
  if (why) {
    fs.rmSync(work, { recursive: true, force: true });
    return skipBecause(ctx, why);
  }
  const disk = mountTmpfs(path.join(work, 'usb'), 8);
  const t = await startTestServer();
  try {
    const owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(2 * 1024 * 1024), { filename: 'small.jpg' });
    const dest = await addFolderDestination(t.client, owner.access, disk.mountPoint);
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));

    await uploadFile(t.api, owner.access, crypto.randomBytes(10 * 1024 * 1024), { filename: 'film.mp4' });
    const cut = await backUp(t.client, owner.access, dest.id);
    assert.equal(cut.state, 'failed');
    assert.match(cut.error, /The backup drive is full\. Make room on it/);

    const snapshots = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
    assert.deepEqual(
      snapshots.body.items.map((s: { id: string }) => s.id),
      [first.snapshot_id],
      'the cut run made no snapshot',
    );
    assert.deepEqual(fs.readdirSync(path.join(disk.mountPoint, 'hearth-backup', 'tmp')), [], 'no part-written file left');
    const check = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(check.state, 'succeeded', `the earlier snapshot is whole: ${JSON.stringify(check.problems)}`);
    // The backup drive's being full is not the server's own disk being full.
    assert.equal((await t.client.get('/me', { token: owner.access })).status, 200);
    const health = await t.client.get('/healthz');
    assert.equal(health.status, 200, JSON.stringify(health.body));
    assert.doesNotMatch(JSON.stringify(health.body), /storage.full|"full"/);

    execFileSync('mount', ['-o', 'remount,size=32m', disk.mountPoint], { stdio: 'pipe' });
    const again = await backUp(t.client, owner.access, dest.id);
    assert.equal(again.state, 'succeeded', JSON.stringify(again));
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded');
  } finally {
    await t.close();
    disk.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
