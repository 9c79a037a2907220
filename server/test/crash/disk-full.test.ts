import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test, type TestContext } from 'node:test';
import sharp from 'sharp';
import * as tus from 'tus-js-client';
import { OWNER } from '../helpers/accounts.ts';
import { mediaFixture } from '../helpers/fixtures.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { skipBecause } from '../helpers/skip.ts';
import { fillDisk, freeBytes, mountTmpfs, residentBytes, tmpfsUnsupportedReason, type SmallDisk } from '../helpers/small-disk.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';
import { uploadFile } from '../helpers/upload.ts';

const MiB = 1024 * 1024;
const TUS = '1.0.0';
const OCTET = 'application/offset+octet-stream';
/** The server's memory must stay near its usual ~170 MB; the old retry loop took it to gigabytes. */
const RSS_BOUND = 512 * MiB;

/** One answer the server gave during the fill, as the test saw it. */
interface Answer {
  method: string;
  status: number;
  code: string | null;
  offset: number | null;
  length: number;
  upload: string;
}

interface Transfer {
  name: string;
  data: Buffer;
  /** The upload's address (a path under /api/v1/uploads), once created. */
  location: string | null;
  nodeId: string | null;
  /** The offset the last answer gave. */
  lastOffset: number | null;
}

/**
 * A full disk gets a clear answer and loses nothing. With parallel uploads (tus-js-client and
 * raw PATCHes) and photos and videos in the thumbnail queue, a data folder on a small disk
 * filled to the last byte answers every request with a success or 507 storage_full (never
 * 500), with offsets a HEAD confirms and that never pass the upload's length; it keeps serving
 * reads and sign-in, says "full" in /healthz, stops on SIGTERM with its memory bounded, starts
 * again on the full disk, and once space is freed the uploads resume and complete with the
 * right bytes and the queued thumbnails are made, by themselves.
 */
describe('a data folder whose disk fills up', () => {
  let work: string;
  let skipReason: string | null = null;
  let disk: SmallDisk | undefined;
  let dataDir: string;
  let filler: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  let token: string;
  let refresh: string;
  let textId: string;
  let firstPhotoId: string;
  const queued: string[] = [];
  const answers: Answer[] = [];
  const transfers: Transfer[] = [];

  async function start(): Promise<void> {
    // One media job at a time and a 2 MB reserve: the queue is still full when the disk is.
    server = await spawnServer(dataDir, { MEDIA_CONCURRENCY: '1', STORAGE_RESERVE_MB: '2' });
    client = new ApiClient(server.api);
  }

  function skipIfUnsupported(t: TestContext): boolean {
    if (skipReason) skipBecause(t, skipReason);
    return skipReason !== null;
  }

  before(async () => {
    work = await makeTempDir('hearth-disk-full-');
    skipReason = tmpfsUnsupportedReason(work);
    if (skipReason) return;
    disk = mountTmpfs(path.join(work, 'disk'), 64);
    dataDir = path.join(disk.mountPoint, 'data');
    filler = path.join(disk.mountPoint, 'someone-elses-big-file');
  });
  after(async () => {
    if (server && server.process.exitCode === null && server.process.signalCode === null) await server.kill9();
    disk?.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  });

  function tusRequest(url: string, method: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Response> {
    return fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'Tus-Resumable': TUS, ...headers },
      body: body as BodyInit | undefined,
    });
  }

  async function record(method: string, response: Response, transfer: Transfer): Promise<Answer> {
    const text = await response.text();
    let code: string | null = null;
    if (text.startsWith('{')) code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? null;
    const header = response.headers.get('upload-offset');
    const answer: Answer = {
      method,
      status: response.status,
      code,
      offset: header === null ? null : Number(header),
      length: transfer.data.length,
      upload: transfer.name,
    };
    answers.push(answer);
    if (answer.offset !== null) transfer.lastOffset = answer.offset;
    return answer;
  }

  /** The upload as a plain HTTP client sends it: POST, then PATCHes of 512 KiB until done or refused. */
  async function rawUpload(transfer: Transfer): Promise<void> {
    const chunk = 512 * 1024;
    if (transfer.location === null) {
      const created = await tusRequest(`${server!.api}/uploads`, 'POST', {
        'Upload-Length': String(transfer.data.length),
        'Upload-Metadata': `filename ${Buffer.from(transfer.name).toString('base64')}`,
      });
      const answer = await record('POST', created, transfer);
      if (answer.status !== 201) return;
      // The Location is absolute, on this start's port: kept as its path, for a server started again.
      transfer.location = new URL(created.headers.get('location')!, server!.url).pathname;
      transfer.lastOffset = 0;
    } else {
      const head = await tusRequest(`${server!.url}${transfer.location}`, 'HEAD');
      assert.equal(head.status, 200);
      transfer.lastOffset = Number(head.headers.get('upload-offset'));
    }
    for (let offset = transfer.lastOffset!; offset < transfer.data.length;) {
      const response = await tusRequest(
        `${server!.url}${transfer.location}`,
        'PATCH',
        { 'Content-Type': OCTET, 'Upload-Offset': String(offset) },
        transfer.data.subarray(offset, offset + chunk),
      );
      const answer = await record('PATCH', response, transfer);
      if (answer.status !== 204) return;
      offset = answer.offset!;
      const node = response.headers.get('service-node-id');
      if (node) transfer.nodeId = node;
    }
  }

  /** The upload as the web app sends it, with tus-js-client; resumes when the transfer has an address. */
  function tusUpload(transfer: Transfer): Promise<void> {
    return new Promise((resolve) => {
      const upload = new tus.Upload(transfer.data, {
        endpoint: `${server!.api}/uploads`,
        ...(transfer.location && { uploadUrl: `${server!.url}${transfer.location}` }),
        chunkSize: 512 * 1024,
        retryDelays: [],
        headers: { Authorization: `Bearer ${token}` },
        metadata: { filename: transfer.name },
        onAfterResponse: (request, response) => {
          const body = response.getBody();
          let code: string | null = null;
          if (typeof body === 'string' && body.startsWith('{'))
            code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? null;
          const header = response.getHeader('Upload-Offset');
          const answer: Answer = {
            method: request.getMethod(),
            status: response.getStatus(),
            code,
            offset: header ? Number(header) : null,
            length: transfer.data.length,
            upload: transfer.name,
          };
          answers.push(answer);
          if (answer.offset !== null) transfer.lastOffset = answer.offset;
          transfer.nodeId = response.getHeader('Service-Node-Id') ?? transfer.nodeId;
          if (request.getMethod() === 'POST' && response.getStatus() === 201)
            transfer.location = new URL(response.getHeader('Location')!, server!.url).pathname;
        },
        onError: () => resolve(),
        onSuccess: () => resolve(),
      });
      upload.start();
    });
  }

  async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      assert.ok(Date.now() < deadline, `${what} did not happen within ${timeoutMs} ms\n${server?.output().slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function waitingForThumbnails(): Promise<number> {
    const nodes = await Promise.all(queued.map(async (id) => (await client.get(`/nodes/${id}`, { token })).body));
    return nodes.filter((node) => !node.has_thumbnail).length;
  }

  async function health(at: string): Promise<{ status: number; body: any }> {
    const response = await fetch(at);
    return { status: response.status, body: await response.json() };
  }

  /** SIGTERM, and the exit code; a stop that never comes fails the test instead of hanging it. */
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

  test('parallel uploads fill the disk to the last byte: every answer is a success or 507 storage_full, with honest offsets', async (t) => {
    if (skipIfUnsupported(t)) return;
    await start();
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    token = setup.body.access_token;
    refresh = setup.body.refresh_token;
    textId = await uploadFile(server!.api, token, Buffer.from('the shopping list'), { filename: 'notes.txt' });
    const first = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#336699' } })
      .png()
      .toBuffer();
    firstPhotoId = await uploadFile(server!.api, token, first, { filename: 'first.png' });
    await waitUntil(async () => (await client.get(`/nodes/${firstPhotoId}`, { token })).body.has_thumbnail === true, 'the first thumbnail');

    // Photos and videos queued for their thumbnails, one at a time and 27 megapixels each:
    // most are still waiting when the disk fills up.
    const big = (i: number) =>
      sharp({ create: { width: 6000, height: 4500, channels: 3, background: `#${(0x102030 * (i + 1)).toString(16).slice(-6)}` } })
        .png()
        .toBuffer();
    const media = [
      ...(await Promise.all([0, 1, 2, 3, 4, 5, 6, 7].map(big))),
      await mediaFixture('clip.mp4'),
      await mediaFixture('rotated.mov'),
    ];
    const names = [...media.keys()].map((i) => (i < 8 ? `photo-${i}.png` : i === 8 ? 'clip.mp4' : 'rotated.mov'));
    queued.push(...(await Promise.all(media.map((data, i) => uploadFile(server!.api, token, data, { filename: names[i]! })))));

    // Someone else's file takes all but 12 MB: the 32 MB of uploads below cannot all fit.
    fs.writeFileSync(filler, Buffer.alloc(Math.max(0, freeBytes(disk!.mountPoint) - 12 * MiB), 1));
    for (let i = 0; i < 8; i++) {
      transfers.push({
        name: `${i < 4 ? 'tus' : 'raw'}-${i}.bin`,
        data: crypto.randomBytes(4 * MiB),
        location: null,
        nodeId: null,
        lastOffset: null,
      });
    }
    await Promise.all(transfers.map((transfer, i) => (i < 4 ? tusUpload(transfer) : rawUpload(transfer))));
    assert.ok(
      (await waitingForThumbnails()) > 0,
      'photos were still in the thumbnail queue when the disk filled (otherwise this proves nothing)',
    );

    const wrong = answers.filter((a) => !(a.status < 300 || (a.status === 507 && a.code === 'storage_full')));
    assert.deepEqual(wrong, [], 'every answer is a success or 507 storage_full');
    const refused = answers.filter((a) => a.status === 507);
    assert.ok(refused.length > 0, 'the disk filled up (otherwise this test proves nothing)');
    assert.match(server!.output(), /"msg":"storage full[^\n]*"free_bytes":0,/, 'a write met the disk full to its last byte');
    for (const answer of answers) {
      if (answer.offset !== null) assert.ok(answer.offset <= answer.length, `an offset beyond the length: ${JSON.stringify(answer)}`);
    }
    for (const answer of refused.filter((a) => a.method === 'PATCH')) {
      assert.ok(answer.offset !== null, `a refused PATCH says how far the upload got: ${JSON.stringify(answer)}`);
    }
    // What the last answer said is what is on disk.
    const unfinished = transfers.filter((tr) => tr.nodeId === null && tr.location !== null);
    assert.ok(unfinished.length > 0, 'some uploads were cut short by the full disk');
    for (const transfer of unfinished) {
      const head = await tusRequest(`${server!.url}${transfer.location}`, 'HEAD');
      assert.equal(head.status, 200);
      assert.equal(Number(head.headers.get('upload-offset')), transfer.lastOffset, `HEAD agrees with the last answer of ${transfer.name}`);
    }
  });

  test('on the full disk, reads, sign-in and health keep answering, new uploads get 507 storage_full, and memory stays bounded', async (t) => {
    if (skipIfUnsupported(t)) return;
    const list = await client.get('/nodes', { token });
    assert.equal(list.status, 200);
    assert.ok(list.body.items.some((n: any) => n.id === textId));
    const download = await fetch(`${server!.api}/nodes/${textId}/download`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(download.status, 200);
    assert.equal(await download.text(), 'the shopping list');
    const thumbnail = await fetch(`${server!.api}/nodes/${firstPhotoId}/thumbnail`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(thumbnail.status, 200, 'a thumbnail made before the disk filled');
    assert.equal(thumbnail.headers.get('content-type'), 'image/webp');

    // Sign-in writes a session (and counts the guess first): the reserve keeps room for it.
    const login = await client.post('/auth/login', OWNER);
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const rotated = await client.post('/auth/refresh', { refresh_token: refresh });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    token = rotated.body.access_token;
    refresh = rotated.body.refresh_token;

    for (const at of [`${server!.url}/healthz`, `${server!.api}/healthz`]) {
      const answer = await health(at);
      assert.equal(answer.status, 503, at);
      assert.equal(answer.body.checks.storage, 'full', at);
      assert.equal(answer.body.checks.db, 'ok', at);
    }
    assert.equal((await client.get('/status')).body.storage, 'full');

    const create = await tusRequest(`${server!.api}/uploads`, 'POST', {
      'Upload-Length': String(MiB),
      'Upload-Metadata': `filename ${Buffer.from('later.bin').toString('base64')}`,
    });
    assert.equal(create.status, 507);
    assert.equal(((await create.json()) as any).error.code, 'storage_full');
    const folder = await client.post('/nodes/folder', { name: 'Holidays', parent_id: null }, { token });
    assert.ok(folder.status === 201 || (folder.status === 507 && folder.body.error.code === 'storage_full'), JSON.stringify(folder.body));

    // The queue waits for space: the server answers while it does, and its memory stays put.
    let largest = 0;
    for (let i = 0; i < 20; i++) {
      assert.equal((await health(`${server!.url}/healthz`)).body.checks.storage, 'full');
      largest = Math.max(largest, residentBytes(server!.process.pid!));
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    assert.ok(largest < RSS_BOUND, `resident memory ${Math.round(largest / MiB)} MB`);
    assert.ok((await waitingForThumbnails()) > 0, 'the queue waits for space instead of finishing on a full disk');
  });

  test('SIGTERM stops the server on the full disk, and it starts again on it, still answering', async (t) => {
    if (skipIfUnsupported(t)) return;
    assert.equal(await terminate(), 0);
    // Stopping checkpoints the database's log, which gives back a few MB: how much depends on
    // what the last writes were. The disk is kept full across the restart, as the test means.
    const left = freeBytes(disk!.mountPoint) - MiB;
    if (left > 0) fs.appendFileSync(filler, Buffer.alloc(left, 1));
    await start();
    const login = await client.post('/auth/login', OWNER);
    assert.equal(login.status, 200, JSON.stringify(login.body));
    token = login.body.access_token;
    assert.equal((await health(`${server!.url}/healthz`)).body.checks.storage, 'full');
    const list = await client.get('/nodes', { token });
    assert.equal(list.status, 200);
  });

  test('once space is freed, the uploads resume and complete with the right bytes, and the queued thumbnails are made', async (t) => {
    if (skipIfUnsupported(t)) return;
    fs.rmSync(filler);
    await waitUntil(async () => (await health(`${server!.url}/healthz`)).status === 200, 'healthz saying ok');
    await Promise.all(
      transfers.filter((tr) => tr.nodeId === null).map((tr) => (tr.name.startsWith('tus') ? tusUpload(tr) : rawUpload(tr))),
    );
    const wrong = answers.filter((a) => !(a.status < 300 || (a.status === 507 && a.code === 'storage_full')));
    assert.deepEqual(wrong, []);
    for (const transfer of transfers) {
      assert.ok(transfer.nodeId, `${transfer.name} completed\n${JSON.stringify(answers.filter((a) => a.upload === transfer.name))}`);
      const response = await fetch(`${server!.api}/nodes/${transfer.nodeId}/download`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200);
      const bytes = Buffer.from(await response.arrayBuffer());
      assert.equal(bytes.length, transfer.data.length, transfer.name);
      assert.ok(bytes.equals(transfer.data), `${transfer.name} has the bytes that were sent`);
    }
    for (const id of queued) {
      await waitUntil(async () => (await client.get(`/nodes/${id}`, { token })).body.has_thumbnail === true, `the thumbnail of ${id}`);
    }
    assert.equal(fs.statSync(path.join(dataDir, '.hearth-space-reserve')).size, 2 * MiB, 'the reserve is made again');
  });

  test('a disk full to the last byte, without a reserve, still starts: reads work, writes answer 507, and it recovers by itself', async (t) => {
    if (skipIfUnsupported(t)) return;
    assert.equal(await terminate(), 0);
    fs.rmSync(path.join(dataDir, '.hearth-space-reserve'));
    fillDisk(filler);
    assert.equal(freeBytes(disk!.mountPoint), 0);
    await start();
    assert.doesNotMatch(server!.output(), /Bus error|SIGBUS/);
    assert.equal((await health(`${server!.url}/healthz`)).body.checks.storage, 'full');
    // The access token from before is still good: reading needs no write.
    const list = await client.get('/nodes', { token });
    assert.equal(list.status, 200, JSON.stringify(list.body));
    const download = await fetch(`${server!.api}/nodes/${textId}/download`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(download.status, 200);
    const login = await client.post('/auth/login', OWNER);
    assert.ok(login.status === 200 || (login.status === 507 && login.body.error.code === 'storage_full'), JSON.stringify(login.body));
    // Every write answers a success, 507 storage_full, or what follows from an earlier refusal
    // (a restore of what the full disk kept from being trashed is 409): never a 5xx but 507.
    const writes: [string, string, unknown][] = [
      ['POST', '/nodes/folder', { name: 'Later', parent_id: null }],
      ['PATCH', `/nodes/${textId}`, { name: 'groceries.txt' }],
      ['POST', `/nodes/${textId}/star`, undefined],
      ['PATCH', '/me/profile', { display_name: 'The owner' }],
      ['PATCH', '/server/settings', { server_name: 'Our home' }],
      ['POST', '/admin/invites', { role: 'member' }],
      ['DELETE', `/nodes/${textId}`, undefined],
      ['POST', `/nodes/${textId}/restore`, undefined],
    ];
    for (const [method, route, body] of writes) {
      const answer = await client.request(method, route, { token, ...(body !== undefined && { body }) });
      assert.ok(
        answer.status < 500 || (answer.status === 507 && answer.body.error.code === 'storage_full'),
        `${method} ${route}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
    }
    assert.doesNotMatch(server!.output(), /"msg":"request failed"/, 'no request failed as a bug (500)');

    fs.rmSync(filler);
    await waitUntil(async () => (await health(`${server!.url}/healthz`)).status === 200, 'healthz saying ok');
    assert.equal((await client.post('/auth/login', OWNER)).status, 200);
    assert.equal(await terminate(), 0);
  });
});
