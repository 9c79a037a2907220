/**
 * Playback copies never take the room new photos need: while the disk of the videos has less
 * free than the copy and the room kept for photos, the queue waits (the video says its copy is
 * waiting, the owner sees why), and it makes the copy by itself once space is freed.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { freeBytes, mountTmpfs, tmpfsUnsupportedReason, type SmallDisk } from '../../helpers/small-disk.ts';
import { uploadFile } from '../../helpers/upload.ts';

const MiB = 1024 * 1024;
/** The room kept for photos on this small disk (1 GiB on a real one). */
const KEEP_FREE = 12 * MiB;

let work: string;
let why: string | null;
let disk: SmallDisk | null = null;
let t: TestServer | null = null;
let owner: SignedIn;

before(async () => {
  work = await makeTempDir('hearth-playback-disk-');
  why = tmpfsUnsupportedReason(work);
  if (why) return;
  disk = mountTmpfs(path.join(work, 'disk'), 48);
  t = await startTestServer({ dataDir: path.join(disk.mountPoint, 'data'), playbackKeepFreeBytes: KEEP_FREE, storageRecheckMs: 200 });
  owner = await setupOwner(t.client);
});
after(async () => {
  await t?.server.close();
  disk?.destroy();
  fs.rmSync(work, { recursive: true, force: true });
});

test('on a nearly full disk the copy waits, saying why, and is made by itself once space is freed', async (ctx) => {
  if (why || !t || !disk) return skipBecause(ctx, why ?? 'no disk');
  // Room for the upload, its poster and the database, not for the room kept for photos too.
  const filler = path.join(disk.mountPoint, 'filler');
  fs.writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes(disk.mountPoint) - KEEP_FREE + 2 * MiB), 0x5a));
  assert.ok(freeBytes(disk.mountPoint) < KEEP_FREE);

  const id = await uploadFile(t.api, owner.access, await mediaFixture('iphone-hevc-sound.mov'), { filename: 'IMG_0200.MOV' });
  await t.server.mediaIdle();
  await t.server.playbackIdle();
  const waiting = await t.client.get(`/nodes/${id}/playback`, { token: owner.access });
  assert.equal(waiting.body.copy.state, 'waiting');
  const queue = await t.client.get('/admin/playback-copies', { token: owner.access });
  assert.equal(queue.body.paused, 'disk_space');
  assert.equal(queue.body.waiting, 1);
  assert.equal(queue.body.making, null);
  // The upload itself was never held up: the video and its poster are there.
  assert.equal((await t.client.get(`/nodes/${id}`, { token: owner.access })).body.has_thumbnail, true);

  fs.rmSync(filler);
  const deadline = Date.now() + 30_000;
  for (;;) {
    const info = await t.client.get(`/nodes/${id}/playback`, { token: owner.access });
    if (info.body.copy.state === 'ready') break;
    assert.ok(Date.now() < deadline, `no copy after space was freed: ${JSON.stringify(info.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const after = await t.client.get('/admin/playback-copies', { token: owner.access });
  assert.equal(after.body.paused, null);
  assert.equal(after.body.ready, 1);
});
