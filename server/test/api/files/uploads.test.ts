import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as tus from 'tus-js-client';
import WebSocket, { type RawData } from 'ws';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const MiB = 1024 * 1024;
const TUS = '1.0.0';
const OCTET = 'application/offset+octet-stream';

/** `Upload-Metadata` as tus encodes it: `key base64,key base64`. */
function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

interface Raw {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

/** One tus request with fetch; checks the Tus-Resumable header every tus response must carry. */
async function raw(url: string, method: string, token: string | null, headers: Record<string, string> = {}, body?: Buffer): Promise<Raw> {
  const all: Record<string, string> = { 'Tus-Resumable': TUS, ...headers };
  if (token !== null) all.authorization = `Bearer ${token}`;
  const res = await fetch(url, { method, headers: all, body: body as BodyInit | undefined });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '' ? JSON.parse(text) : null;
  assert.equal(res.headers.get('tus-resumable'), TUS, `${method} ${url} -> ${res.status} lacks Tus-Resumable`);
  return { status: res.status, headers: res.headers, text, json };
}

/** Status and envelope code; a HEAD answer has no body, so only its status is checked. */
function assertError(res: Raw, status: number, code: string, method?: string): void {
  assert.equal(res.status, status, res.text);
  if (method === 'HEAD') {
    assert.equal(res.text, '');
    return;
  }
  assert.equal(res.json?.error?.code, code, res.text);
  assert.equal(typeof res.json.error.message, 'string');
}

let t: TestServer;
let owner: SignedIn;
let bob: SignedIn;

function uploadsUrl(): string {
  return `${t.api}/uploads`;
}

/** POST /uploads; returns the absolute URL of the new upload. */
async function create(token: string, headers: Record<string, string>, body?: Buffer): Promise<{ res: Raw; url: string }> {
  const res = await raw(uploadsUrl(), 'POST', token, headers, body);
  assert.equal(res.status, 201, res.text);
  const location = res.headers.get('location');
  assert.ok(location, 'Location header');
  // Absolute, on the name and port the request came to.
  assert.match(location, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/uploads\/[A-Za-z0-9]+$/);
  assert.equal(new URL(location).origin, t.url);
  return { res, url: location };
}

function patch(url: string, token: string, offset: number, body: Buffer, headers: Record<string, string> = {}): Promise<Raw> {
  return raw(url, 'PATCH', token, { 'Content-Type': OCTET, 'Upload-Offset': String(offset), ...headers }, body);
}

async function head(url: string, token: string): Promise<Raw> {
  return raw(url, 'HEAD', token);
}

async function offsetOf(url: string, token: string): Promise<number> {
  const res = await head(url, token);
  assert.equal(res.status, 200);
  return Number(res.headers.get('upload-offset'));
}

async function download(token: string, id: string): Promise<Buffer> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

async function children(token: string, parentId: string | null): Promise<any[]> {
  const res = await t.client.get(`/nodes?parent_id=${parentId ?? 'root'}&limit=1000`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

async function folder(token: string, name: string, parentId?: string): Promise<string> {
  const res = await t.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.id;
}

async function getNode(token: string, id: string): Promise<any> {
  const res = await t.client.get(`/nodes/${id}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function quotaUsed(token: string): Promise<number> {
  const me = await t.client.get('/me', { token });
  assert.equal(me.status, 200);
  return me.body.quota.used;
}

async function setQuota(userId: string, quota: number | null): Promise<void> {
  const res = await t.client.patch(`/admin/users/${userId}`, { quota_bytes: quota }, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** Every file under `dir`, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

async function tempFiles(dataDir: string): Promise<string[]> {
  return fs.readdir(path.join(dataDir, 'files', 'tmp'));
}

/** A tiny valid PNG (1x1). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  bob = await createMember(t.client, owner, 'bob');
});
after(() => t.close());

describe('uploads with tus-js-client', () => {
  test('a 5 MiB upload in 1 MiB chunks becomes a node in the right folder with the right size and byte-identical content', async () => {
    const parent = await folder(owner.access, 'Big uploads');
    const data = crypto.randomBytes(5 * MiB);
    const patches: number[] = [];
    const nodeId = await new Promise<string>((resolve, reject) => {
      let id: string | null = null;
      const upload = new tus.Upload(data, {
        endpoint: uploadsUrl(),
        chunkSize: MiB,
        retryDelays: [],
        headers: { Authorization: `Bearer ${owner.access}` },
        metadata: { filename: 'big.bin', filetype: 'application/octet-stream', parent_id: parent },
        onBeforeRequest: (req) => {
          if (req.getMethod() === 'PATCH') patches.push(Number(req.getHeader('Upload-Offset')));
        },
        onAfterResponse: (_req, res) => {
          id = res.getHeader('Service-Node-Id') ?? id;
        },
        onError: reject,
        onSuccess: () => (id ? resolve(id) : reject(new Error('no Service-Node-Id'))),
      });
      upload.start();
    });
    assert.deepEqual(
      patches,
      [0, 1, 2, 3, 4].map((n) => n * MiB),
    );
    const node = await getNode(owner.access, nodeId);
    assert.equal(node.type, 'file');
    assert.equal(node.name, 'big.bin');
    assert.equal(node.parent_id, parent);
    assert.equal(node.size, 5 * MiB);
    assert.equal(node.version, 1);
    assert.deepEqual(
      (await children(owner.access, parent)).map((n) => n.id),
      [nodeId],
    );
    assert.ok((await download(owner.access, nodeId)).equals(data));
    assert.deepEqual(await tempFiles(t.dataDir), []);
  });

  test('an interrupted upload resumes from where it stopped, is never listed before completion, and ends byte-identical', async () => {
    const parent = await folder(owner.access, 'Resumed');
    const data = crypto.randomBytes(5 * MiB);
    const options = {
      chunkSize: MiB,
      retryDelays: [],
      headers: { Authorization: `Bearer ${owner.access}` },
      metadata: { filename: 'resumed.bin', parent_id: parent },
    };
    // First attempt: stop after two acknowledged chunks, as a phone losing its connection.
    const uploadUrl = await new Promise<string>((resolve, reject) => {
      let chunks = 0;
      const upload: tus.Upload = new tus.Upload(data, {
        ...options,
        endpoint: uploadsUrl(),
        onChunkComplete: () => {
          if (++chunks === 2) {
            upload.abort().then(() => resolve(upload.url!), reject);
          }
        },
        onError: reject,
        onSuccess: () => reject(new Error('the first attempt should not finish')),
      });
      upload.start();
    });
    assert.equal(await offsetOf(uploadUrl, owner.access), 2 * MiB);
    // Half done: nothing is listed, not in the folder and not in recent files.
    assert.deepEqual(await children(owner.access, parent), []);
    const recent = await t.client.get('/nodes?filter=recent', { token: owner.access });
    assert.equal(recent.status, 200);
    assert.ok(!recent.body.items.some((n: any) => n.name === 'resumed.bin'));

    const resumedOffsets: number[] = [];
    const nodeId = await new Promise<string>((resolve, reject) => {
      let id: string | null = null;
      const upload = new tus.Upload(data, {
        ...options,
        uploadUrl,
        onBeforeRequest: (req) => {
          if (req.getMethod() === 'POST') reject(new Error('the resumed upload created a new upload'));
          if (req.getMethod() === 'PATCH') resumedOffsets.push(Number(req.getHeader('Upload-Offset')));
        },
        onAfterResponse: (_req, res) => {
          id = res.getHeader('Service-Node-Id') ?? id;
        },
        onError: reject,
        onSuccess: () => (id ? resolve(id) : reject(new Error('no Service-Node-Id'))),
      });
      upload.start();
    });
    assert.deepEqual(resumedOffsets, [2 * MiB, 3 * MiB, 4 * MiB]);
    const node = await getNode(owner.access, nodeId);
    assert.equal(node.size, 5 * MiB);
    assert.equal(node.parent_id, parent);
    assert.ok((await download(owner.access, nodeId)).equals(data));
    // A client that lost the final answer learns the node from HEAD.
    const done = await head(uploadUrl, owner.access);
    assert.equal(done.status, 200);
    assert.equal(done.headers.get('upload-offset'), String(5 * MiB));
    assert.equal(done.headers.get('service-node-id'), nodeId);
  });

  test('a completed upload answers its node again: HEAD and a repeated completing PATCH give Service-Node-Id, no second node is made, and DELETE forgets the upload but keeps the file', async () => {
    const parent = await folder(owner.access, 'Lost answers');
    const { url } = await create(owner.access, {
      'Upload-Length': '6',
      'Upload-Metadata': metadata({ filename: 'once.txt', parent_id: parent }),
    });
    assert.equal((await patch(url, owner.access, 0, Buffer.from('abc'))).status, 204);
    const last = await patch(url, owner.access, 3, Buffer.from('def'));
    assert.equal(last.status, 204);
    const nodeId = last.headers.get('service-node-id');
    assert.ok(nodeId);
    const h = await head(url, owner.access);
    assert.equal(h.status, 200);
    assert.equal(h.headers.get('upload-offset'), '6');
    assert.equal(h.headers.get('service-node-id'), nodeId);
    const retry = await patch(url, owner.access, 3, Buffer.from('def'));
    assertError(retry, 409, 'offset_mismatch');
    assert.equal(retry.headers.get('upload-offset'), '6');
    const again = await patch(url, owner.access, 6, Buffer.alloc(0));
    assert.equal(again.status, 204);
    assert.equal(again.headers.get('service-node-id'), nodeId);
    // Terminating the finished upload forgets the upload, never the file it became.
    assert.equal((await raw(url, 'DELETE', owner.access)).status, 204);
    assertError(await raw(url, 'HEAD', owner.access), 404, 'not_found', 'HEAD');
    assert.deepEqual(
      (await children(owner.access, parent)).map((n) => n.id),
      [nodeId],
    );
    assert.equal((await download(owner.access, nodeId)).toString(), 'abcdef');
    assert.equal((await head(url, bob.access)).status, 404);
  });

  test('without a filename the file is called "Untitled"', async () => {
    const parent = await folder(owner.access, 'Nameless');
    const id = await uploadFile(t.api, owner.access, Buffer.from('no name'), { parentId: parent });
    assert.equal((await getNode(owner.access, id)).name, 'Untitled');
  });

  test('an upload whose name is taken in the folder gets a free name: photo (1).jpg, photo (2).jpg, ignoring case', async () => {
    const parent = await folder(owner.access, 'Photos');
    const first = await uploadFile(t.api, owner.access, Buffer.from('one'), { filename: 'photo.jpg', parentId: parent });
    const second = await uploadFile(t.api, owner.access, Buffer.from('two'), { filename: 'photo.jpg', parentId: parent });
    const third = await uploadFile(t.api, owner.access, Buffer.from('three'), { filename: 'PHOTO.jpg', parentId: parent });
    assert.equal((await getNode(owner.access, first)).name, 'photo.jpg');
    assert.equal((await getNode(owner.access, second)).name, 'photo (1).jpg');
    assert.equal((await getNode(owner.access, third)).name, 'PHOTO (2).jpg');
    assert.equal((await download(owner.access, first)).toString(), 'one');
    assert.equal((await download(owner.access, second)).toString(), 'two');
    assert.equal((await children(owner.access, parent)).length, 3);
  });

  test('an upload with node_id becomes a new version of that file, and restoring version 1 makes its content current as version 3', async () => {
    const parent = await folder(owner.access, 'Versioned');
    const v1 = Buffer.from('first content, longer than the second');
    const v2 = Buffer.from('second content');
    const id = await uploadFile(t.api, owner.access, v1, { filename: 'notes.txt', parentId: parent });
    const usedBefore = await quotaUsed(owner.access);
    const sameId = await uploadFile(t.api, owner.access, v2, { filename: 'ignored.txt', nodeId: id });
    assert.equal(sameId, id);
    const node = await getNode(owner.access, id);
    assert.equal(node.name, 'notes.txt');
    assert.equal(node.version, 2);
    assert.equal(node.size, v2.length);
    assert.equal((await children(owner.access, parent)).length, 1);
    assert.ok((await download(owner.access, id)).equals(v2));
    assert.equal(await quotaUsed(owner.access), usedBefore + v2.length);

    const versions = await t.client.get(`/nodes/${id}/versions`, { token: owner.access });
    assert.equal(versions.status, 200);
    assert.equal(versions.body.items.length, 2);
    const byNumber = new Map<number, any>(versions.body.items.map((v: any) => [v.version, v]));
    assert.equal(byNumber.get(1).size, v1.length);
    assert.equal(byNumber.get(2).size, v2.length);
    assert.equal(byNumber.get(1).created_by, owner.userId);

    const restored = await t.client.post(`/nodes/${id}/versions/${byNumber.get(1).id}/restore`, undefined, { token: owner.access });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.id, id);
    assert.equal(restored.body.version, 3);
    assert.equal(restored.body.size, v1.length);
    assert.ok((await download(owner.access, id)).equals(v1));
    const after3 = await t.client.get(`/nodes/${id}/versions`, { token: owner.access });
    assert.deepEqual(after3.body.items.map((v: any) => v.version).sort(), [1, 2, 3]);
  });

  test('the content type is sniffed from the bytes: a PNG named .txt and claimed text/plain is image/png', async () => {
    const id = await uploadFile(t.api, owner.access, PNG, { filename: 'not-really.txt', filetype: 'text/plain' });
    assert.equal((await getNode(owner.access, id)).mime_type, 'image/png');
    const text = await uploadFile(t.api, owner.access, Buffer.from('plain words'), { filename: 'words.txt' });
    assert.equal((await getNode(owner.access, text)).mime_type, 'text/plain');
  });
});

describe('the tus protocol over raw HTTP', () => {
  test('OPTIONS /uploads announces tus 1.0.0, its extensions, checksum algorithms and the maximum size', async () => {
    const res = await fetch(uploadsUrl(), { method: 'OPTIONS' });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '');
    assert.equal(res.headers.get('tus-resumable'), TUS);
    assert.equal(res.headers.get('tus-version'), TUS);
    const extensions = (res.headers.get('tus-extension') ?? '').split(',').map((s) => s.trim());
    for (const ext of ['creation', 'creation-with-upload', 'creation-defer-length', 'termination', 'expiration', 'checksum']) {
      assert.ok(extensions.includes(ext), ext);
    }
    assert.deepEqual(
      (res.headers.get('tus-checksum-algorithm') ?? '')
        .split(',')
        .map((s) => s.trim())
        .sort(),
      ['sha1', 'sha256'],
    );
    assert.match(res.headers.get('tus-max-size') ?? '', /^[1-9]\d*$/);
  });

  test('a request without Tus-Resumable (or with another version) is refused 412 with Tus-Version and the error envelope', async () => {
    const noVersion = await fetch(uploadsUrl(), {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.access}`, 'Upload-Length': '10' },
    });
    assert.equal(noVersion.status, 412);
    assert.equal(noVersion.headers.get('tus-version'), TUS);
    assert.equal(noVersion.headers.get('tus-resumable'), TUS);
    const body = (await noVersion.json()) as any;
    assert.equal(body.error.code, 'tus_version_unsupported');
    assert.equal(typeof body.error.message, 'string');

    const old = await raw(uploadsUrl(), 'POST', owner.access, { 'Tus-Resumable': '0.2.2', 'Upload-Length': '10' });
    assertError(old, 412, 'tus_version_unsupported');
    assert.equal(old.headers.get('tus-version'), TUS);

    const { url } = await create(owner.access, { 'Upload-Length': '4' });
    const patchNoVersion = await fetch(url, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${owner.access}`, 'Content-Type': OCTET, 'Upload-Offset': '0' },
      body: 'abcd',
    });
    assert.equal(patchNoVersion.status, 412);
    assert.equal(await offsetOf(url, owner.access), 0);
  });

  test('a PATCH at the wrong Upload-Offset is refused 409 and the offset does not change', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '20' });
    assert.equal((await patch(url, owner.access, 0, Buffer.from('0123456789'))).status, 204);
    const ahead = await patch(url, owner.access, 15, Buffer.from('xxxxx'));
    assertError(ahead, 409, 'offset_mismatch');
    const behind = await patch(url, owner.access, 0, Buffer.from('xxxxx'));
    assertError(behind, 409, 'offset_mismatch');
    assert.equal(await offsetOf(url, owner.access), 10);
  });

  test('a PATCH that is not application/offset+octet-stream is refused 415', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '5' });
    const res = await patch(url, owner.access, 0, Buffer.from('hello'), { 'Content-Type': 'application/octet-stream' });
    assertError(res, 415, 'unsupported_media_type');
    assert.equal(await offsetOf(url, owner.access), 0);
  });

  test('a PATCH without Upload-Offset is refused 400', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '5' });
    const res = await raw(url, 'PATCH', owner.access, { 'Content-Type': OCTET }, Buffer.from('hello'));
    assertError(res, 400, 'missing_field');
  });

  test('more bytes than Upload-Length are refused 413 and nothing of that request is appended', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '10' });
    assert.equal((await patch(url, owner.access, 0, Buffer.from('abcd'))).status, 204);
    const res = await patch(url, owner.access, 4, Buffer.from('0123456789'));
    assertError(res, 413, 'payload_too_large');
    assert.equal(await offsetOf(url, owner.access), 4);
    const done = await patch(url, owner.access, 4, Buffer.from('efghij'));
    assert.equal(done.status, 204);
    const nodeId = done.headers.get('service-node-id');
    assert.ok(nodeId);
    assert.equal((await download(owner.access, nodeId)).toString(), 'abcdefghij');
  });

  test('an Upload-Length above the maximum size is refused 413 at creation', async () => {
    const max = Number((await fetch(uploadsUrl(), { method: 'OPTIONS' })).headers.get('tus-max-size'));
    const res = await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': String(max + 1) });
    assertError(res, 413, 'payload_too_large');
  });

  test('Upload-Checksum sha1 and sha256: a matching digest is accepted 204, a wrong one is refused 460 and the offset stays', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '30', 'Upload-Metadata': metadata({ filename: 'checked.txt' }) });
    const part1 = Buffer.from('0123456789');
    const part2 = Buffer.from('abcdefghij');
    const part3 = Buffer.from('ABCDEFGHIJ');
    const sha1 = (b: Buffer) => crypto.createHash('sha1').update(b).digest('base64');
    const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('base64');

    const ok1 = await patch(url, owner.access, 0, part1, { 'Upload-Checksum': `sha1 ${sha1(part1)}` });
    assert.equal(ok1.status, 204, ok1.text);
    assert.equal(ok1.headers.get('upload-offset'), '10');

    const bad = await patch(url, owner.access, 10, part2, { 'Upload-Checksum': `sha256 ${sha256(part3)}` });
    assertError(bad, 460, 'checksum_mismatch');
    assert.equal(await offsetOf(url, owner.access), 10);
    const badSha1 = await patch(url, owner.access, 10, part2, { 'Upload-Checksum': `sha1 ${sha1(part3)}` });
    assertError(badSha1, 460, 'checksum_mismatch');
    assert.equal(await offsetOf(url, owner.access), 10);

    const ok2 = await patch(url, owner.access, 10, part2, { 'Upload-Checksum': `sha256 ${sha256(part2)}` });
    assert.equal(ok2.status, 204, ok2.text);
    assert.equal(ok2.headers.get('upload-offset'), '20');

    const md5 = crypto.createHash('md5').update(part3).digest('base64');
    const unsupported = await patch(url, owner.access, 20, part3, { 'Upload-Checksum': `md5 ${md5}` });
    assertError(unsupported, 400, 'checksum_algorithm_unsupported');
    assert.equal(await offsetOf(url, owner.access), 20);

    const last = await patch(url, owner.access, 20, part3, { 'Upload-Checksum': `sha256 ${sha256(part3)}` });
    assert.equal(last.status, 204);
    const nodeId = last.headers.get('service-node-id');
    assert.ok(nodeId);
    assert.equal((await download(owner.access, nodeId)).toString(), '0123456789abcdefghijABCDEFGHIJ');
  });

  test('creation-with-upload: a POST carrying bytes answers 201 with their Upload-Offset', async () => {
    const res = await raw(
      uploadsUrl(),
      'POST',
      owner.access,
      { 'Upload-Length': '11', 'Upload-Metadata': metadata({ filename: 'cwu.txt' }), 'Content-Type': OCTET },
      Buffer.from('hello'),
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('upload-offset'), '5');
    assert.equal(res.headers.get('service-node-id'), null);
    const url = new URL(res.headers.get('location')!, t.url).toString();
    assert.equal(await offsetOf(url, owner.access), 5);
    const done = await patch(url, owner.access, 5, Buffer.from(' world'));
    assert.equal(done.status, 204);
    assert.equal((await download(owner.access, done.headers.get('service-node-id')!)).toString(), 'hello world');
  });

  test('creation-with-upload of the whole file completes at creation with Service-Node-Id', async () => {
    const res = await raw(
      uploadsUrl(),
      'POST',
      owner.access,
      { 'Upload-Length': '5', 'Upload-Metadata': metadata({ filename: 'whole.txt' }), 'Content-Type': OCTET },
      Buffer.from('whole'),
    );
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('upload-offset'), '5');
    const nodeId = res.headers.get('service-node-id');
    assert.ok(nodeId);
    assert.equal((await getNode(owner.access, nodeId)).name, 'whole.txt');
  });

  test('Upload-Defer-Length: 1 leaves the length open until a later PATCH declares it', async () => {
    const { url } = await create(owner.access, { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadata({ filename: 'deferred.txt' }) });
    const h0 = await head(url, owner.access);
    assert.equal(h0.status, 200);
    assert.equal(h0.headers.get('upload-defer-length'), '1');
    assert.equal(h0.headers.get('upload-length'), null);

    const p1 = await patch(url, owner.access, 0, Buffer.from('abc'));
    assert.equal(p1.status, 204);
    assert.equal(p1.headers.get('service-node-id'), null);
    const p2 = await patch(url, owner.access, 3, Buffer.from('def'), { 'Upload-Length': '9' });
    assert.equal(p2.status, 204);
    assert.equal(p2.headers.get('service-node-id'), null);
    const h1 = await head(url, owner.access);
    assert.equal(h1.headers.get('upload-length'), '9');
    assert.equal(h1.headers.get('upload-defer-length'), null);
    assert.equal(h1.headers.get('upload-offset'), '6');

    const changed = await patch(url, owner.access, 6, Buffer.from('ghi'), { 'Upload-Length': '10' });
    assertError(changed, 400, 'invalid_input');
    const p3 = await patch(url, owner.access, 6, Buffer.from('ghi'));
    assert.equal(p3.status, 204);
    const nodeId = p3.headers.get('service-node-id');
    assert.ok(nodeId);
    assert.equal((await download(owner.access, nodeId)).toString(), 'abcdefghi');
  });

  test('creation needs exactly one of Upload-Length and Upload-Defer-Length: 1', async () => {
    assertError(await raw(uploadsUrl(), 'POST', owner.access, {}), 400, 'invalid_input');
    assertError(await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': '5', 'Upload-Defer-Length': '1' }), 400, 'invalid_input');
    assertError(await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Defer-Length': '2' }), 400, 'invalid_input');
    assertError(await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': '-1' }), 400, 'invalid_input');
    assertError(await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': 'ten' }), 400, 'invalid_input');
  });

  test('an Upload-Length of 0 completes at creation and answers Service-Node-Id', async () => {
    const res = await raw(uploadsUrl(), 'POST', owner.access, {
      'Upload-Length': '0',
      'Upload-Metadata': metadata({ filename: 'empty.txt' }),
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.headers.get('upload-offset'), '0');
    const nodeId = res.headers.get('service-node-id');
    assert.ok(nodeId);
    const node = await getNode(owner.access, nodeId);
    assert.equal(node.name, 'empty.txt');
    assert.equal(node.size, 0);
    assert.equal((await download(owner.access, nodeId)).length, 0);
  });

  test('DELETE terminates an upload: 204, then HEAD and PATCH answer 404 and the temp file is gone', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '10' });
    assert.equal((await patch(url, owner.access, 0, Buffer.from('abc'))).status, 204);
    const id = url.split('/').pop()!;
    assert.ok((await tempFiles(t.dataDir)).includes(`${id}.upload`));
    const del = await raw(url, 'DELETE', owner.access);
    assert.equal(del.status, 204);
    assertError(await raw(url, 'HEAD', owner.access), 404, 'not_found', 'HEAD');
    assertError(await patch(url, owner.access, 3, Buffer.from('def')), 404, 'not_found');
    assertError(await raw(url, 'DELETE', owner.access), 404, 'not_found');
    assert.ok(!(await tempFiles(t.dataDir)).includes(`${id}.upload`));
  });

  test('X-HTTP-Method-Override: PATCH on a POST appends like a PATCH', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '6', 'Upload-Metadata': metadata({ filename: 'override.txt' }) });
    const res = await raw(
      url,
      'POST',
      owner.access,
      { 'X-HTTP-Method-Override': 'PATCH', 'Content-Type': OCTET, 'Upload-Offset': '0' },
      Buffer.from('tunnel'),
    );
    assert.equal(res.status, 204, res.text);
    assert.equal(res.headers.get('upload-offset'), '6');
    const nodeId = res.headers.get('service-node-id');
    assert.ok(nodeId);
    assert.equal((await download(owner.access, nodeId)).toString(), 'tunnel');

    const second = await create(owner.access, { 'Upload-Length': '6' });
    const del = await raw(second.url, 'POST', owner.access, { 'X-HTTP-Method-Override': 'DELETE' });
    assert.equal(del.status, 204, del.text);
    assert.equal((await head(second.url, owner.access)).status, 404);
  });

  test('HEAD answers Upload-Offset, Upload-Length, Upload-Metadata and Cache-Control: no-store', async () => {
    const meta = metadata({ filename: 'été.txt', filetype: 'text/plain' });
    const { url } = await create(owner.access, { 'Upload-Length': '8', 'Upload-Metadata': meta });
    assert.equal((await patch(url, owner.access, 0, Buffer.from('abc'))).status, 204);
    const res = await head(url, owner.access);
    assert.equal(res.status, 200);
    assert.equal(res.text, '');
    assert.equal(res.headers.get('upload-offset'), '3');
    assert.equal(res.headers.get('upload-length'), '8');
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const echoed = Object.fromEntries(
      (res.headers.get('upload-metadata') ?? '').split(',').map((pair) => {
        const [k, v] = pair.trim().split(' ');
        return [k, Buffer.from(v ?? '', 'base64').toString('utf8')];
      }),
    );
    assert.deepEqual(echoed, { filename: 'été.txt', filetype: 'text/plain' });
  });

  test('Upload-Expires, an HTTP date in the future, is on the creation, PATCH and HEAD responses', async () => {
    const { res: created, url } = await create(owner.access, { 'Upload-Length': '8' });
    const patched = await patch(url, owner.access, 0, Buffer.from('abcd'));
    const headed = await head(url, owner.access);
    for (const res of [created, patched, headed]) {
      const value = res.headers.get('upload-expires');
      assert.ok(value, 'Upload-Expires');
      assert.match(value, /GMT$/);
      assert.ok(Date.parse(value) > Date.now());
    }
  });

  test('an unknown upload id answers 404 with Tus-Resumable', async () => {
    const url = `${uploadsUrl()}/01HZZZZZZZZZZZZZZZZZZZZZZZ`;
    assertError(await raw(url, 'HEAD', owner.access), 404, 'not_found', 'HEAD');
    assertError(await patch(url, owner.access, 0, Buffer.from('x')), 404, 'not_found');
  });

  test("another account's upload does not exist for the caller: 404 on HEAD, PATCH and DELETE, and it is untouched", async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '10' });
    assert.equal((await patch(url, owner.access, 0, Buffer.from('abcde'))).status, 204);
    assertError(await raw(url, 'HEAD', bob.access), 404, 'not_found', 'HEAD');
    assertError(await patch(url, bob.access, 5, Buffer.from('fghij')), 404, 'not_found');
    assertError(await raw(url, 'DELETE', bob.access), 404, 'not_found');
    assert.equal(await offsetOf(url, owner.access), 5);
  });

  test('without a token every upload request is refused 401', async () => {
    const { url } = await create(owner.access, { 'Upload-Length': '10' });
    const post = await raw(uploadsUrl(), 'POST', null, { 'Upload-Length': '10' });
    assert.equal(post.status, 401);
    assert.equal(typeof post.json.error.code, 'string');
    assert.equal((await raw(url, 'HEAD', null)).status, 401);
    assert.equal((await patch(url, '', 0, Buffer.from('abc'))).status, 401);
    assert.equal((await raw(url, 'DELETE', null)).status, 401);
    assert.equal(await offsetOf(url, owner.access), 0);
  });

  test('a parent folder in another account is 404, a parent in the trash is 409 in_trash, a file as parent is 400', async () => {
    const bobs = await folder(bob.access, 'Bob private');
    assertError(
      await raw(uploadsUrl(), 'POST', owner.access, {
        'Upload-Length': '3',
        'Upload-Metadata': metadata({ filename: 'x.txt', parent_id: bobs }),
      }),
      404,
      'not_found',
    );
    const trashed = await folder(owner.access, 'Going away');
    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: owner.access })).status, 200);
    assertError(
      await raw(uploadsUrl(), 'POST', owner.access, {
        'Upload-Length': '3',
        'Upload-Metadata': metadata({ filename: 'x.txt', parent_id: trashed }),
      }),
      409,
      'in_trash',
    );
    const file = await uploadFile(t.api, owner.access, Buffer.from('f'), { filename: 'a-file.txt' });
    assertError(
      await raw(uploadsUrl(), 'POST', owner.access, {
        'Upload-Length': '3',
        'Upload-Metadata': metadata({ filename: 'x.txt', parent_id: file }),
      }),
      400,
      'invalid_input',
    );
    // node_id of someone else's file: 404 as well.
    const bobFile = await uploadFile(t.api, bob.access, Buffer.from('b'), { filename: 'bob.txt' });
    assertError(
      await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': '3', 'Upload-Metadata': metadata({ node_id: bobFile }) }),
      404,
      'not_found',
    );
  });

  test('malformed Upload-Metadata is refused 400', async () => {
    assertError(
      await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': '3', 'Upload-Metadata': 'filename !!notbase64' }),
      400,
      'invalid_input',
    );
    assertError(
      await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': '3', 'Upload-Metadata': 'a YQ==,a YQ==' }),
      400,
      'invalid_input',
    );
  });
});

describe('file names never become paths', () => {
  test("a filename with '/' is refused 400 invalid_name, and so are '..' and '../../etc/passwd'", async () => {
    for (const filename of ['a/b.txt', '../../etc/passwd', '..', '.', '/etc/passwd']) {
      const res = await raw(uploadsUrl(), 'POST', owner.access, { 'Upload-Length': '3', 'Upload-Metadata': metadata({ filename }) });
      assertError(res, 400, 'invalid_name');
      assert.equal(res.json.error.field, 'filename');
    }
  });

  test("odd but valid names ('..hidden', 'a\\\\b', '..\\\\..\\\\x') are stored as plain names and no file appears outside the content store", async () => {
    const before = new Set(await filesUnder(t.dataDir));
    const names = ['..hidden', 'a\\b', '..\\..\\escape.txt', '~root', '%2e%2e%2fetc'];
    for (const name of names) {
      const id = await uploadFile(t.api, owner.access, Buffer.from(`content of ${name}`), { filename: name });
      const node = await getNode(owner.access, id);
      assert.equal(node.name, name);
      assert.equal((await download(owner.access, id)).toString(), `content of ${name}`);
    }
    const added = (await filesUnder(t.dataDir)).filter((f) => !before.has(f));
    assert.ok(added.length >= names.length);
    for (const file of added) {
      // Only content files named by id, or the database's own files.
      assert.ok(/^files\/blobs\/[A-Za-z0-9]{2}\/[A-Za-z0-9]+$/.test(file) || /^hearth\.db(-wal|-shm|-journal)?$/.test(file), file);
    }
    for (const name of names) {
      await assert.rejects(fs.access(path.resolve(t.dataDir, 'files', 'blobs', name)));
      await assert.rejects(fs.access(path.resolve(t.dataDir, 'files', 'tmp', name)));
    }
    await assert.rejects(fs.access(path.resolve(t.dataDir, '..', 'escape.txt')));
  });
});

describe('quota', () => {
  let carol: SignedIn;
  before(async () => {
    carol = await createMember(t.client, owner, 'carol');
  });

  test('GET /me quota.used counts current content, older versions and the trash', async () => {
    assert.equal(await quotaUsed(carol.access), 0);
    const a = await uploadFile(t.api, carol.access, Buffer.alloc(1000, 1), { filename: 'a.bin' });
    assert.equal(await quotaUsed(carol.access), 1000);
    await uploadFile(t.api, carol.access, Buffer.alloc(300, 2), { nodeId: a });
    assert.equal(await quotaUsed(carol.access), 1300);
    const b = await uploadFile(t.api, carol.access, Buffer.alloc(200, 3), { filename: 'b.bin' });
    assert.equal(await quotaUsed(carol.access), 1500);
    assert.equal((await t.client.delete(`/nodes/${b}`, { token: carol.access })).status, 200);
    assert.equal(await quotaUsed(carol.access), 1500);
    assert.equal((await t.client.delete(`/nodes/${b}/permanent`, { token: carol.access })).status, 204);
    assert.equal(await quotaUsed(carol.access), 1300);
    const me = await t.client.get('/me', { token: carol.access });
    assert.equal(me.body.quota.limit, null);
  });

  test('an upload whose Upload-Length passes the quota is refused 507 quota_exceeded at creation', async () => {
    const used = await quotaUsed(carol.access);
    await setQuota(carol.userId, used + 1000);
    try {
      const me = await t.client.get('/me', { token: carol.access });
      assert.equal(me.body.quota.limit, used + 1000);
      assertError(await raw(uploadsUrl(), 'POST', carol.access, { 'Upload-Length': '1001' }), 507, 'quota_exceeded');
      // Exactly up to the limit is fine, and a pending upload counts against the next one.
      const { url } = await create(carol.access, { 'Upload-Length': '600' });
      assertError(await raw(uploadsUrl(), 'POST', carol.access, { 'Upload-Length': '401' }), 507, 'quota_exceeded');
      assert.equal((await raw(url, 'DELETE', carol.access)).status, 204);
      const full = await uploadFile(t.api, carol.access, Buffer.alloc(1000, 7), { filename: 'fills-it.bin' });
      assert.ok(full);
      assert.equal(await quotaUsed(carol.access), used + 1000);
      assertError(await raw(uploadsUrl(), 'POST', carol.access, { 'Upload-Length': '1' }), 507, 'quota_exceeded');
      assert.equal((await t.client.delete(`/nodes/${full}/permanent`, { token: carol.access })).status, 204);
    } finally {
      await setQuota(carol.userId, null);
    }
  });

  test('a creation-with-upload POST that fails (too many bytes, wrong checksum) leaves no upload behind holding quota', async () => {
    const used = await quotaUsed(carol.access);
    await setQuota(carol.userId, used + 1000);
    try {
      const before = (await tempFiles(t.dataDir)).length;
      const tooMany = await raw(
        uploadsUrl(),
        'POST',
        carol.access,
        { 'Upload-Length': '1000', 'Content-Type': OCTET },
        Buffer.alloc(1001, 1),
      );
      assertError(tooMany, 413, 'payload_too_large');
      const body = Buffer.alloc(1000, 2);
      const badSum = await raw(
        uploadsUrl(),
        'POST',
        carol.access,
        {
          'Upload-Length': '1000',
          'Content-Type': OCTET,
          'Upload-Checksum': `sha1 ${crypto.createHash('sha1').update('other').digest('base64')}`,
        },
        body,
      );
      assertError(badSum, 460, 'checksum_mismatch');
      const unsupported = await raw(
        uploadsUrl(),
        'POST',
        carol.access,
        {
          'Upload-Length': '1000',
          'Content-Type': OCTET,
          'Upload-Checksum': `md5 ${crypto.createHash('md5').update(body).digest('base64')}`,
        },
        body,
      );
      assertError(unsupported, 400, 'checksum_algorithm_unsupported');
      for (const res of [tooMany, badSum, unsupported]) assert.equal(res.headers.get('location'), null);
      assert.equal((await tempFiles(t.dataDir)).length, before);
      // The whole quota is still free for the retry.
      const retry = await raw(uploadsUrl(), 'POST', carol.access, { 'Upload-Length': '1000', 'Content-Type': OCTET }, body);
      assert.equal(retry.status, 201, retry.text);
      const nodeId = retry.headers.get('service-node-id');
      assert.ok(nodeId);
      assert.equal((await t.client.delete(`/nodes/${nodeId}/permanent`, { token: carol.access })).status, 204);
    } finally {
      await setQuota(carol.userId, null);
    }
  });

  test('a deferred-length upload that would pass the quota is refused 507 when its length is declared, and no node appears', async () => {
    const parent = await folder(carol.access, 'Deferred quota');
    const used = await quotaUsed(carol.access);
    await setQuota(carol.userId, used + 100);
    try {
      const { url } = await create(carol.access, {
        'Upload-Defer-Length': '1',
        'Upload-Metadata': metadata({ filename: 'too-big.bin', parent_id: parent }),
      });
      assert.equal((await patch(url, carol.access, 0, Buffer.alloc(50, 1))).status, 204);
      const declared = await patch(url, carol.access, 50, Buffer.alloc(100, 1), { 'Upload-Length': '150' });
      assertError(declared, 507, 'quota_exceeded');
      assert.deepEqual(await children(carol.access, parent), []);
      assert.equal(await quotaUsed(carol.access), used);
      // Nothing of the refused request was kept; the client may give up and terminate.
      assert.equal(await offsetOf(url, carol.access), 50);
      assert.equal((await raw(url, 'DELETE', carol.access)).status, 204);
    } finally {
      await setQuota(carol.userId, null);
    }
  });

  test('a deferred-length upload whose declared length fits the quota exactly is accepted (bytes already sent are not counted twice)', async () => {
    const used = await quotaUsed(carol.access);
    await setQuota(carol.userId, used + 100);
    try {
      const { url } = await create(carol.access, { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadata({ filename: 'fits.bin' }) });
      assert.equal((await patch(url, carol.access, 0, Buffer.alloc(60, 1))).status, 204);
      const declared = await patch(url, carol.access, 60, Buffer.alloc(40, 2), { 'Upload-Length': '100' });
      assert.equal(declared.status, 204, declared.text);
      const nodeId = declared.headers.get('service-node-id');
      assert.ok(nodeId);
      assert.equal(await quotaUsed(carol.access), used + 100);
      assert.equal((await t.client.delete(`/nodes/${nodeId}/permanent`, { token: carol.access })).status, 204);
    } finally {
      await setQuota(carol.userId, null);
    }
  });

  test('an upload that passes the quota by the time it completes is refused 507 at completion; no node, upload and temp file gone', async () => {
    const parent = await folder(carol.access, 'Completion quota');
    const used = await quotaUsed(carol.access);
    await setQuota(carol.userId, used + 1000);
    try {
      const { url } = await create(carol.access, {
        'Upload-Length': '800',
        'Upload-Metadata': metadata({ filename: 'late.bin', parent_id: parent }),
      });
      assert.equal((await patch(url, carol.access, 0, Buffer.alloc(400, 1))).status, 204);
      // Meanwhile the admin lowers the quota.
      await setQuota(carol.userId, used + 500);
      const last = await patch(url, carol.access, 400, Buffer.alloc(400, 1));
      assertError(last, 507, 'quota_exceeded');
      assert.equal(last.headers.get('service-node-id'), null);
      assert.deepEqual(await children(carol.access, parent), []);
      assert.equal(await quotaUsed(carol.access), used);
      assert.equal((await head(url, carol.access)).status, 404);
      assert.ok(!(await tempFiles(t.dataDir)).includes(`${url.split('/').pop()}.upload`));
    } finally {
      await setQuota(carol.userId, null);
    }
  });

  test('a new version that would pass the quota is refused 507 and the file keeps its content', async () => {
    const id = await uploadFile(t.api, carol.access, Buffer.from('keep me'), { filename: 'keep.txt' });
    const used = await quotaUsed(carol.access);
    await setQuota(carol.userId, used + 5);
    try {
      assertError(
        await raw(uploadsUrl(), 'POST', carol.access, { 'Upload-Length': '6', 'Upload-Metadata': metadata({ node_id: id }) }),
        507,
        'quota_exceeded',
      );
      assert.equal((await getNode(carol.access, id)).version, 1);
      assert.equal((await download(carol.access, id)).toString(), 'keep me');
    } finally {
      await setQuota(carol.userId, null);
    }
  });
});

describe('expiry', () => {
  test('an abandoned upload expires: after its expiry and a maintenance run HEAD answers 404 and its temp file is gone', async () => {
    const s = await startTestServer({ uploadExpiryMs: 500 });
    try {
      const me = await setupOwner(s.client);
      const post = await fetch(`${s.api}/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${me.access}`, 'Tus-Resumable': TUS, 'Upload-Length': '1000' },
      });
      assert.equal(post.status, 201);
      const expires = Date.parse(post.headers.get('upload-expires')!);
      assert.ok(expires > Date.now() - 1000 && expires <= Date.now() + 1000, 'Upload-Expires follows the configured expiry');
      const url = new URL(post.headers.get('location')!, s.url).toString();
      const id = url.split('/').pop()!;
      const sent = await fetch(url, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${me.access}`, 'Tus-Resumable': TUS, 'Content-Type': OCTET, 'Upload-Offset': '0' },
        body: Buffer.alloc(500, 1),
      });
      assert.equal(sent.status, 204);
      assert.deepEqual(await tempFiles(s.dataDir), [`${id}.upload`]);

      await new Promise((resolve) => setTimeout(resolve, 700));
      // Past its expiry but not yet swept: the upload is gone for the client (410).
      const late = await fetch(url, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${me.access}`, 'Tus-Resumable': TUS, 'Content-Type': OCTET, 'Upload-Offset': '500' },
        body: Buffer.alloc(500, 1),
      });
      assert.equal(late.status, 410);
      assert.equal(((await late.json()) as any).error.code, 'upload_expired');

      await s.server.runMaintenance();
      const gone = await fetch(url, { method: 'HEAD', headers: { authorization: `Bearer ${me.access}`, 'Tus-Resumable': TUS } });
      assert.equal(gone.status, 404);
      assert.equal(gone.headers.get('tus-resumable'), TUS);
      assert.deepEqual(await tempFiles(s.dataDir), []);
      const list = await s.client.get('/nodes?parent_id=root', { token: me.access });
      assert.deepEqual(list.body.items, []);
    } finally {
      await s.close();
    }
  });
});

describe('events', () => {
  interface Message {
    type: string;
    at: number;
    payload: any;
  }

  async function listen(who: SignedIn): Promise<{ messages: Message[]; close: () => void }> {
    const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/api/v1/ws`, { headers: { authorization: `Bearer ${who.access}` } });
    const messages: Message[] = [];
    ws.on('message', (data: RawData) => messages.push(JSON.parse(data.toString()) as Message));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return { messages, close: () => ws.close() };
  }

  async function waitFor(messages: Message[], match: (m: Message) => boolean, timeoutMs = 5000): Promise<Message> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such event; got ${JSON.stringify(messages.map((m) => m.type))}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** No window of one second holds more than four progress events of one upload. */
  function assertAtMostFourPerSecond(events: Message[]): void {
    const times = events.map((m) => m.at).sort((a, b) => a - b);
    for (let i = 0; i + 4 < times.length; i++) {
      assert.ok(times[i + 4]! - times[i]! >= 1000, `five progress events within ${times[i + 4]! - times[i]!} ms: ${JSON.stringify(times)}`);
    }
  }

  test('a multi-chunk upload sends upload.progress events (at most 4 a second), then node.created and quota.updated', async () => {
    const dave = await createMember(t.client, owner, 'dave');
    const socket = await listen(dave);
    const bystander = await listen(bob);
    try {
      const data = crypto.randomBytes(5 * MiB);
      const id = await uploadFile(t.api, dave.access, data, { filename: 'evented.bin', chunkSize: MiB });
      const created = await waitFor(socket.messages, (m) => m.type === 'node.created' && m.payload.node.id === id);
      assert.equal(created.payload.node.size, 5 * MiB);
      const quota = await waitFor(socket.messages, (m) => m.type === 'quota.updated' && m.payload.used === 5 * MiB);
      assert.equal(quota.payload.user_id, dave.userId);
      const progress = socket.messages.filter((m) => m.type === 'upload.progress');
      assert.ok(progress.length >= 1, 'at least one upload.progress');
      const uploadIds = new Set(progress.map((m) => m.payload.upload_id));
      assert.equal(uploadIds.size, 1);
      for (const m of progress) {
        assert.equal(m.payload.length, 5 * MiB);
        assert.ok(m.payload.offset > 0 && m.payload.offset <= 5 * MiB);
      }
      const offsets = progress.map((m) => m.payload.offset);
      assert.deepEqual(
        offsets,
        [...offsets].sort((a, b) => a - b),
        'offsets only grow',
      );
      assertAtMostFourPerSecond(progress);
      // Another account hears nothing of it.
      assert.deepEqual(
        bystander.messages.filter((m) => m.type === 'upload.progress' || m.type === 'node.created' || m.type === 'quota.updated'),
        [],
      );
    } finally {
      socket.close();
      bystander.close();
    }
  });

  test('a slow upload keeps reporting upload.progress while bytes arrive, never more than 4 a second', async () => {
    const erin = await createMember(t.client, owner, 'erin');
    const socket = await listen(erin);
    try {
      const total = 32 * 64 * 1024;
      const { url } = await create(erin.access, { 'Upload-Length': String(total), 'Upload-Metadata': metadata({ filename: 'slow.bin' }) });
      // One PATCH whose body trickles in over about 1.6 s, then two quick ones.
      const first = 16 * 64 * 1024;
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= first) {
            controller.close();
            return;
          }
          await new Promise((resolve) => setTimeout(resolve, 100));
          controller.enqueue(new Uint8Array(64 * 1024).fill(sent / 65536));
          sent += 64 * 1024;
        },
      });
      const res = await fetch(url, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${erin.access}`, 'Tus-Resumable': TUS, 'Content-Type': OCTET, 'Upload-Offset': '0' },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(res.status, 204);
      const half = total / 2;
      assert.equal((await patch(url, erin.access, first, Buffer.alloc(half / 2, 1))).status, 204);
      const done = await patch(url, erin.access, first + half / 2, Buffer.alloc(half / 2, 2));
      assert.equal(done.status, 204);
      const id = done.headers.get('service-node-id');
      await waitFor(socket.messages, (m) => m.type === 'node.created' && m.payload.node.id === id);
      const progress = socket.messages.filter((m) => m.type === 'upload.progress');
      assert.ok(progress.length >= 4, `expected progress while the slow body arrived, got ${progress.length}`);
      assertAtMostFourPerSecond(progress);
    } finally {
      socket.close();
    }
  });
});
