import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { createLoopDrive, loopUnsupportedReason, setLabel, type LoopDrive } from '../../helpers/loop.ts';
import { pathWithout } from '../../helpers/path-without.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 19, item 21: on a PC without mkfs.exfat, erasing a drive as exFAT answered 500
 * internal, and the console offered exFAT all the same. Here the server runs with a PATH that
 * has every program of this machine except mkfs.exfat (a folder of links to them): the drive
 * list says exFAT cannot be made and why, and an erase to exFAT is refused with that reason
 * before anything touches the drive, while ext4 still works.
 *
 * SAFETY: a format with a correct confirmation phrase is only sent for a loop device this
 * file made (formatOwn).
 */

function blkid(device: string): Record<string, string> {
  try {
    const out = execFileSync('blkid', ['-p', '-o', 'export', '--', device], { encoding: 'utf8' });
    return Object.fromEntries(
      out
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
  } catch {
    return {};
  }
}

describe('a PC without mkfs.exfat (a PATH without it, loop-device images made by the test)', () => {
  let work: string;
  let skipReason: string | null = null;
  let savedPath: string | undefined;
  const drives: LoopDrive[] = [];
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-noexfat-')));
    skipReason = loopUnsupportedReason(work);
    if (skipReason) return;
    savedPath = process.env.PATH;
    process.env.PATH = pathWithout(path.join(work, 'bin'), ['mkfs.exfat']);
    fs.mkdirSync(path.join(work, 'media'));
    t = await startTestServer({ includeLoopDevices: true, mountsRoots: [path.join(work, 'media')] });
    owner = await setupOwner(t.client);
  });

  after(async () => {
    if (savedPath !== undefined) process.env.PATH = savedPath;
    await t?.close().catch(() => {});
    for (const d of drives) d.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  });

  function drive(name: string, label: string): LoopDrive {
    const d = createLoopDrive(work, name, path.join(work, 'media', name), 32);
    drives.push(d);
    setLabel(d.device, label);
    d.unmount();
    return d;
  }

  function formatOwn(d: LoopDrive, body: Record<string, unknown>) {
    assert.ok(drives.includes(d));
    assert.match(d.device, /^\/dev\/loop\d+$/);
    return t.client.post(
      `/admin/drives/${path.basename(d.device)}/format`,
      { ...body, confirmation: `FORMAT ${d.device}` },
      { token: owner.access },
    );
  }

  test('the drive list offers ext4 only, and says what exFAT needs: install exfatprogs', async (ctx) => {
    if (skipReason) return skipBecause(ctx, skipReason);
    const res = await t.client.get('/admin/drives', { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const format = res.body.capabilities.format;
    assert.equal(format.available, true);
    assert.deepEqual(
      format.filesystems.map((f: { name: string; available: boolean }) => [f.name, f.available]),
      [
        ['ext4', true],
        ['exfat', false],
      ],
    );
    assert.match(format.filesystems[1].reason, /cannot make exFAT drives: install exfatprogs/);
  });

  test('an erase to exFAT is refused 400 filesystem_unavailable with what to install, and the drive keeps its file system; ext4 still works', async (ctx) => {
    if (skipReason) return skipBecause(ctx, skipReason);
    const d = drive('stick', 'keepme');
    const before = blkid(d.device);
    const res = await formatOwn(d, { filesystem: 'exfat', label: 'FAMILY' });
    assertError(res, 400, 'filesystem_unavailable', 'filesystem');
    assert.match(res.body.error.message, /install exfatprogs/);
    assert.deepEqual([blkid(d.device).TYPE, blkid(d.device).LABEL, blkid(d.device).UUID], ['ext4', 'keepme', before.UUID]);

    const ext4 = await formatOwn(d, { filesystem: 'ext4', label: 'family' });
    assert.equal(ext4.status, 200, JSON.stringify(ext4.body));
    assert.equal(blkid(d.device).LABEL, 'family');
  });
});
