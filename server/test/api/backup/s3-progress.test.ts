import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import {
  addFolderDestination,
  backUp,
  blobHolding,
  destinationFolder,
  finishedRun,
  holdContentFile,
  startRun,
} from '../../helpers/backup.ts';
import { addS3Destination, startS3, type TestS3 } from '../../helpers/s3.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/** What must hold of a run's progress at any moment: it never says more is done than there is to do. */
function assertHonest(run: any, where: string): void {
  const at = `${where}: ${JSON.stringify({ ...run, problems: run.problems.length })}`;
  assert.ok(run.seconds_left === null || (Number.isInteger(run.seconds_left) && run.seconds_left >= 0), at);
  for (const total of ['files_total', 'bytes_total', 'bytes_to_copy'])
    assert.ok(run[total] === null || (Number.isInteger(run[total]) && run[total] >= 0), `${total} ${at}`);
  if (run.files_total !== null) assert.ok(run.files <= run.files_total, `files ${at}`);
  if (run.bytes_total !== null) assert.ok(run.bytes <= run.bytes_total, `bytes ${at}`);
  if (run.bytes_to_copy !== null) {
    assert.ok(run.bytes_copied <= run.bytes_to_copy, `bytes_copied ${at}`);
    assert.ok(run.bytes_to_copy <= run.bytes_total, `bytes_to_copy ${at}`);
  }
  if (run.state !== 'running') assert.equal(run.seconds_left, null, `ended ${at}`);
  if (run.state === 'succeeded') {
    assert.equal(run.files, run.files_total, `succeeded ${at}`);
    assert.equal(run.bytes, run.bytes_total, `succeeded ${at}`);
    assert.equal(run.bytes_copied, run.bytes_to_copy, `succeeded ${at}`);
  }
}

/** The difference between two counts of the bucket's requests. */
function since(before: Record<string, number>, now: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [what, n] of Object.entries(now)) if (n - (before[what] ?? 0) > 0) out[what] = n - (before[what] ?? 0);
  return out;
}

describe('a backup knows its totals before it copies, and a bucket is asked what it holds in one listing', () => {
  let t: TestServer;
  let s3: TestS3;
  let owner: SignedIn;
  const folders: string[] = [];
  const upload = async (size: number, name: string) => {
    const data = crypto.randomBytes(size);
    await uploadFile(t.api, owner.access, data, { filename: name });
    return data;
  };

  before(async () => {
    s3 = await startS3();
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    await s3.stop();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('mid-run the totals are known and hold; the next run skips what the bucket holds without a request per file, and copies only the new', async () => {
    const first: Buffer[] = [];
    for (let i = 0; i < 24; i++) first.push(await upload(1_000 + i * 3_000, `photo-${i}.jpg`));
    const contentBytes = first.reduce((sum, data) => sum + data.length, 0);
    const dest = await addS3Destination(t.client, owner.access, s3, { name: 'Off-site' });

    // The photos' media jobs read their files too: done first, so that the run alone reads the pipe.
    await t.server.mediaIdle();
    // The last file waits at its read: the run is mid-way, at a known point.
    const held = holdContentFile(blobHolding(t.dataDir, first.at(-1)!));
    try {
      const started = await startRun(t.client, owner.access, dest.id);
      assertHonest(started, 'as started');
      await held.reached;
      const mid = (await t.client.get(`/admin/backup/runs/${started.id}`, { token: owner.access })).body;
      assertHonest(mid, 'mid-run');
      assert.equal(mid.state, 'running');
      // The database copy, keys.json and every content file.
      assert.equal(mid.files_total, 2 + first.length, 'the snapshot is counted before it is copied');
      assert.ok(mid.bytes_total >= contentBytes, 'its bytes with the content');
      assert.equal(mid.bytes_to_copy, mid.bytes_total, 'a first run copies all of it');
      assert.ok(mid.files < mid.files_total, 'and it is not done');
      const overview = (await t.client.get('/admin/backup', { token: owner.access })).body;
      assert.equal(overview.running.id, started.id);
      assertHonest(overview.running, 'in the overview');
      await held.release();
      const done = await finishedRun(t.client, owner.access, started.id);
      assert.equal(done.state, 'succeeded', JSON.stringify(done));
      assertHonest(done, 'at its end');
      assert.equal(done.files, 2 + first.length);
    } finally {
      held.restore();
    }

    const fresh = [await upload(5_000, 'new-1.jpg'), await upload(7_000, 'new-2.jpg'), await upload(11_000, 'new-3.jpg')];
    const before = await s3.requests();
    const nightly = await backUp(t.client, owner.access, dest.id);
    const asked = since(before, await s3.requests());
    assert.equal(nightly.state, 'succeeded', JSON.stringify(nightly));
    assertHonest(nightly, 'the nightly run');
    assert.equal(nightly.files_total, 2 + first.length + fresh.length);
    assert.equal(asked['HEAD content'] ?? 0, 0, `no request per content file to learn what is there: ${JSON.stringify(asked)}`);
    assert.equal(asked['GET content'] ?? 0, 0, `nothing held already is read back: ${JSON.stringify(asked)}`);
    assert.equal(asked['PUT content'], fresh.length, `only the new files go up: ${JSON.stringify(asked)}`);
    assert.ok((asked['GET list'] ?? 0) >= 1, `what is there comes from a listing: ${JSON.stringify(asked)}`);
    const freshBytes = fresh.reduce((sum, data) => sum + data.length, 0);
    const database = nightly.bytes_to_copy - freshBytes;
    // To copy: the database copy, keys.json and the new files, nothing else.
    assert.ok(database > 0 && database < 2_000_000, `bytes to copy ${nightly.bytes_to_copy} vs new ${freshBytes}`);
  });

  test('a folder destination says its totals too, and the nightly run counts only the new bytes to copy', async () => {
    const folder = destinationFolder();
    folders.push(folder);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const firstRun = await backUp(t.client, owner.access, dest.id);
    assert.equal(firstRun.state, 'succeeded', JSON.stringify(firstRun));
    assertHonest(firstRun, 'first folder run');
    const fresh = await upload(33_000, 'one-more.jpg');
    const nightly = await backUp(t.client, owner.access, dest.id);
    assertHonest(nightly, 'nightly folder run');
    assert.equal(nightly.files_total, firstRun.files_total + 1);
    assert.ok(nightly.bytes_to_copy - fresh.length < 2_000_000, 'the new file and the database, not the rest');
    assert.ok(nightly.bytes_to_copy < firstRun.bytes_to_copy);
  });
});
