import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { makeFilesystem, probeFilesystem, udisksFormatArguments } from '../../src/platform/drives.ts';
import { findExecutable } from '../../src/platform/run.ts';
import { makeTempDir } from '../helpers/server.ts';
import { missingTool, skipBecause } from '../helpers/skip.ts';

/* Issue 12, finding 15: what the server passes to OS commands is never read as an option. */

const exec = promisify(execFile);

test('a device path that starts with a dash is formatted and probed as a path: mkfs.ext4, mkfs.exfat and blkid get "--" before it', async (ctx) => {
  const missing = missingTool('mkfs.ext4', 'e2fsprogs') ?? missingTool('mkfs.exfat', 'exfatprogs') ?? missingTool('blkid', 'util-linux');
  if (missing) return skipBecause(ctx, missing);
  const dir = await makeTempDir();
  const cwd = process.cwd();
  try {
    // Image files stand in for devices: both tools format a regular file.
    process.chdir(dir);
    for (const [name, filesystem, label] of [
      ['-h', 'ext4', 'DASHED'],
      ['-V', 'exfat', 'DASHED'],
    ] as const) {
      await fs.writeFile(name, Buffer.alloc(0));
      await fs.truncate(name, 32 * 1024 * 1024);
      await makeFilesystem(name, filesystem, label);
      assert.deepEqual(await probeFilesystem(name), { filesystem, label, uuid: (await probeFilesystem(name))!.uuid });
      assert.ok((await probeFilesystem(name))!.uuid);
    }
  } finally {
    process.chdir(cwd);
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('busctl reads a format label "-h" as the label, not as its help option: it goes on to call the bus instead of printing help and exiting 0', async (ctx) => {
  const busctl = findExecutable('busctl');
  if (!busctl) return skipBecause(ctx, 'busctl is not installed (Debian: sudo apt install systemd)');
  const args = udisksFormatArguments('/org/freedesktop/UDisks2/block_devices/nonexistent', 'ext4', '-h');
  assert.ok(args.indexOf('--') >= 0 && args.indexOf('--') < args.indexOf('org.freedesktop.UDisks2'), args.join(' '));
  // Here there is no system bus (or no such device): the call fails, but as a call.
  const result = await exec(busctl, args, { timeout: 10_000 }).then(
    ({ stdout }) => ({ code: 0, out: stdout }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      out: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }),
  );
  assert.notEqual(result.code, 0, result.out);
  assert.doesNotMatch(result.out, /Introspect the D-Bus IPC bus|COMMAND/);
});
