/**
 * Reading a backup never follows a link in its folder either: restoring a whole server from the
 * first screen, browsing a snapshot and restoring one item refuse a link where Hearth's file or
 * folder should be, even when what it points at holds the very bytes the snapshot lists (a copy
 * placed elsewhere, by someone who wants Hearth to read there), and say so with destination_unsafe.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import {
  addFolderDestination,
  backUp,
  destinationFolder,
  emergencyKit,
  endedRestore,
  readManifest,
  restoreBeside,
} from '../../helpers/backup.ts';
import { homeFolder } from '../../helpers/file-tree.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('restore, browse and restore-one-item read nothing through a link in the backup folder', () => {
  let t: TestServer;
  let owner: SignedIn;
  let photoId: string;
  const temps: string[] = [];
  const fresh: TestServer[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    photoId = await uploadFile(t.api, owner.access, crypto.randomBytes(60_000), { filename: 'wedding.jpg' });
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /** A fresh backup, and its snapshot's `relative` (a file or folder) moved to a home folder with a link left in its place. */
  async function backupWithLinked(relative: (snapshot: string, contentFile: string) => string) {
    const folder = destinationFolder();
    const home = homeFolder();
    temps.push(folder, home);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const run = await backUp(t.client, owner.access, dest.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    const contentFile = readManifest(folder, run.snapshot_id).files.find((f) => f.path.startsWith('content/'))!.path;
    const inBackup = path.join(folder, 'hearth-backup', relative(run.snapshot_id, contentFile));
    const moved = path.join(home, 'moved-here');
    fs.renameSync(inBackup, moved);
    fs.symlinkSync(moved, inBackup);
    return { folder, dest, snapshot: run.snapshot_id as string };
  }

  test("the first screen's restore: a snapshot folder that is a link is refused at once; a content folder that is a link fails the restore, and nothing is restored", async () => {
    const linkedSnapshot = await backupWithLinked((snapshot) => `snapshots/${snapshot}`);
    const server = await startTestServer();
    fresh.push(server);
    const listed = await server.client.post('/setup/restore/snapshots', { kind: 'folder', path: linkedSnapshot.folder });
    assertError(listed, 409, 'destination_unsafe', 'path');
    assert.match(listed.body.error.message, new RegExp(`hearth-backup/snapshots/${linkedSnapshot.snapshot} is a link to another place`));

    const linkedShard = await backupWithLinked((_snapshot, contentFile) => path.dirname(contentFile));
    const key = (await emergencyKit(t.client, owner.access)).text;
    assert.equal((await server.client.post('/setup/restore', { kind: 'folder', path: linkedShard.folder, key })).status, 202);
    const ended = await endedRestore(server.client);
    assert.equal(ended.state, 'failed', JSON.stringify(ended));
    assert.equal(ended.error_code, 'destination_unsafe');
    assert.match(ended.error, /is a link to another place.*Nothing was restored\.$/);
    assert.equal((await server.client.get('/status')).body.setup_required, true, 'still a fresh install');
  });

  test('browsing a snapshot whose database is a link is refused, in words', async () => {
    const { dest, snapshot } = await backupWithLinked((id) => `snapshots/${id}/hearth.db`);
    const people = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots/${snapshot}/people`, { token: owner.access });
    assertError(people, 409, 'destination_unsafe');
    assert.match(people.body.error.message, new RegExp(`hearth-backup/snapshots/${snapshot}/hearth.db is a link to another place`));
  });

  test('restoring one file whose content file is a link fails the run in words, and nothing is restored', async () => {
    const { dest, snapshot } = await backupWithLinked((_snapshot, contentFile) => contentFile);
    const before = (await t.client.get('/nodes?parent_id=root&limit=1000', { token: owner.access })).body.items.length;
    const run = await restoreBeside(t.client, owner.access, dest.id, snapshot, photoId);
    assert.equal(run.state, 'failed', JSON.stringify(run));
    assert.equal(run.error_code, 'destination_unsafe');
    assert.match(run.error, /is a link to another place/);
    const after = (await t.client.get('/nodes?parent_id=root&limit=1000', { token: owner.access })).body.items.length;
    assert.equal(after, before, 'no copy appeared');
  });
});
