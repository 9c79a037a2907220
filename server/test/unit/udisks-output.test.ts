import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { parseCanFormat, udisksObjectPath } from '../../src/platform/drives.ts';
import { commandMissing, runCommand } from '../../src/platform/run.ts';
import { udisksMountPoint, unmountRefusedForRights } from '../../src/platform/mounts.ts';

// udisks2 cannot run in this container (no system D-Bus); its answers are the ones its
// releases print, so the parser is checked on those.
describe('where udisksctl says it mounted a drive', () => {
  test('udisks 2.9 ends the line with a dot, which is not part of the path', () => {
    assert.equal(udisksMountPoint('Mounted /dev/sdb1 at /media/anna/PHOTOS.\n', '/dev/sdb1'), '/media/anna/PHOTOS');
  });

  test('udisks 2.10 prints no dot; spaces in a label stay', () => {
    assert.equal(udisksMountPoint('Mounted /dev/sdc1 at /run/media/anna/Family Photos\n', '/dev/sdc1'), '/run/media/anna/Family Photos');
  });

  test('a label that really ends with a dot keeps it when that folder exists', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-udisks-'));
    const withDot = path.join(dir, 'BACKUP.');
    fs.mkdirSync(withDot);
    try {
      assert.equal(udisksMountPoint(`Mounted /dev/sdd1 at ${withDot}\n`, '/dev/sdd1'), withDot);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an answer about another device, or no answer, gives nothing', () => {
    assert.equal(udisksMountPoint('Mounted /dev/sdb1 at /media/anna/X.\n', '/dev/sdb2'), null);
    assert.equal(udisksMountPoint('Error mounting /dev/sdb1: GDBus.Error: Not authorized\n', '/dev/sdb1'), null);
  });
});

describe('which udisks2 object a device is (for a format through D-Bus)', () => {
  test('the first line of `udisksctl info -b` names it, without its colon', () => {
    const info = '/org/freedesktop/UDisks2/block_devices/sdb1:\n  org.freedesktop.UDisks2.Block:\n    Device:  /dev/sdb1\n';
    assert.equal(udisksObjectPath(info), '/org/freedesktop/UDisks2/block_devices/sdb1');
  });

  test('leading blank lines are skipped', () => {
    assert.equal(
      udisksObjectPath('\n/org/freedesktop/UDisks2/block_devices/nvme0n1p2:\n'),
      '/org/freedesktop/UDisks2/block_devices/nvme0n1p2',
    );
  });

  test('an error, or an object that is not a block device, gives nothing (nothing is formatted)', () => {
    assert.equal(udisksObjectPath('Error looking up object for device /dev/sdz\n'), null);
    assert.equal(udisksObjectPath('/org/freedesktop/UDisks2/drives/Samsung_SSD:\n'), null);
    assert.equal(udisksObjectPath('/org/freedesktop/UDisks2/block_devices/sdb1; rm -rf /:\n'), null);
    assert.equal(udisksObjectPath(''), null);
  });
});

describe('why an unmount failed: not allowed (503 helper_unavailable) or busy (409)', () => {
  const failed = (stderr: string) => new Error(`umount /media/x failed: ${stderr}`);

  test('umount and udisks refusals for lack of rights', () => {
    assert.equal(unmountRefusedForRights(failed('umount: /media/x: must be superuser to unmount.')), true);
    assert.equal(unmountRefusedForRights(failed('umount: /media/x: only root can unmount /dev/sdb1 from /media/x')), true);
    assert.equal(
      unmountRefusedForRights(
        failed(
          'Error unmounting /dev/sdb1: GDBus.Error:org.freedesktop.UDisks2.Error.NotAuthorizedCanObtain: Not authorized to perform operation',
        ),
      ),
      true,
    );
  });

  test('a drive in use is busy, not a matter of rights', () => {
    assert.equal(unmountRefusedForRights(failed('umount: /media/x: target is busy.')), false);
    assert.equal(
      unmountRefusedForRights(
        failed(
          'Error unmounting /dev/sdb1: GDBus.Error:org.freedesktop.UDisks2.Error.DeviceBusy: Error unmounting /dev/sdb1: target is busy',
        ),
      ),
      false,
    );
  });
});

describe('which file systems udisks2 can make (issue 19, item 21: exFAT without exfatprogs)', () => {
  test('busctl prints CanFormat as `bs true ""` or `bs false "mkfs.exfat"`; anything else is unknown', () => {
    assert.equal(parseCanFormat('bs true ""\n'), true);
    assert.equal(parseCanFormat('bs false "mkfs.exfat"\n'), false);
    assert.equal(parseCanFormat(''), null);
    assert.equal(parseCanFormat('Call failed: No such method CanFormat'), null);
  });

  test('a program that is not installed is told apart from one that failed', async () => {
    const missing = await runCommand('hearth-no-such-program', []).catch((error: unknown) => error);
    assert.equal(commandMissing(missing), true);
    const failed = await runCommand('false', []).catch((error: unknown) => error);
    assert.equal(commandMissing(failed), false);
  });
});
