// A backup under way keeps every content file its copy of the database names: files with the
// same bytes are merged (one of them taken away) only once no run is reading them, so a
// snapshot never lists a video that the backup could no longer find.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addFolderDestination, destinationFolder, finishedRun, holdContentFile, readManifest, startRun } from '../../helpers/backup.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
const folder = destinationFolder();

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(async () => {
  await t.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

/** Content files on disk holding exactly these bytes. */
function filesHolding(data: Buffer): string[] {
  const base = path.join(t.dataDir, 'files', 'blobs');
  return fs
    .readdirSync(base, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((file) => fs.statSync(file).size === data.length && fs.readFileSync(file).equals(data));
}

test('the same video uploaded by two accounts and merged while a backup runs: the backup copies both files its snapshot names', async () => {
  const video = await mediaFixture('clip.mp4');
  const sha256 = crypto.createHash('sha256').update(video).digest('hex');
  const mum = await createMember(t.client, owner, 'mum');
  const dad = await createMember(t.client, owner, 'dad');
  await uploadFile(t.api, mum.access, video, { filename: 'party.mp4' });
  await t.server.playbackIdle();
  // Dad's file is kept apart until its own playback copy is settled (content-merge.ts).
  await uploadFile(t.api, dad.access, video, { filename: 'party.mp4' });
  assert.equal(filesHolding(video).length, 2);

  const dest = await addFolderDestination(t.client, owner.access, folder);
  // The run copies the database first, then keys.json, then the content files: held at
  // keys.json, its copy of the database names both files and it has read neither.
  const held = holdContentFile(path.join(t.dataDir, 'keys.json'));
  try {
    const run = await startRun(t.client, owner.access, dest.id);
    await held.reached;
    // Meanwhile Dad's copy is settled, and files with the same bytes are merged where they may be.
    await t.server.playbackIdle();
    await t.server.contentIdle();
    await held.release();
    const done = await finishedRun(t.client, owner.access, run.id);
    assert.equal(done.state, 'succeeded', JSON.stringify(done));
    assert.deepEqual(done.problems, []);
    const copies = readManifest(folder, done.snapshot_id).files.filter((f) => f.sha256 === sha256);
    assert.equal(copies.length, 2, 'both content files the snapshot names are in it');
  } finally {
    held.restore();
  }

  // Once no run reads them, the two files become one.
  await t.server.contentIdle();
  assert.equal(filesHolding(video).length, 1);
});
