/**
 * On Windows and macOS the drive page lists the disks (from systeminformation) and says what is
 * Linux-only; it is never an error page. Fixtures follow systeminformation's own parsing of
 * PowerShell's Win32_LogicalDisk and macOS's `diskutil info -all`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockDevicesFromSysteminformation, type SiBlockDevice } from '../../src/platform/drives-other.ts';
import { linuxOnlyCapabilities } from '../../src/services/storage/drive-mounts.ts';

const base = {
  identifier: '',
  type: 'disk',
  fsType: '',
  mount: '',
  size: 0,
  physical: 'Local',
  uuid: '',
  label: '',
  model: '',
  removable: false,
};

test('Windows volumes become drives with URL-safe ids; optical drives, network shares and RAM disks are left out', () => {
  const entries: SiBlockDevice[] = [
    {
      ...base,
      name: 'C:',
      identifier: 'C:',
      fsType: 'ntfs',
      mount: 'C:',
      size: '511101108224',
      uuid: '9A3C2F1B',
      label: 'Windows',
      model: 'Samsung SSD 980',
    },
    {
      ...base,
      name: 'E:',
      identifier: 'E:',
      fsType: 'exfat',
      mount: 'E:',
      size: 64_000_000_000,
      physical: 'Removable',
      removable: true,
      label: 'PHOTOS ',
      model: 'SanDisk Ultra',
    },
    { ...base, name: 'D:', identifier: 'D:', physical: 'CD/DVD' },
    { ...base, name: 'Z:', identifier: 'Z:', physical: 'Network', fsType: 'ntfs' },
    { ...base, name: 'R:', identifier: 'R:', physical: 'RAM' },
  ];
  assert.deepEqual(blockDevicesFromSysteminformation(entries, 'win32'), [
    {
      name: 'C',
      path: 'C:',
      size: 511101108224,
      model: 'Samsung SSD 980',
      removable: false,
      type: 'disk',
      fstype: 'ntfs',
      label: 'Windows',
      uuid: '9A3C2F1B',
      mountpoints: ['C:'],
      parent: null,
    },
    {
      name: 'E',
      path: 'E:',
      size: 64_000_000_000,
      model: 'SanDisk Ultra',
      removable: true,
      type: 'disk',
      fstype: 'exfat',
      label: 'PHOTOS',
      uuid: null,
      mountpoints: ['E:'],
      parent: null,
    },
  ]);
});

test('macOS disks keep their partitions and APFS volumes under them; virtual disks are left out', () => {
  const entries: SiBlockDevice[] = [
    { ...base, name: '/dev/disk0', identifier: 'disk0', size: 500_000_000_000, model: 'APPLE SSD AP0512Q' },
    { ...base, name: '/dev/disk3s1s1', identifier: 'disk3s1s1', type: 'part', fsType: 'APFS', mount: '/', label: 'Macintosh HD' },
    { ...base, name: '/dev/disk4', identifier: 'disk4', size: 2_000_000_000_000, removable: true, model: 'WD Elements' },
    {
      ...base,
      name: '/dev/disk4s1',
      identifier: 'disk4s1',
      type: 'part',
      fsType: 'ExFAT',
      mount: '/Volumes/Family',
      label: 'Family',
      uuid: 'F1E2D3C4-0000-1111-2222-333344445555',
      removable: true,
    },
    { ...base, name: '/dev/disk9', identifier: 'disk9', type: 'virtual' },
  ];
  const drives = blockDevicesFromSysteminformation(entries, 'darwin');
  assert.deepEqual(
    drives.map((d) => [d.name, d.parent, d.type, d.fstype, d.mountpoints]),
    [
      ['disk0', null, 'disk', null, []],
      ['disk3s1s1', 'disk3s1', 'part', 'apfs', ['/']],
      ['disk4', null, 'disk', null, []],
      ['disk4s1', 'disk4', 'part', 'exfat', ['/Volumes/Family']],
    ],
  );
  assert.equal(drives[3]!.path, '/dev/disk4s1');
  assert.equal(drives[3]!.uuid, 'F1E2D3C4-0000-1111-2222-333344445555');
});

test('off Linux, mounting, pooling and erasing say plainly that they are Linux-only, naming the OS', () => {
  for (const [platform, os] of [
    ['win32', 'Windows'],
    ['darwin', 'macOS'],
  ] as const) {
    const caps = linuxOnlyCapabilities(platform);
    for (const capability of [caps.format, caps.mount, caps.pool]) {
      assert.equal(capability.available, false);
      assert.match(capability.reason!, new RegExp(`Linux-only for now.*${os}|${os}.*`));
    }
  }
});
