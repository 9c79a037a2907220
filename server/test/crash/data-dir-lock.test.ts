import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { buildNoLocksLibrary, noLocksUnsupportedReason } from '../helpers/no-locks.ts';
import { skipBecause } from '../helpers/skip.ts';
import { mountTmpfs, tmpfsUnsupportedReason } from '../helpers/small-disk.ts';
import { spawnRefusedServer, spawnServer, type SpawnedServer } from '../helpers/spawn.ts';

/*
 * Issue 19, finding 5: the data folder's lock keeps a second server out while the first runs,
 * and never outlives its process: after a kill -9 (a crash, a power cut, the desktop app's
 * server process ending) the next server starts on the folder at once.
 */
test('a server holding the folder refuses a second one by its pid; killed with -9, the folder starts again at once', async () => {
  const dataDir = await makeTempDir('hearth-lock-');
  const servers: SpawnedServer[] = [];
  try {
    const first = await spawnServer(dataDir);
    servers.push(first);
    const setup = await new ApiClient(first.api).post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));

    const refused = await spawnRefusedServer(dataDir);
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, new RegExp(`in use by process ${first.process.pid}: a Hearth server`), refused.output);
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200, 'the first one still answers');

    await first.kill9();
    const second = await spawnServer(dataDir);
    servers.push(second);
    const login = await new ApiClient(second.api).post('/auth/login', OWNER);
    assert.equal(login.status, 200, JSON.stringify(login.body));

    // And it holds the folder in turn.
    const third = await spawnRefusedServer(dataDir);
    assert.match(third.output, new RegExp(`in use by process ${second.process.pid}`), third.output);
  } finally {
    for (const server of servers) if (server.process.exitCode === null && server.process.signalCode === null) await server.kill9();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('a data folder where file locking does not work (a network share without locks) is refused with a plain message, never run without the lock', async (ctx) => {
  const why = noLocksUnsupportedReason();
  if (why) return skipBecause(ctx, why);
  const work = await makeTempDir('hearth-no-locks-');
  const dataDir = await makeTempDir('hearth-lock-');
  try {
    const library = buildNoLocksLibrary(work);
    const refused = await spawnRefusedServer(dataDir, { LD_PRELOAD: library, HEARTH_TEST_NO_LOCKS: 'hearth.lock' });
    assert.equal(refused.code, 1, refused.output);
    assert.match(refused.output, /^Hearth did not start: its data folder .* is on a drive where file locking does not work/m);
    assert.match(refused.output, /Put the data folder on a drive of this computer \(DATA_DIR\)/);
    assert.doesNotMatch(refused.output, /\n\s+at /, 'a message, not a stack trace');
    assert.ok(!(await fs.readdir(dataDir)).includes('hearth.db'), 'nothing was made beside the lock');

    // The same folder where locks work: the server starts, and holds it.
    const server = await spawnServer(dataDir);
    try {
      assert.doesNotMatch(server.output(), /running without the data folder's lock/);
    } finally {
      await server.kill9();
    }
  } finally {
    await fs.rm(work, { recursive: true, force: true });
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

test('a data folder on a read-only disk starts without the lock, and says so in its log', async (ctx) => {
  const work = await makeTempDir('hearth-lock-ro-');
  const why = tmpfsUnsupportedReason(work);
  if (why) {
    await fs.rm(work, { recursive: true, force: true });
    return skipBecause(ctx, why);
  }
  const disk = mountTmpfs(path.join(work, 'disk'), 32);
  try {
    const dataDir = path.join(disk.mountPoint, 'data');
    const first = await spawnServer(dataDir, { STORAGE_RESERVE_MB: '0' });
    // Killed, as a disk that turns read-only leaves it: the database's -wal and -shm stay, and
    // both SQLite engines read through them (node:sqlite cannot open a WAL database on a
    // read-only disk without its -shm).
    await first.kill9();
    execFileSync('mount', ['-o', 'remount,ro', disk.mountPoint], { stdio: 'pipe' });
    const server = await spawnServer(dataDir, { STORAGE_RESERVE_MB: '0' });
    try {
      assert.match(
        server.output(),
        /"level":"warn","msg":"running without the data folder's lock: a second server started on this folder now would not be refused"/,
      );
      assert.equal(((await fetch(`${server.url}/healthz`).then((r) => r.json())) as any).checks.storage, 'read_only');
    } finally {
      await server.stop();
    }
  } finally {
    disk.destroy();
    await fs.rm(work, { recursive: true, force: true });
  }
});
