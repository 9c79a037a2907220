/**
 * The erase dialog's "what is on it": GET /admin/drives/{id} reads a drive's contents with a
 * read-only look, on loop-device images this file makes itself (never a real disk).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import {
  createBlankLoopDevice,
  createLoopDrive,
  loopUnsupportedReason,
  mountPoints,
  type BlankLoopDevice,
  type LoopDrive,
} from '../../helpers/loop.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

function sha256(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A family's drive: two folders of photos and documents, a loose file, and one nested deeper. */
function fillDrive(root: string): void {
  fs.mkdirSync(path.join(root, 'Photos/2023/Summer'), { recursive: true });
  fs.mkdirSync(path.join(root, 'Documents'));
  for (const name of ['a.jpg', 'b.JPEG', 'c.heic']) fs.writeFileSync(path.join(root, 'Photos', name), 'x');
  fs.writeFileSync(path.join(root, 'Photos/2023/Summer/beach.mov'), 'x');
  fs.writeFileSync(path.join(root, 'Documents/taxes.pdf'), 'x');
  fs.writeFileSync(path.join(root, 'Documents/letter.txt'), 'x');
  fs.writeFileSync(path.join(root, 'notes.txt'), 'x');
  fs.symlinkSync('/etc', path.join(root, 'Documents/elsewhere'));
}

const EXPECTED_TOP = [
  { name: 'Documents', kind: 'folder' },
  { name: 'Photos', kind: 'folder' },
  { name: 'notes.txt', kind: 'file' },
];

describe('drive contents (loop-device images made by the test)', () => {
  let work: string;
  let skipReason: string | null = null;
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;
  const made: Array<LoopDrive | BlankLoopDevice> = [];

  before(async () => {
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-contents-')));
    skipReason = loopUnsupportedReason(work);
    if (skipReason) {
      console.log(`# drive contents tests skipped: ${skipReason} (run as root on Linux)`);
      if (process.env.CI === 'true') throw new Error(`CI must run the drive contents tests: ${skipReason}`);
      return;
    }
    t = await startTestServer({ includeLoopDevices: true, mountsRoots: [path.join(work, 'media')] });
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'bob');
  });

  after(async () => {
    for (const drive of made) drive.destroy();
    await t?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const idOf = (device: string) => path.basename(device);

  test('a mounted drive shows its used space, its top-level folders and files, and counts of files and photos', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const drive = createLoopDrive(work, 'mounted', path.join(work, 'mnt-a'), 32);
    made.push(drive);
    fillDrive(drive.mountPoint);
    const res = await t.client.request('GET', `/admin/drives/${idOf(drive.device)}`, { token: owner.access });
    assert.equal(res.status, 200);
    assert.equal(res.body.device, drive.device);
    assert.equal(res.body.filesystem, 'ext4');
    // lost+found is the file system's own, not the family's: it is left out.
    assert.deepEqual(res.body.contents.top_level, EXPECTED_TOP);
    assert.equal(res.body.contents.files, 7, 'symlinks are not followed and not counted as files');
    assert.equal(res.body.contents.photos, 4);
    assert.equal(res.body.contents.complete, true);
    const stats = fs.statfsSync(drive.mountPoint);
    assert.equal(res.body.contents.used, (stats.blocks - stats.bfree) * stats.bsize);
  });

  test('an unmounted drive is looked at through a read-only mount that is gone afterwards, and not one byte of the drive changes', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const drive = createLoopDrive(work, 'unmounted', path.join(work, 'mnt-b'), 32);
    made.push(drive);
    fillDrive(drive.mountPoint);
    drive.unmount();
    const before = sha256(drive.image);

    const res = await t.client.request('GET', `/admin/drives/${idOf(drive.device)}`, { token: owner.access });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.contents.top_level, EXPECTED_TOP);
    assert.equal(res.body.contents.files, 7);
    assert.equal(res.body.contents.photos, 4);
    assert.deepEqual(res.body.mountpoints, [], 'the drive is reported as it was: not mounted');

    assert.equal(sha256(drive.image), before, 'the image is byte for byte what it was (no journal replay, no mount time written)');
    // Other test files mount their own loop drives meanwhile: only this drive's mounts count.
    const sources = fs
      .readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' - ')[1]?.split(' ')[1]);
    assert.ok(!sources.includes(drive.device), 'the look unmounted what it mounted');
    assert.ok(!mountPoints().some((m) => m.includes('hearth-look-')), 'no look mount is left behind');
    assert.ok(!fs.readdirSync(os.tmpdir()).some((n) => n.startsWith('hearth-look-')), 'no look folder is left behind');
  });

  test('a drive with no file system answers contents null (could not look), never an empty drive', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const blank = createBlankLoopDevice(work, 'blank', 8);
    made.push(blank);
    const res = await t.client.request('GET', `/admin/drives/${idOf(blank.device)}`, { token: owner.access });
    assert.equal(res.status, 200);
    assert.equal(res.body.filesystem, null);
    assert.equal(res.body.contents, null);
  });

  test('only an admin may look: no token 401, a member 403, an unknown drive 404', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const drive = made.find((d): d is LoopDrive => 'mountPoint' in d)!;
    assertError(await t.client.request('GET', `/admin/drives/${idOf(drive.device)}`), 401, 'unauthorized');
    assertError(await t.client.request('GET', `/admin/drives/${idOf(drive.device)}`, { token: member.access }), 403, 'forbidden');
    assertError(await t.client.request('GET', '/admin/drives/sdzz9', { token: owner.access }), 404, 'not_found');
  });
});
