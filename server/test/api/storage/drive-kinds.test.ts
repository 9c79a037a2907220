import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { createLoopDrive, loopUnsupportedReason, type LoopDrive } from '../../helpers/loop.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 19, finding 16: the console spoke Linux ("/dev/vda", "File system: None found"). It
 * now names a drive in a parent's words ("The computer's own disk", "USB drive, 64 GB,
 * SanDisk"), for which the drive list says what kind of device it is, who made it and how it
 * is connected, besides the device path it keeps for the details.
 */

describe('drives say what they are: disk, partition or image, maker and connection (issue 19, finding 16)', () => {
  let work: string;
  let skipReason: string | null = null;
  let drive: LoopDrive | undefined;
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-drive-kinds-')));
    skipReason = loopUnsupportedReason(work);
    if (skipReason) return;
    drive = createLoopDrive(work, 'kinds', path.join(work, 'media', 'kinds'), 16);
    t = await startTestServer({ includeLoopDevices: true, mountsRoots: [path.join(work, 'media')] });
    owner = await setupOwner(t.client);
  });

  after(async () => {
    await t?.close();
    drive?.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('a disk image is kind "image" with no maker or connection; every drive carries the three fields', async (ctx) => {
    if (skipReason) return skipBecause(ctx, skipReason);
    const body = (await t.client.get('/admin/drives', { token: owner.access })).body;
    const item = body.items.find((i: { device: string }) => i.device === drive!.device);
    assert.ok(item, JSON.stringify(body.items.map((i: { device: string }) => i.device)));
    assert.equal(item.kind, 'image');
    assert.equal(item.transport, null);
    for (const i of body.items) {
      assert.ok(['disk', 'partition', 'image'].includes(i.kind), JSON.stringify(i));
      assert.ok(i.vendor === null || typeof i.vendor === 'string');
      assert.ok(i.transport === null || typeof i.transport === 'string');
    }
  });

  test('the drive that holds "/" is a disk or a partition of one, marked system', async (ctx) => {
    if (skipReason) return skipBecause(ctx, skipReason);
    const body = (await t.client.get('/admin/drives', { token: owner.access })).body;
    const system = body.items.filter((i: { mountpoints: string[] }) => i.mountpoints.includes('/'));
    // A container's / is no block device: nothing to say about it then (as drives.test.ts does).
    if (system.length === 0) return console.log('# the disk holding / is not listed here');
    for (const i of system) {
      assert.ok(i.kind === 'disk' || i.kind === 'partition', JSON.stringify(i));
      assert.equal(i.system, true);
    }
  });
});
