import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * The SHA-256 an upload records (what a phone backup asks about, what merges files with the
 * same bytes) is carried from one PATCH to the next instead of read from the finished file: it
 * must be the whole content's whatever happened between the requests. Seen through
 * POST /nodes/check-hashes, which finds a file only by the hash recorded for it.
 */

const MiB = 1024 * 1024;
const TUS = '1.0.0';
const OCTET = 'application/offset+octet-stream';

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

const sha256 = (data: Buffer, encoding: 'hex' | 'base64' = 'hex') => crypto.createHash('sha256').update(data).digest(encoding);

/** The file the server holds under `data`'s SHA-256, or null. */
async function fileWithHash(data: Buffer): Promise<string | null> {
  const res = await t.client.post('/nodes/check-hashes', { algorithm: 'sha256', hashes: [sha256(data)] }, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items[0].state === 'present' ? res.body.items[0].node_id : null;
}

async function tus(method: string, url: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Response> {
  return fetch(url, {
    method,
    headers: { 'Tus-Resumable': TUS, authorization: `Bearer ${owner.access}`, ...headers },
    body: body as BodyInit | undefined,
  });
}

async function create(length: number, name: string): Promise<string> {
  const metadata = `filename ${Buffer.from(name).toString('base64')}`;
  const res = await tus('POST', `${t.api}/uploads`, { 'Upload-Length': String(length), 'Upload-Metadata': metadata });
  assert.equal(res.status, 201, await res.text());
  return res.headers.get('location')!;
}

function patch(url: string, offset: number, body: Buffer, headers: Record<string, string> = {}): Promise<Response> {
  return tus('PATCH', url, { 'Content-Type': OCTET, 'Upload-Offset': String(offset), ...headers }, body);
}

async function offsetOf(url: string): Promise<number> {
  const res = await tus('HEAD', url);
  assert.equal(res.status, 200);
  return Number(res.headers.get('upload-offset'));
}

/** Sends the rest of `data` from where the server says the upload is, as a tus client resumes; the node id. */
async function finish(url: string, data: Buffer): Promise<string> {
  for (let tries = 0; tries < 20; tries++) {
    const offset = await offsetOf(url);
    const res = await patch(url, offset, data.subarray(offset));
    // An earlier request may still be writing what it got (409 until it has): ask again.
    if (res.status === 409) continue;
    assert.equal(res.status, 204, await res.text());
    return res.headers.get('service-node-id')!;
  }
  throw new Error('the upload never took the rest');
}

describe('the SHA-256 recorded for an upload is its whole content', () => {
  test('sent in many PATCHes by tus-js-client', async () => {
    const data = crypto.randomBytes(5 * MiB + 123);
    const nodeId = await uploadFile(t.api, owner.access, data, { filename: 'chunks.bin', chunkSize: MiB });
    assert.equal(await fileWithHash(data), nodeId);
  });

  test('with a PATCH refused for its checksum and one refused for too many bytes in between, each sent again', async () => {
    const data = crypto.randomBytes(3 * MiB);
    const url = await create(data.length, 'refused.bin');
    assert.equal((await patch(url, 0, data.subarray(0, MiB))).status, 204);
    const part = data.subarray(MiB, 2 * MiB);
    const wrong = await patch(url, MiB, part, { 'Upload-Checksum': `sha256 ${sha256(crypto.randomBytes(8), 'base64')}` });
    assert.equal(wrong.status, 460);
    assert.equal(await offsetOf(url), MiB);
    const tooMany = await patch(url, MiB, Buffer.concat([data.subarray(MiB), crypto.randomBytes(10)]));
    assert.equal(tooMany.status, 413);
    assert.equal(await offsetOf(url), MiB);
    assert.equal((await patch(url, MiB, part, { 'Upload-Checksum': `sha256 ${sha256(part, 'base64')}` })).status, 204);
    const nodeId = await finish(url, data);
    assert.equal(await fileWithHash(data), nodeId);
  });

  test('with a connection dropped in the middle of a PATCH, the rest sent from the offset on disk', async () => {
    const data = crypto.randomBytes(6 * MiB + 77);
    const url = await create(data.length, 'dropped.bin');
    const target = new URL(url);
    const req = http.request({
      host: target.hostname,
      port: target.port,
      path: target.pathname,
      method: 'PATCH',
      headers: {
        'Tus-Resumable': TUS,
        authorization: `Bearer ${owner.access}`,
        'Content-Type': OCTET,
        'Upload-Offset': '0',
        'Content-Length': String(data.length),
      },
    });
    req.on('error', () => {});
    // A part that does not end on a MiB: some of it waits to be written when the connection goes.
    req.write(data.subarray(0, 3 * MiB + 4321));
    const deadline = Date.now() + 10_000;
    while ((await offsetOf(url)) < MiB && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    req.destroy();
    const nodeId = await finish(url, data);
    assert.equal(await fileWithHash(data), nodeId);
    const download = await fetch(`${t.api}/nodes/${nodeId}/download`, { headers: { authorization: `Bearer ${owner.access}` } });
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(data));
  });

  test('in PATCHes large enough that the disk takes their bytes in flushes while they arrive', async () => {
    // 8 MiB between flushes (blobs.ts): the first PATCH spans several from offset 0, the second
    // from an offset that does not fall on one.
    const data = crypto.randomBytes(30 * MiB + 5);
    const url = await create(data.length, 'flushed.bin');
    const first = await patch(url, 0, data.subarray(0, 19 * MiB + 3));
    assert.equal(first.status, 204, await first.text());
    assert.equal(first.headers.get('upload-offset'), String(19 * MiB + 3));
    const second = await patch(url, 19 * MiB + 3, data.subarray(19 * MiB + 3));
    assert.equal(second.status, 204, await second.text());
    const nodeId = second.headers.get('service-node-id')!;
    assert.equal(await fileWithHash(data), nodeId);
    const download = await fetch(`${t.api}/nodes/${nodeId}/download`, { headers: { authorization: `Bearer ${owner.access}` } });
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(data));
  });
});
