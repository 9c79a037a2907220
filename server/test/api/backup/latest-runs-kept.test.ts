/**
 * "Back up now" after a mistake never deletes the morning's good copy: two runs on one day keep
 * both snapshots (a destination keeps its 5 latest besides the newest of each day, week and
 * month), and the morning's still restores what the later one no longer has.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder, finishedRun } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('two runs on one day keep both snapshots', () => {
  let t: TestServer;
  let owner: SignedIn;
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test('a photo deleted by mistake, then "Back up now": the morning\'s snapshot is still listed, whole, and gives the photo back', async () => {
    const photo = crypto.randomBytes(50_000);
    const photoId = await uploadFile(t.api, owner.access, photo, { filename: 'grandpa.jpg' });
    const folder = destinationFolder();
    temps.push(folder);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    assert.deepEqual(dest.retention, { last: 5, daily: 7, weekly: 4, monthly: 12 });
    const morning = await backUp(t.client, owner.access, dest.id);
    assert.equal(morning.state, 'succeeded', JSON.stringify(morning));

    assert.equal((await t.client.delete(`/nodes/${photoId}/permanent`, { token: owner.access })).status, 204);
    const afterMistake = await backUp(t.client, owner.access, dest.id);
    assert.equal(afterMistake.state, 'succeeded', JSON.stringify(afterMistake));

    const listed = (await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access })).body.items;
    assert.deepEqual(
      listed.map((s: any) => s.id),
      [afterMistake.snapshot_id, morning.snapshot_id],
    );
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded', 'both are whole');
    const restore = await t.client.post(
      `/admin/backup/destinations/${dest.id}/snapshots/${morning.snapshot_id}/restore`,
      { node_id: photoId, mode: 'replace' },
      { token: owner.access },
    );
    assert.equal(restore.status, 202, JSON.stringify(restore.body));
    const restored = await finishedRun(t.client, owner.access, restore.body.id);
    assert.equal(restored.state, 'succeeded', JSON.stringify(restored));
    const back = await fetch(`${t.api}/nodes/${restored.restored.node_id}/download`, {
      headers: { Authorization: `Bearer ${owner.access}` },
    });
    assert.ok(Buffer.from(await back.arrayBuffer()).equals(photo), 'the photo is back, byte for byte');
  });
});
