import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import sharp from 'sharp';
import { OWNER } from '../helpers/accounts.ts';
import { mediaFixture } from '../helpers/fixtures.ts';
import { createLoopDrive, loopUnsupportedReason, type LoopDrive } from '../helpers/loop.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { skipBecause } from '../helpers/skip.ts';
import { residentBytes } from '../helpers/small-disk.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';
import { uploadFile } from '../helpers/upload.ts';

const MiB = 1024 * 1024;
const TUS = '1.0.0';
const RSS_BOUND = 512 * MiB;

/**
 * A data disk the system turns read-only (ext4 after an error, `errors=remount-ro`) is not
 * a hang: with photos and videos in the thumbnail queue, the server keeps answering reads,
 * every write gets 503 storage_read_only (never 500; a PATCH with the offset on disk),
 * /healthz says read_only, memory stays bounded, SIGTERM stops it, and it starts again on the
 * read-only disk to serve what is there.
 */
describe('a data folder whose disk the system turns read-only', () => {
  let work: string;
  let skipReason: string | null = null;
  let drive: LoopDrive | undefined;
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  let token: string;
  let textId: string;
  let uploadPath: string;

  function skipIfUnsupported(t: TestContext): boolean {
    if (skipReason) skipBecause(t, skipReason);
    return skipReason !== null;
  }

  async function start(): Promise<void> {
    server = await spawnServer(dataDir, { MEDIA_CONCURRENCY: '1', STORAGE_RESERVE_MB: '2' });
    client = new ApiClient(server.api);
  }

  function tusRequest(url: string, method: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Response> {
    return fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'Tus-Resumable': TUS, ...headers },
      body: body as BodyInit | undefined,
    });
  }

  async function terminate(): Promise<number | null> {
    const child = server!.process;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    let guard: NodeJS.Timeout | undefined;
    const stuck = new Promise<'stuck'>((resolve) => (guard = setTimeout(() => resolve('stuck'), 30_000)));
    const outcome = await Promise.race([exited, stuck]);
    clearTimeout(guard);
    assert.notEqual(outcome, 'stuck', `the server ignored SIGTERM\n${server!.output().slice(-3000)}`);
    return child.exitCode;
  }

  before(async () => {
    work = await makeTempDir('hearth-disk-ro-');
    skipReason = loopUnsupportedReason(work);
    if (skipReason) return;
    drive = createLoopDrive(work, 'data', path.join(work, 'mnt'), 96);
    // The kernel turns the file system read-only at its first error, as a family PC's disk does.
    drive.unmount();
    execFileSync('tune2fs', ['-e', 'remount-ro', drive.device], { stdio: 'pipe' });
    drive.mount();
    if (!fs.existsSync(triggerOf(drive)))
      skipReason = `this kernel cannot simulate an ext4 error (${triggerOf(drive)} is missing; Linux 5.x+)`;
    dataDir = path.join(drive.mountPoint, 'data');
  });
  after(async () => {
    if (server && server.process.exitCode === null && server.process.signalCode === null) await server.kill9();
    drive?.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('with photos in the thumbnail queue, a disk turned read-only answers writes 503 storage_read_only and reads as before', async (t) => {
    if (skipIfUnsupported(t)) return;
    await start();
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    token = setup.body.access_token;
    textId = await uploadFile(server!.api, token, Buffer.from('the shopping list'), { filename: 'notes.txt' });
    const created = await tusRequest(`${server!.api}/uploads`, 'POST', {
      'Upload-Length': String(4 * MiB),
      'Upload-Metadata': `filename ${Buffer.from('half.bin').toString('base64')}`,
    });
    assert.equal(created.status, 201);
    uploadPath = new URL(created.headers.get('location')!, server!.url).pathname;
    const half = await tusRequest(
      `${server!.url}${uploadPath}`,
      'PATCH',
      { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' },
      Buffer.alloc(MiB, 7),
    );
    assert.equal(half.status, 204);

    const big = (i: number) =>
      sharp({ create: { width: 6000, height: 4500, channels: 3, background: `#${(0x203040 * (i + 1)).toString(16).slice(-6)}` } })
        .png()
        .toBuffer();
    const media = [...(await Promise.all([0, 1, 2, 3, 4, 5].map(big))), await mediaFixture('clip.mp4')];
    await Promise.all(media.map((data, i) => uploadFile(server!.api, token, data, { filename: i < 6 ? `photo-${i}.png` : 'clip.mp4' })));

    fs.writeFileSync(triggerOf(drive!), 'hearth test');
    assert.throws(() => fs.writeFileSync(path.join(drive!.mountPoint, 'probe'), 'x'), { code: 'EROFS' }, 'the disk is read-only now');

    const folder = await client.post('/nodes/folder', { name: 'Holidays', parent_id: null }, { token });
    assert.equal(folder.status, 503, JSON.stringify(folder.body));
    assert.equal(folder.body.error.code, 'storage_read_only');
    const patch = await tusRequest(
      `${server!.url}${uploadPath}`,
      'PATCH',
      { 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': String(MiB) },
      Buffer.alloc(MiB, 8),
    );
    assert.equal(patch.status, 503);
    assert.equal(((await patch.json()) as any).error.code, 'storage_read_only');
    assert.equal(patch.headers.get('upload-offset'), String(MiB), 'the offset really on disk');
    const head = await tusRequest(`${server!.url}${uploadPath}`, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('upload-offset'), String(MiB));
    const create = await tusRequest(`${server!.api}/uploads`, 'POST', {
      'Upload-Length': '10',
      'Upload-Metadata': `filename ${Buffer.from('x.txt').toString('base64')}`,
    });
    assert.equal(create.status, 503);
    const login = await client.post('/auth/login', OWNER);
    assert.ok(login.status === 200 || (login.status === 503 && login.body.error.code === 'storage_read_only'), JSON.stringify(login.body));

    const list = await client.get('/nodes', { token });
    assert.equal(list.status, 200);
    const download = await fetch(`${server!.api}/nodes/${textId}/download`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(await download.text(), 'the shopping list');

    let largest = 0;
    for (let i = 0; i < 20; i++) {
      const health = await fetch(`${server!.url}/healthz`);
      assert.equal(health.status, 503);
      assert.equal(((await health.json()) as any).checks.storage, 'read_only');
      largest = Math.max(largest, residentBytes(server!.process.pid!));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    assert.ok(largest < RSS_BOUND, `resident memory ${Math.round(largest / MiB)} MB`);
    assert.doesNotMatch(server!.output(), /"level":"error","msg":"request failed"/, 'no request failed as a bug (500)');
  });

  test('SIGTERM stops it, and it starts again on the read-only disk to serve what is there', async (t) => {
    if (skipIfUnsupported(t)) return;
    assert.equal(await terminate(), 0);
    await start();
    const health = await fetch(`${server!.url}/healthz`);
    assert.equal(((await health.json()) as any).checks.storage, 'read_only');
    const list = await client.get('/nodes', { token });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const download = await fetch(`${server!.api}/nodes/${textId}/download`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(await download.text(), 'the shopping list');
    assert.equal(await terminate(), 0);
  });
});

function triggerOf(drive: LoopDrive): string {
  return `/sys/fs/ext4/${path.basename(drive.device)}/trigger_fs_error`;
}
