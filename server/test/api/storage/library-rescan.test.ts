import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { tmpfsUnsupportedReason } from '../../helpers/small-disk.ts';
import { isMountPoint } from '../../helpers/loop.ts';

/** When the folder was last read (its access time, on a disk that records every read). */
function readAt(folder: string): bigint {
  return fs.statSync(folder, { bigint: true }).atimeNs;
}

/*
 * The library check runs every 15 s. An offline library whose folder is there without its
 * marker is walked (up to a thousand content files, each a lookup) to see whether it is the
 * library's: only again once something in the folder changed, not at every check.
 */
test('an offline library whose folder holds files that do not prove it is walked again only when the folder changes', async (ctx) => {
  const work = await makeTempDir('hearth-rescan-');
  const why = tmpfsUnsupportedReason(work);
  if (why) {
    fs.rmSync(work, { recursive: true, force: true });
    return skipBecause(ctx, why);
  }
  const roots = path.join(work, 'media');
  fs.mkdirSync(roots);
  // A disk that records every read of a folder (strictatime): the walk is seen by its reads.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m,strictatime', 'tmpfs', roots], { stdio: 'pipe' });
  const t = await startTestServer({ mountsRoots: [roots] });
  try {
    const owner = await setupOwner(t.client);
    const folder = path.join(roots, 'usb');
    fs.mkdirSync(folder);
    const lib = (await t.client.post('/libraries', { name: 'USB', path: folder }, { token: owner.access })).body;
    // Its marker gone, and files in it that this server has no record of: not provably the library.
    fs.rmSync(path.join(folder, '.hearth-library'));
    const shard = path.join(folder, 'blobs', 'zz');
    fs.mkdirSync(shard, { recursive: true });
    for (let i = 0; i < 20; i++)
      fs.writeFileSync(path.join(shard, `01JSOMEONEELSESFILE${String(i).padStart(5, '0')}zz`), 'not this library');
    await t.server.runMaintenance();
    const status = async () =>
      (await t.client.get('/libraries', { token: owner.access })).body.items.find((l: any) => l.id === lib.id).status;
    assert.equal(await status(), 'offline');

    const walked = readAt(shard);
    await t.server.runMaintenance();
    await t.server.runMaintenance();
    assert.equal(readAt(shard), walked, 'nothing changed: the folder was not walked again');
    assert.equal(await status(), 'offline');

    // Something arrives in the folder: it is walked again (and still proves nothing).
    fs.mkdirSync(path.join(folder, 'tmp'), { recursive: true });
    fs.writeFileSync(path.join(folder, 'tmp', '01JSOMEONEELSESUPLOAD00000.upload'), 'half');
    await t.server.runMaintenance();
    assert.ok(readAt(shard) > walked, 'walked again once the folder changed');
    assert.equal(await status(), 'offline');

    // Its marker back: the library comes back at the next check.
    fs.writeFileSync(path.join(folder, '.hearth-library'), lib.id);
    await t.server.runMaintenance();
    assert.equal(await status(), 'online');
  } finally {
    await t.close();
    if (isMountPoint(roots)) execFileSync('umount', ['-l', roots], { stdio: 'pipe' });
    fs.rmSync(work, { recursive: true, force: true });
  }
});
