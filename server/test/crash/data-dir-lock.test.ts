import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { test } from 'node:test';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
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
