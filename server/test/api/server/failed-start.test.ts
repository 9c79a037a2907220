import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';
import { skipBecause } from '../../helpers/skip.ts';
import { fillDisk, mountTmpfs, tmpfsUnsupportedReason } from '../../helpers/small-disk.ts';

/**
 * Records the intervals the code under `run` sets and clears (the real timers run as usual),
 * and answers where each one still running was set.
 */
async function intervalsLeftBy(run: () => Promise<unknown>): Promise<string[]> {
  const live = new Map<unknown, string>();
  const { setInterval: set, clearInterval: clear } = globalThis;
  globalThis.setInterval = ((...args: Parameters<typeof set>) => {
    const timer = set(...args);
    live.set(timer, new Error().stack!.split('\n').slice(2, 4).join(' / ').trim());
    return timer;
  }) as typeof set;
  globalThis.clearInterval = ((timer: Parameters<typeof clear>[0]) => {
    live.delete(timer);
    clear(timer);
  }) as typeof clear;
  try {
    await run();
  } finally {
    globalThis.setInterval = set;
    globalThis.clearInterval = clear;
  }
  for (const timer of live.keys()) clear(timer as NodeJS.Timeout);
  return [...live.values()];
}

test('a start that fails on a full disk leaves nothing running: the disk check it armed stops with it', async (ctx) => {
  const work = await makeTempDir('hearth-failed-start-');
  const why = tmpfsUnsupportedReason(work);
  if (why) {
    fs.rmSync(work, { recursive: true, force: true });
    return skipBecause(ctx, why);
  }
  const disk = mountTmpfs(path.join(work, 'disk'), 8);
  const blocker = net.createServer();
  try {
    const dataDir = path.join(disk.mountPoint, 'data');
    fs.mkdirSync(dataDir);
    const first = await startTestServer({ dataDir });
    await first.server.close();
    fillDisk(path.join(disk.mountPoint, 'filler'));

    // Fails after the database opened on the full disk: its port is taken.
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    let failure: unknown;
    const left = await intervalsLeftBy(() =>
      startTestServer({ dataDir, port, storageRecheckMs: 60_000 }).catch((error: unknown) => (failure = error)),
    );
    assert.equal((failure as NodeJS.ErrnoException | undefined)?.code, 'EADDRINUSE');
    assert.deepEqual(left, []);

    // Fails while opening the database, after the disk was found full: a database of a newer Hearth.
    fs.rmSync(path.join(disk.mountPoint, 'filler'));
    const db = openConnection(path.join(dataDir, 'hearth.db'));
    db.pragma('user_version = 999');
    db.close();
    fillDisk(path.join(disk.mountPoint, 'filler'));
    const newerLeft = await intervalsLeftBy(() =>
      startTestServer({ dataDir, storageRecheckMs: 60_000 }).catch((error: unknown) => (failure = error)),
    );
    assert.match(String(failure), /newer than this server/);
    assert.deepEqual(newerLeft, []);
  } finally {
    blocker.close();
    disk.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
