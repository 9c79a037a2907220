import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { detectMediaTools } from '../../src/media/tools.ts';
import { probeVideo } from '../../src/media/video-probe.ts';
import { videoInput } from '../../src/media/video-input.ts';
import { OWNER } from '../helpers/accounts.ts';
import { mediaFixture } from '../helpers/fixtures.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';
import { uploadFile } from '../helpers/upload.ts';

/**
 * A playback copy is written under a temp name and renamed into place only once whole: a
 * kill -9 in the middle of one leaves a partial file that is never served, the ffmpeg it ran
 * is stopped at the next start (a killed process takes no child with it), and the queue, which
 * is the database's, makes the copy again after the restart.
 */
describe('a playback copy cut short by kill -9', () => {
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  let token: string;

  const making = () => path.join(dataDir, 'files', 'playback', '.making');

  async function login(): Promise<void> {
    client = new ApiClient(server!.api);
    const res = await client.post('/auth/login', OWNER);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    token = res.body.access_token;
  }

  before(async () => {
    dataDir = await makeTempDir('hearth-playback-crash-');
    server = await spawnServer(dataDir);
    client = new ApiClient(server.api);
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    token = setup.body.access_token;
  });
  after(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('is never served, its ffmpeg is stopped at the restart, and the copy is made whole after it', async () => {
    const id = await uploadFile(server!.api, token, await mediaFixture('long-hevc.mov'), { filename: 'minute.mov' });

    // Killed once ffmpeg has written part of the copy.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const queue = (await client.get('/admin/playback-copies', { token })).body;
      if (queue.making && queue.making.progress > 0.05) break;
      assert.equal(queue.ready, 0, `the copy was made before the kill could cut it: ${JSON.stringify(queue)}`);
      assert.ok(Date.now() < deadline, `no copy under way: ${JSON.stringify(queue)}\n${server!.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await server!.kill9();
    const left = await fs.readdir(making());
    const temp = left.find((name) => name.endsWith('.mp4'));
    assert.ok(temp, `a partial copy on disk: ${left.join(', ')}`);
    assert.ok((await fs.stat(path.join(making(), temp))).size > 0);
    const pid = Number(await fs.readFile(path.join(making(), `${temp}.pid`), 'utf8'));
    assert.ok(alive(pid), 'the killed server left its ffmpeg running');

    server = await spawnServer(dataDir);
    await login();
    const first = await client.get(`/nodes/${id}/playback`, { token });
    assert.equal(first.status, 200);
    assert.notEqual(first.body.copy.state, 'ready', 'the partial copy is not a copy');
    if (first.body.copy.state !== 'ready') {
      const refused = await client.get(`/nodes/${id}/download?copy=playback`, { token });
      assert.equal(refused.status, 404);
      assert.equal(refused.body.error.code, 'playback_copy_not_ready');
    }
    await eventually(async () => !alive(pid), 'the old ffmpeg stopped');

    await eventually(
      async () => (await client.get(`/nodes/${id}/playback`, { token })).body.copy.state === 'ready',
      'the copy made',
      120_000,
    );
    const minted = await client.post(`/nodes/${id}/access-token`, undefined, { token });
    const res = await fetch(
      `${server.api}/nodes/${id}/download?copy=playback&access_token=${encodeURIComponent(minted.body.access_token)}`,
    );
    assert.equal(res.status, 200);
    const copy = path.join(dataDir, 'copy-as-served.mp4');
    await fs.writeFile(copy, Buffer.from(await res.arrayBuffer()));
    const probe = await probeVideo(
      await videoInput(copy),
      detectMediaTools({ ffmpegPath: null, heifConvertPath: null }).tools,
      2 * 1024 ** 3,
    );
    assert.equal(probe.video?.codec, 'h264');
    assert.ok(Math.abs((probe.durationSeconds ?? 0) - 60) < 0.5, `the whole minute: ${probe.durationSeconds}`);
    assert.deepEqual(await fs.readdir(making()), [], 'nothing left under way');
  });

  /** Whether a process runs (a zombie of ours aside: ffmpeg was the killed server's child, not ours). */
  function alive(pid: number): boolean {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }

  async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!(await check())) {
      assert.ok(Date.now() < end, `not in ${timeoutMs} ms: ${what}\n${server?.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
