import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import crypto from 'node:crypto';
import { openConnection } from '../../../src/store/database/db.ts';
import { setupOwner } from '../../helpers/accounts.ts';
import { addFolderDestination, destinationFolder, finishedRun } from '../../helpers/backup.ts';
import { ApiClient, makeTempDir, startTestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

test('the nightly backup runs by itself: a night missed while the PC was off is backed up as soon as the server is back, and the next run is the next night', async () => {
  const dataDir = await makeTempDir();
  const folder = destinationFolder();
  const manualFolder = destinationFolder();
  try {
    let t = await startTestServer({ dataDir });
    const owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(10_000), { filename: 'night.bin' });
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const manual = await t.client.post('/admin/backup/destinations', { kind: 'folder', path: manualFolder }, { token: owner.access });
    await t.client.patch(`/admin/backup/destinations/${manual.body.id}`, { schedule: null }, { token: owner.access });
    await t.server.close();

    // The PC was off at 03:00 last night: the destination's time has passed.
    const db = openConnection(path.join(dataDir, 'hearth.db'));
    db.prepare('UPDATE backup_destinations SET next_run_at = ? WHERE id = ?').run(Date.now() - 3_600_000, dest.id);
    db.close();

    t = await startTestServer({ dataDir });
    try {
      const client = new ApiClient(t.api);
      let shown: any;
      for (;;) {
        shown = (await client.get('/admin/backup', { token: owner.access })).body.destinations.find((d: any) => d.id === dest.id);
        if (shown.last_run) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const run = await finishedRun(client, owner.access, shown.last_run.id);
      assert.equal(run.state, 'succeeded', JSON.stringify(run));
      shown = (await client.get('/admin/backup', { token: owner.access })).body.destinations.find((d: any) => d.id === dest.id);
      const next = new Date(shown.next_run_at);
      assert.ok(shown.next_run_at > Date.now(), 'the next run is ahead');
      assert.equal(`${next.getHours()}:${next.getMinutes()}`, '3:0', 'at 03:00');
      assert.ok(shown.next_run_at - Date.now() <= 24 * 3_600_000 + 3_600_000, 'the next night');
      const untouched = (await client.get('/admin/backup', { token: owner.access })).body.destinations.find(
        (d: any) => d.id === manual.body.id,
      );
      assert.equal(untouched.last_run, null, 'a destination without a schedule runs only when asked');
      assert.equal(untouched.next_run_at, null);
    } finally {
      await t.close();
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(manualFolder, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
