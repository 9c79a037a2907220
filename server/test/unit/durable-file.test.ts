import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { BlobStore } from '../../src/store/content/blobs.ts';
import { writeFileDurably } from '../../src/store/common/durable-file.ts';
import { moveToHolding } from '../../src/store/content/holding.ts';
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

test('on Windows, where a folder cannot be opened to fsync it, uploads and the holding folder still work (the folder fsync is skipped)', async () => {
  const root = await makeTempDir('hearth-win-folders-');
  dirs.push(root);
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  const open = fs.promises.open;
  const openSync = fs.openSync;
  // What Node does on Windows: opening a folder as a file fails.
  const refuseFolders = (file: fs.PathLike | fs.promises.FileHandle) => {
    if (typeof file === 'string' && fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) {
      throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${file}'`), { code: 'EISDIR' });
    }
  };
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  fs.promises.open = (async (file: fs.PathLike, ...rest: unknown[]) => {
    refuseFolders(file as string);
    return (open as (...args: unknown[]) => Promise<fs.promises.FileHandle>)(file, ...rest);
  }) as typeof fs.promises.open;
  fs.openSync = ((file: fs.PathLike, ...rest: unknown[]) => {
    refuseFolders(file as string);
    return (openSync as (...args: unknown[]) => number)(file, ...rest);
  }) as typeof fs.openSync;
  try {
    const blobs = await BlobStore.open(path.join(root, 'library'));
    await blobs.createTemp('01JWINDOWSUPLOAD000000000.upload');
    const written = await blobs.writeTemp('01JWINDOWSUPLOAD000000000.upload', 0, Readable.from([Buffer.from('first bytes')]), {
      limit: null,
    });
    assert.equal(written.error, null);
    assert.equal(written.written, 11);
    await blobs.commitTemp('01JWINDOWSUPLOAD000000000.upload', '01JWINDOWSBLOB00000000000');
    assert.equal(fs.readFileSync(blobs.pathOf('01JWINDOWSBLOB00000000000'), 'utf8'), 'first bytes');
    await moveToHolding(blobs.root, blobs.pathOf('01JWINDOWSBLOB00000000000'), 'blobs', Date.now());
    writeFileDurably(path.join(blobs.root, '.hearth-library'), 'lib');
    assert.equal(fs.readFileSync(path.join(blobs.root, '.hearth-library'), 'utf8'), 'lib');
  } finally {
    Object.defineProperty(process, 'platform', platform);
    fs.promises.open = open;
    fs.openSync = openSync;
  }
});
