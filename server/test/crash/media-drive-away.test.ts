import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { openConnection } from '../../src/store/database/db.ts';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';
import { uploadFile } from '../helpers/upload.ts';

async function until<T>(what: string, look: () => T | Promise<T>, server?: SpawnedServer): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await look();
    if (value) return value;
    assert.ok(Date.now() < deadline, `${what} did not happen\n${server?.output().slice(-2000) ?? ''}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/*
 * A photo's thumbnail job counts two things apart: its own failures in one run (backed off,
 * given up after a few) and starts at which its drive is away (given up after a few starts).
 * A failure in one run must not use up the starts it has to wait for its drive.
 */
test('a thumbnail job that failed in one run still waits for its drive over the starts it is given, not fewer', async () => {
  const dataDir = await makeTempDir('hearth-media-away-');
  const roots = await makeTempDir('hearth-media-away-roots-');
  const env = { MOUNTS_ROOT: roots, MEDIA_CONCURRENCY: '1' };
  const drive = path.join(roots, 'usb');
  fs.mkdirSync(drive);
  // Thumbnails cannot be stored (their folder is a file): the job fails, for its own reasons.
  fs.writeFileSync(path.join(dataDir, 'thumbs'), 'not a folder');
  const job = (nodeId: string) => {
    const db = openConnection(path.join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT attempts FROM media_jobs WHERE node_id = ?').get(nodeId) as { attempts: number } | undefined;
      const node = db.prepare('SELECT media_state FROM nodes WHERE id = ?').get(nodeId) as { media_state: string };
      return { attempts: row?.attempts ?? null, state: node.media_state };
    } finally {
      db.close();
    }
  };
  let server = await spawnServer(dataDir, env);
  try {
    const setup = await new ApiClient(server.api).post('/setup', OWNER);
    const token = setup.body.access_token as string;
    const lib = await new ApiClient(server.api).post('/libraries', { name: 'USB', path: drive, make_default: true }, { token });
    assert.equal(lib.status, 201, JSON.stringify(lib.body));
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    const nodeId = await uploadFile(server.api, token, photo, { filename: 'beach.png' });
    await until('the job failing once', () => /media job failed; trying again later/.test(server.output()), server);
    await server.stop();

    // The drive is away for two starts: each is one of the starts it may wait.
    fs.renameSync(drive, `${drive}-away`);
    for (let start = 1; start <= 2; start++) {
      const before = job(nodeId).attempts;
      server = await spawnServer(dataDir, env);
      await until(`start ${start} with the drive away`, () => job(nodeId).attempts !== before, server);
      await server.stop();
      assert.deepEqual(job(nodeId), { attempts: start, state: 'pending' }, `still waiting for its drive after start ${start}`);
    }

    // The drive is back (and thumbnails can be stored): the photo gets its thumbnail.
    fs.renameSync(`${drive}-away`, drive);
    fs.rmSync(path.join(dataDir, 'thumbs'));
    server = await spawnServer(dataDir, env);
    const login = await new ApiClient(server.api).post('/auth/login', OWNER);
    await until(
      'the thumbnail',
      async () => (await new ApiClient(server.api).get(`/nodes/${nodeId}`, { token: login.body.access_token })).body.has_thumbnail === true,
      server,
    );
  } finally {
    if (server.process.exitCode === null && server.process.signalCode === null) await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(roots, { recursive: true, force: true });
  }
});
