/**
 * The folder an owner chooses is resolved once, when they add it: a link they chose on purpose
 * (a short path to their USB disk) is followed then, and the destination is the real folder from
 * then on. A folder that becomes a link later (a swapped disk's folder pointing at a home folder,
 * or at another destination's backup, whose snapshots this one's retention would prune) is never
 * backed up to.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder } from '../../helpers/backup.ts';
import { treeOf } from '../../helpers/file-tree.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('the backup folder itself: a link chosen when adding is resolved then; one that appears later is never followed', () => {
  let t: TestServer;
  let owner: SignedIn;
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(30_000), { filename: 'garden.jpg' });
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test('a folder given through a link is the real folder from the start: the page shows it, and runs write there', async () => {
    const real = destinationFolder();
    const shortcut = `${real}-shortcut`;
    temps.push(real, shortcut);
    fs.symlinkSync(real, shortcut);
    const dest = await addFolderDestination(t.client, owner.access, shortcut);
    assert.equal(dest.path, real);
    assert.equal((await backUp(t.client, owner.access, dest.id)).state, 'succeeded');
    assert.equal(fs.readdirSync(path.join(real, 'hearth-backup', 'snapshots')).length, 1);
  });

  test("a destination's folder that became a link to another backup since is not backed up to, and that backup is untouched", async () => {
    const other = destinationFolder();
    const mine = destinationFolder();
    temps.push(other, mine);
    const otherDest = await addFolderDestination(t.client, owner.access, other);
    assert.equal((await backUp(t.client, owner.access, otherDest.id)).state, 'succeeded');
    const myDest = await addFolderDestination(t.client, owner.access, mine);
    // Its retention would prune the other's snapshot if its run landed there.
    const patched = await t.client.patch(
      `/admin/backup/destinations/${myDest.id}`,
      { retention: { last: 0, daily: 1, weekly: 0, monthly: 0 } },
      { token: owner.access },
    );
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const before = treeOf(other);

    fs.rmSync(mine, { recursive: true });
    fs.symlinkSync(other, mine);
    const run = await backUp(t.client, owner.access, myDest.id);
    assert.equal(run.state, 'failed', JSON.stringify(run));
    assert.equal(run.error_code, 'destination_unsafe');
    assert.equal(
      run.error,
      `The backup folder ${mine} is now a link to ${other}. Hearth does not follow links on a backup drive, so it did not back up there. If you made the link on purpose, stop using this destination and add ${other} instead.`,
    );
    assert.deepEqual(treeOf(other), before);
  });
});
