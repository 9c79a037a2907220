import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { createLoopDrive, loopUnsupportedReason, setLabel, type LoopDrive } from '../../helpers/loop.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 12, finding 15: a format label cannot be read as an option, and a format that did
 * not happen is never reported as done.
 *
 * SAFETY: a format request with a correct confirmation phrase is only ever sent for a loop
 * device this file created itself (formatOwn).
 */

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
}

function blkid(device: string): Record<string, string> {
  try {
    return Object.fromEntries(
      run('blkid', ['-p', '-o', 'export', '--', device])
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
  } catch {
    return {};
  }
}

describe('formatting with hostile labels and lying tools (loop-device images made by the test)', () => {
  let work: string;
  let skipReason: string | null = null;
  const drives: LoopDrive[] = [];
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-format-')));
    skipReason = loopUnsupportedReason(work);
    if (skipReason) return;
    fs.mkdirSync(path.join(work, 'media'));
    t = await startTestServer({ includeLoopDevices: true, mountsRoots: [path.join(work, 'media')] });
    owner = await setupOwner(t.client);
  });

  after(async () => {
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

  /** The only way a correct confirmation phrase is sent: for a loop device this file made. */
  function formatOwn(d: LoopDrive, body: Record<string, unknown>): Promise<ApiResponse> {
    assert.ok(drives.includes(d));
    assert.match(d.device, /^\/dev\/loop\d+$/);
    assert.equal(fs.realpathSync(run('losetup', ['-n', '-O', 'BACK-FILE', d.device]).trim()), fs.realpathSync(d.image));
    return t.client.post(
      `/admin/drives/${path.basename(d.device)}/format`,
      { ...body, confirmation: `FORMAT ${d.device}` },
      { token: owner.access },
    );
  }

  test('a label starting with a dash is refused 400 invalid_input (field label), for ext4 and exFAT, and the drive keeps its file system', async (ctx) => {
    if (skipReason) return skipBecause(ctx, skipReason);
    const d = drive('dash', 'keepme');
    const uuid = blkid(d.device).UUID;
    for (const [filesystem, label] of [
      ['ext4', '-h'],
      ['exfat', '-h'],
      ['ext4', '--help'],
      ['ext4', '-L x'],
      ['exfat', ' -V'],
    ] as const) {
      assertError(await formatOwn(d, { filesystem, label }), 400, 'invalid_input', 'label');
    }
    assert.deepEqual([blkid(d.device).TYPE, blkid(d.device).LABEL, blkid(d.device).UUID], ['ext4', 'keepme', uuid]);
    // A dash elsewhere in a label is fine.
    const res = await formatOwn(d, { filesystem: 'ext4', label: 'back-up' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(blkid(d.device).LABEL, 'back-up');
  });

  test('a format whose tool answers success without formatting (the UUID did not change) is an error, not a success', async (ctx) => {
    if (skipReason) return skipBecause(ctx, skipReason);
    const d = drive('liar', 'original');
    const before = blkid(d.device);
    // The tool the server runs for ext4, replaced by one that exits 0 and does nothing: what
    // busctl did with the label `-h` (printed its help).
    const bin = path.join(work, 'lying-bin');
    fs.mkdirSync(bin);
    fs.writeFileSync(path.join(bin, 'mkfs.ext4'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const saved = process.env.PATH;
    process.env.PATH = `${bin}:${saved}`;
    let res: ApiResponse;
    try {
      res = await formatOwn(d, { filesystem: 'ext4', label: 'newlabel' });
    } finally {
      process.env.PATH = saved;
    }
    assertError(res, 500, 'format_failed');
    assert.deepEqual([blkid(d.device).UUID, blkid(d.device).LABEL], [before.UUID, 'original']);
    // With the real tool the same request goes through, with a new UUID.
    const real = await formatOwn(d, { filesystem: 'ext4', label: 'newlabel' });
    assert.equal(real.status, 200, JSON.stringify(real.body));
    assert.notEqual(real.body.drive.uuid, before.UUID);
    assert.equal(real.body.previous.uuid, before.UUID);
  });
});
