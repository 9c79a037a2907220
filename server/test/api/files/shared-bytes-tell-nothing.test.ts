// Bytes stored once for several accounts tell no account what the others hold: a member's
// GET /libraries shows its own files and coarse free space, the same whether or not someone
// else has the bytes it sends; the upload's answer reads nothing of another account's files;
// and a video another account already has goes through "being prepared" like a new one.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { spaceStep } from '../../../src/services/storage/coarse-space.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

const fresh = () => createMember(t.client, owner, `holder${++accounts}`);

async function library(who: SignedIn): Promise<any> {
  const res = await t.client.get('/libraries', { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items[0];
}

function blobOf(nodeId: string): string {
  const db = openConnection(path.join(t.dataDir, 'hearth.db'), { fileMustExist: true, readonly: true });
  try {
    return (
      db
        .prepare('SELECT v.blob FROM node_versions v JOIN nodes n ON n.id = v.node_id AND n.version = v.version WHERE n.id = ?')
        .get(nodeId) as { blob: string }
    ).blob;
  } finally {
    db.close();
  }
}

function contentFile(blob: string): string {
  return path.join(t.dataDir, 'files', 'blobs', blob.slice(-2), blob);
}

describe('what a member sees of the library', () => {
  test("its own files' bytes, growing by what it sends whether or not someone else has the same, and free space in coarse steps", async () => {
    const mum = await fresh();
    const dad = await fresh();
    const shared = crypto.randomBytes(300_000);
    const only = crypto.randomBytes(300_000);
    const before = await library(dad);
    assert.equal(before.content_bytes, 0);
    assert.equal(before.path, undefined);
    assert.equal(before.free % spaceStep(before.total), 0, 'free space in whole steps');
    assert.equal(before.used, before.total - before.free);

    await uploadFile(t.api, mum.access, shared, { filename: 'a.jpg' });
    await t.server.contentIdle();
    assert.equal((await library(dad)).content_bytes, 0, "someone else's upload changes nothing of mine");

    await uploadFile(t.api, dad.access, shared, { filename: 'a.jpg' });
    await t.server.contentIdle();
    assert.equal((await library(dad)).content_bytes, shared.length, 'bytes someone else holds count in full');
    await uploadFile(t.api, dad.access, only, { filename: 'b.jpg' });
    assert.equal((await library(dad)).content_bytes, shared.length + only.length, 'as new bytes do');

    // The owner sees the library as it is: the shared bytes stored once.
    const full = await library(owner);
    assert.ok(typeof full.path === 'string');
    assert.equal(full.content_bytes, shared.length + only.length);
  });
});

describe("the upload's answer", () => {
  // Before the answer stopped reading it, this upload waited on the pipe for good: the bound makes that a failure.
  test(
    "reads nothing of another account's file with the same bytes: it answers while that file cannot be read",
    { timeout: 60_000 },
    async () => {
      const mum = await fresh();
      const dad = await fresh();
      const data = crypto.randomBytes(200_000);
      const hers = await uploadFile(t.api, mum.access, data, { filename: 'beach.jpg' });
      await t.server.contentIdle();
      // Her content file becomes a pipe no one writes to: whatever opens it waits.
      const file = contentFile(blobOf(hers));
      await fs.rename(file, `${file}.real`);
      execFileSync('mkfifo', [file]);
      try {
        const his = await uploadFile(t.api, dad.access, data, { filename: 'beach.jpg' });
        const res = await fetch(`${t.api}/nodes/${his}/download`, { headers: { authorization: `Bearer ${dad.access}` } });
        assert.deepEqual(Buffer.from(await res.arrayBuffer()), data);
        assert.notEqual(blobOf(his), blobOf(hers));
      } finally {
        // The merge after the answer reads other bytes now, and keeps the two files apart.
        const writer = await fs.open(file, 'w');
        await writer.write(crypto.randomBytes(data.length));
        await writer.close();
        await t.server.contentIdle();
        await fs.rename(`${file}.real`, file);
      }
    },
  );
});

describe('a video another account has', () => {
  test('is being prepared for the new uploader as a new video would be, then plays from its own copy', async () => {
    const mum = await fresh();
    const dad = await fresh();
    const video = await mediaFixture('iphone-hevc.mov');
    const hers = await uploadFile(t.api, mum.access, video, { filename: 'party.mov' });
    await t.server.playbackIdle();
    assert.equal((await t.client.get(`/nodes/${hers}/playback`, { token: mum.access })).body.copy.state, 'ready');

    const his = await uploadFile(t.api, dad.access, video, { filename: 'party.mov' });
    const first = (await t.client.get(`/nodes/${his}/playback`, { token: dad.access })).body.copy;
    assert.ok(['waiting', 'making'].includes(first.state), `at once: ${first.state}`);
    await t.server.playbackIdle();
    const later = (await t.client.get(`/nodes/${his}/playback`, { token: dad.access })).body.copy;
    assert.equal(later.state, 'ready');
    const copy = await fetch(`${t.api}/nodes/${his}/download?copy=playback`, { headers: { authorization: `Bearer ${dad.access}` } });
    assert.equal(copy.status, 200);
  });
});
