/**
 * A bucket's prefix may hold objects that are not Hearth's (a shared bucket, a person's notes,
 * another tool's files under the same prefix): a run, its clean-up of unfinished snapshots and
 * its pruning delete only keys shaped as Hearth makes them, and leave every other key as it was.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { backUp } from '../../helpers/backup.ts';
import { addS3Destination, startS3, type TestS3 } from '../../helpers/s3.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe("off-site clean-ups delete only Hearth's keys under the prefix", () => {
  let s3: TestS3;
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    s3 = await startS3();
    t = await startTestServer();
    owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(40_000), { filename: 'first.jpg' });
  });
  after(async () => {
    await t.close();
    await s3.stop();
  });

  test("keys that do not look like Hearth's survive a run, its clean-up and its pruning; Hearth's own garbage goes", async () => {
    const dest = await addS3Destination(t.client, owner.access, s3, { prefix: 'shared' });
    const pruneAll = { retention: { last: 0, daily: 1, weekly: 0, monthly: 0 } };
    assert.equal((await t.client.patch(`/admin/backup/destinations/${dest.id}`, pruneAll, { token: owner.access })).status, 200);
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));

    const root = 'shared/hearth-backup/';
    const theirs = [
      `${root}content/notes.txt`,
      `${root}content/internal/zz/photo.jpg`,
      `${root}content/Family Photos/IMG 0001.jpg`,
      `${root}snapshots/My old backup/photo.jpg`,
      `${root}snapshots/${first.snapshot_id}/Notes.TXT`,
      `${root}readme.md`,
      'shared/another-tool/data.bin',
    ];
    for (const key of theirs) await s3.put(key, Buffer.from(`someone else's ${key}`));
    // Hearth's own garbage: content no snapshot lists.
    const orphan = `${root}content/internal/zz/01JD5ZZZZZZZZZZZZZZZZZZZZZ`;
    await s3.put(orphan, Buffer.from('content no snapshot lists'));

    await uploadFile(t.api, owner.access, crypto.randomBytes(20_000), { filename: 'second.jpg' });
    const second = await backUp(t.client, owner.access, dest.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    const keys = new Map((await s3.objects('shared/')).map((o) => [o.key, o.bytes.toString('utf8')]));
    for (const key of theirs) assert.equal(keys.get(key), `someone else's ${key}`, `${key} is still there, as it was`);
    assert.ok(!keys.has(orphan), 'content no kept snapshot lists is pruned');
    assert.ok(!keys.has(`${root}snapshots/${first.snapshot_id}/manifest.json`), 'the first snapshot is pruned');
    assert.ok(!keys.has(`${root}snapshots/${first.snapshot_id}/hearth.db`), '…its own files with it');
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded');
  });
});
