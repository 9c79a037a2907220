import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';

const MiB = 1024 * 1024;
const TUS = '1.0.0';
const OCTET = 'application/offset+octet-stream';

function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

/**
 * Uploads and the content store across kill -9: bytes a PATCH acknowledged are still there
 * after a restart and the upload resumes from them; a completed upload, a folder and a
 * permanent delete acknowledged right before the crash stay done; at startup, leftovers are
 * moved to the holding folder, never a file the database has no record of.
 */
describe('uploads and content across kill -9', () => {
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  let token: string;

  async function start(): Promise<void> {
    server = await spawnServer(dataDir);
    client = new ApiClient(server.api);
  }
  async function crashAndRestart(): Promise<void> {
    await server!.kill9();
    assert.equal(server!.process.signalCode, 'SIGKILL');
    await start();
  }

  function tus(url: string, method: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Response> {
    return fetch(url, {
      method,
      headers: { authorization: `Bearer ${token}`, 'Tus-Resumable': TUS, ...headers },
      body: body as BodyInit | undefined,
    });
  }

  async function createUpload(length: number, filename: string): Promise<string> {
    const res = await tus(`${server!.api}/uploads`, 'POST', { 'Upload-Length': String(length), 'Upload-Metadata': metadata({ filename }) });
    assert.equal(res.status, 201, await res.text());
    const location = new URL(res.headers.get('location')!);
    assert.equal(location.origin, server!.url);
    // Its path: the same on every restart, when only the port changes.
    assert.match(location.pathname, /^\/api\/v1\/uploads\/\w+$/);
    return location.pathname;
  }

  function at(uploadPath: string): string {
    return `${server!.url}${uploadPath}`;
  }

  async function patch(uploadPath: string, offset: number, body: Buffer): Promise<Response> {
    return tus(at(uploadPath), 'PATCH', { 'Content-Type': OCTET, 'Upload-Offset': String(offset) }, body);
  }

  async function download(id: string): Promise<Buffer> {
    const res = await fetch(`${server!.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(res.status, 200);
    return Buffer.from(await res.arrayBuffer());
  }

  async function blobFiles(): Promise<string[]> {
    const base = path.join(dataDir, 'files', 'blobs');
    const entries = await fs.readdir(base, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => path.relative(base, path.join(e.parentPath, e.name)))
      .sort();
  }

  async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async function exists(file: string): Promise<boolean> {
    return fs.access(file).then(
      () => true,
      () => false,
    );
  }

  before(async () => {
    dataDir = await makeTempDir('hearth-upload-crash-');
    await start();
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    token = setup.body.access_token;
  });

  after(async () => {
    if (server && server.process.exitCode === null && server.process.signalCode === null) await server.kill9();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('an upload killed mid-transfer resumes after restart from at least the acknowledged offset and ends byte-identical', async () => {
    const data = crypto.randomBytes(4 * MiB);
    const upload = await createUpload(data.length, 'crashed.bin');
    const acknowledged = 1536 * 1024;
    const first = await patch(upload, 0, data.subarray(0, acknowledged));
    assert.equal(first.status, 204);
    assert.equal(first.headers.get('upload-offset'), String(acknowledged));

    // A second PATCH is still trickling in when the process dies.
    let sent = acknowledged;
    const stopAt = acknowledged + MiB;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= stopAt) return; // never ends: the crash ends it
        await new Promise((resolve) => setTimeout(resolve, 20));
        controller.enqueue(new Uint8Array(data.subarray(sent, sent + 64 * 1024)));
        sent += 64 * 1024;
      },
    });
    const inFlight = fetch(at(upload), {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'Tus-Resumable': TUS, 'Content-Type': OCTET, 'Upload-Offset': String(acknowledged) },
      body,
      duplex: 'half',
    } as RequestInit).then(
      () => 'answered',
      () => 'failed',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await server!.kill9();
    assert.equal(await inFlight, 'failed');
    await start();

    const head = await tus(at(upload), 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('upload-length'), String(data.length));
    const offset = Number(head.headers.get('upload-offset'));
    assert.ok(offset >= acknowledged, `offset ${offset} is below the acknowledged ${acknowledged}`);
    assert.ok(offset <= sent && offset < data.length, `offset ${offset} is past what was sent (${sent})`);
    // No node before completion.
    const list = await client.get('/nodes?parent_id=root', { token });
    assert.ok(!list.body.items.some((n: any) => n.name === 'crashed.bin'));

    const rest = await patch(upload, offset, data.subarray(offset));
    assert.equal(rest.status, 204);
    const nodeId = rest.headers.get('service-node-id');
    assert.ok(nodeId);
    const node = await client.get(`/nodes/${nodeId}`, { token });
    assert.equal(node.status, 200);
    assert.equal(node.body.size, data.length);
    assert.ok((await download(nodeId)).equals(data));
  });

  test('an upload completed (204 with Service-Node-Id) right before kill -9 exists after restart and downloads identical', async () => {
    const data = crypto.randomBytes(3 * MiB);
    const upload = await createUpload(data.length, 'just-done.bin');
    assert.equal((await patch(upload, 0, data.subarray(0, 2 * MiB))).status, 204);
    const last = await patch(upload, 2 * MiB, data.subarray(2 * MiB));
    assert.equal(last.status, 204);
    const nodeId = last.headers.get('service-node-id');
    assert.ok(nodeId);
    await crashAndRestart();

    const node = await client.get(`/nodes/${nodeId}`, { token });
    assert.equal(node.status, 200, JSON.stringify(node.body));
    assert.equal(node.body.name, 'just-done.bin');
    assert.equal(node.body.size, data.length);
    assert.ok((await download(nodeId)).equals(data));
    const list = await client.get('/nodes?parent_id=root', { token });
    assert.equal(list.body.items.filter((n: any) => n.name.startsWith('just-done')).length, 1);
    const me = await client.get('/me', { token });
    assert.ok(me.body.quota.used >= data.length);
  });

  test('a folder created right before kill -9 exists after restart', async () => {
    const created = await client.post('/nodes/folder', { name: 'Made before the crash' }, { token });
    assert.equal(created.status, 201);
    await crashAndRestart();
    const got = await client.get(`/nodes/${created.body.id}`, { token });
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.equal(got.body.name, 'Made before the crash');
    assert.equal(got.body.type, 'folder');
  });

  test('a permanent delete acknowledged right before kill -9 stays done: the node and its content file are gone after restart', async () => {
    const before = new Set(await blobFiles());
    const data = crypto.randomBytes(64 * 1024);
    const upload = await createUpload(data.length, 'doomed.bin');
    const done = await patch(upload, 0, data);
    assert.equal(done.status, 204);
    const nodeId = done.headers.get('service-node-id')!;
    const added = (await blobFiles()).filter((f) => !before.has(f));
    assert.equal(added.length, 1);
    const blobPath = path.join(dataDir, 'files', 'blobs', added[0]!);
    const usedBefore = (await client.get('/me', { token })).body.quota.used;

    assert.equal((await client.delete(`/nodes/${nodeId}`, { token })).status, 200);
    const gone = await client.delete(`/nodes/${nodeId}/permanent`, { token });
    assert.equal(gone.status, 204, `${JSON.stringify(gone.body)}\n${server!.output().slice(-3000)}`);
    await crashAndRestart();

    assert.equal((await client.get(`/nodes/${nodeId}`, { token })).status, 404);
    const trash = await client.get('/trash', { token });
    assert.equal(trash.status, 200);
    assert.ok(!trash.body.items.some((n: any) => n.id === nodeId));
    assert.equal((await client.get('/me', { token })).body.quota.used, usedBefore - data.length);
    // The content file follows, at the latest once reconciliation has run.
    await waitUntil(async () => !(await exists(blobPath)), 'the deleted content file to go');
  });

  test('startup reconciliation moves a stray temp file to the holding folder and keeps a content file the database has no record of, while real content still downloads', async () => {
    const data = crypto.randomBytes(100 * 1024);
    const upload = await createUpload(data.length, 'survivor.bin');
    const done = await patch(upload, 0, data);
    assert.equal(done.status, 204);
    const nodeId = done.headers.get('service-node-id')!;
    // A live, unfinished upload keeps its temp file.
    const pending = await createUpload(1000, 'pending.bin');
    assert.equal((await patch(pending, 0, Buffer.alloc(100, 1))).status, 204);

    await server!.stop();
    const orphan = path.join(dataDir, 'files', 'blobs', 'zz', '01ORPHANORPHANORPHANORPH');
    const stray = path.join(dataDir, 'files', 'tmp', '01STRAYSTRAYSTRAYSTRAYSTRA.upload');
    await fs.mkdir(path.dirname(orphan), { recursive: true });
    await fs.writeFile(orphan, 'nobody points here');
    await fs.writeFile(stray, 'no upload owns this');
    await start();

    // holding/<day it was moved>/tmp/<name>
    const heldCopy = async () => {
      const days = await fs.readdir(path.join(dataDir, 'files', 'holding')).catch(() => [] as string[]);
      for (const day of days)
        if (await exists(path.join(dataDir, 'files', 'holding', day, 'tmp', path.basename(stray))))
          return path.join(dataDir, 'files', 'holding', day, 'tmp', path.basename(stray));
      return null;
    };
    await waitUntil(async () => !(await exists(stray)) && (await heldCopy()) !== null, 'the stray temp file to move to the holding folder');
    assert.equal(await fs.readFile((await heldCopy())!, 'utf8'), 'no upload owns this', 'held as it was');
    // "No row points to it" is what a database older than its files looks like: no proof of garbage.
    assert.equal(await fs.readFile(orphan, 'utf8'), 'nobody points here', 'a file the database never knew stays where it is');
    // Said once the walk ends, which is after the temp file has moved: waited for, not raced.
    await waitUntil(
      async () => /kept content files this database has no record of/.test(server!.output()),
      'the unknown content file to be reported',
    );
    assert.ok((await download(nodeId)).equals(data));
    const head = await tus(at(pending), 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('upload-offset'), '100');
    const finish = await patch(pending, 100, Buffer.alloc(900, 2));
    assert.equal(finish.status, 204);
    assert.ok(finish.headers.get('service-node-id'));
  });
});
