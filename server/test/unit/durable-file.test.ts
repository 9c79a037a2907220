import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { writeFileDurably } from '../../src/store/durable-file.ts';
import { makeTempDir } from '../helpers/server.ts';
import { skipBecause } from '../helpers/skip.ts';
import { fillDisk, mountTmpfs, tmpfsUnsupportedReason } from '../helpers/small-disk.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('a durable write that a full disk refuses leaves no temp file behind (each start on a full disk would add one)', async (ctx) => {
  const dir = await makeTempDir('hearth-durable-');
  dirs.push(dir);
  const why = tmpfsUnsupportedReason(dir);
  if (why) return skipBecause(ctx, why);
  const disk = mountTmpfs(path.join(dir, 'disk'), 1);
  try {
    const folder = path.join(disk.mountPoint, 'files');
    fs.mkdirSync(folder);
    fillDisk(path.join(disk.mountPoint, 'filler'));
    assert.throws(() => writeFileDurably(path.join(folder, '.hearth-library'), 'x'.repeat(64 * 1024)), { code: 'ENOSPC' });
    assert.deepEqual(fs.readdirSync(folder), [], 'neither the file nor its temp file');
  } finally {
    disk.destroy();
  }
});
