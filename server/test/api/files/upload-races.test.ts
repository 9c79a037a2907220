import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Quota and upload state under real parallel requests: a check, an `await`, then the act
 * must never let two requests through on the same free space.
 */

const KB = 1024;
const MB = 1024 * 1024;
const TUS = '1.0.0';
const OCTET = 'application/offset+octet-stream';

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/** One request over its own connection; the body may be written later, bit by bit. */
function request(method: string, url: string, token: string, headers: Record<string, string | number> = {}) {
  const req = http.request(url, {
    method,
    agent: false,
    headers: { authorization: `Bearer ${token}`, 'Tus-Resumable': TUS, ...headers },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const json = (res.headers['content-type'] ?? '').includes('json') && text !== '' ? JSON.parse(text) : null;
        resolve({ status: res.statusCode!, headers: res.headers, text, json });
      });
    });
  });
  return { req, answer };
}

function send(method: string, url: string, token: string, headers: Record<string, string | number> = {}, body?: Buffer): Promise<Answer> {
  const { req, answer } = request(method, url, token, body ? { ...headers, 'Content-Length': body.length } : headers);
  req.end(body);
  return answer;
}

async function createUpload(token: string, headers: Record<string, string>): Promise<string> {
  const res = await send('POST', `${t.api}/uploads`, token, headers);
  assert.equal(res.status, 201, res.text);
  return new URL(res.headers.location!, t.url).toString();
}

function assertEnvelope(res: Answer, status: number, code: string): void {
  assert.equal(res.status, status, res.text);
  assert.equal(res.json?.error?.code, code, res.text);
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

async function childrenOf(token: string, parentId: string | null): Promise<any[]> {
  const res = await t.client.get(`/nodes?parent_id=${parentId ?? 'root'}&limit=1000`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items;
}

async function tempSize(uploadUrl: string): Promise<number | null> {
  const id = uploadUrl.split('/').pop()!;
  try {
    return (await fs.stat(path.join(t.dataDir, 'files', 'tmp', `${id}.upload`))).size;
  } catch {
    return null;
  }
}

/** Samples the account's usage (GET /me) until stopped: what any client could have seen. */
function watchUsage(token: string): { stop: () => Promise<number[]> } {
  const seen: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      seen.push(await quotaUsed(token));
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}

describe('the quota under parallel uploads', () => {
  test('with a 1 MB quota, 6 parallel 900 KB tus-js-client uploads: at most one completes, the others get 507 quota_exceeded, and usage never passes the quota', async () => {
    const dana = await createMember(t.client, owner, 'dana');
    await setQuota(dana.userId, MB);
    const events = await EventSocket.open(t.url, dana.access);
    const usage = watchUsage(dana.access);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => uploadFile(t.api, dana.access, Buffer.alloc(900 * KB, i + 1), { filename: `part-${i}.bin` })),
    );
    const seen = await usage.stop();
    const done = results.filter((r) => r.status === 'fulfilled');
    assert.ok(done.length <= 1, `${done.length} uploads completed`);
    for (const result of results) {
      if (result.status === 'fulfilled') continue;
      const response = (result.reason as { originalResponse?: { getStatus(): number; getBody(): string } }).originalResponse;
      assert.ok(response, String(result.reason));
      assert.equal(response.getStatus(), 507, response.getBody());
      assert.equal(JSON.parse(response.getBody()).error.code, 'quota_exceeded');
    }
    const used = await quotaUsed(dana.access);
    assert.equal(used, done.length * 900 * KB);
    assert.equal((await childrenOf(dana.access, null)).length, done.length);
    for (const value of seen) assert.ok(value <= MB, `GET /me showed ${value} bytes used`);
    // Every usage the account was told about over its WebSocket stayed within the quota too.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const message of events.pending().filter((m) => m.type === 'quota.updated')) {
      assert.ok(message.payload.used <= MB, `quota.updated said ${message.payload.used}`);
    }
    events.close();
  });

  test('parallel creations are reserved one by one: 6 POSTs of 900 KB each against a 1 MB quota create exactly one upload', async () => {
    const erin = await createMember(t.client, owner, 'erin');
    await setQuota(erin.userId, MB);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        send('POST', `${t.api}/uploads`, erin.access, {
          'Upload-Length': String(900 * KB),
          'Upload-Metadata': metadata({ filename: `c${i}.bin` }),
        }),
      ),
    );
    assert.equal(answers.filter((a) => a.status === 201).length, 1, answers.map((a) => a.status).join(','));
    for (const answer of answers.filter((a) => a.status !== 201)) assertEnvelope(answer, 507, 'quota_exceeded');
  });

  test('parallel restores of an old version count once each: with room for one, exactly one restore succeeds and usage stays within the quota', async () => {
    const fay = await createMember(t.client, owner, 'fay');
    const id = await uploadFile(t.api, fay.access, Buffer.alloc(400 * KB, 1), { filename: 'doc.bin' });
    await uploadFile(t.api, fay.access, Buffer.alloc(100 * KB, 2), { nodeId: id });
    const versions = await t.client.get(`/nodes/${id}/versions`, { token: fay.access });
    const first = versions.body.items.find((v: any) => v.version === 1);
    // 500 KB used; room for one more copy of version 1 (400 KB), not two.
    await setQuota(fay.userId, 1000 * KB);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => t.client.post(`/nodes/${id}/versions/${first.id}/restore`, undefined, { token: fay.access })),
    );
    const statuses = answers.map((a) => a.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    for (const answer of answers.filter((a) => a.status !== 200)) {
      assert.equal(answer.status, 507, JSON.stringify(answer.body));
      assert.equal(answer.body.error.code, 'quota_exceeded');
    }
    assert.equal(await quotaUsed(fay.access), 900 * KB);
  });
});

describe('deferred-length uploads and the quota', () => {
  test('a deferred-length upload cannot hold more than the remaining quota: a 5 MB PATCH against a 1 MB quota is refused 507 and the temp file stays within the quota', async () => {
    const gus = await createMember(t.client, owner, 'gus');
    await setQuota(gus.userId, MB);
    const url = await createUpload(gus.access, { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadata({ filename: 'big.bin' }) });
    const big = await send('PATCH', url, gus.access, { 'Content-Type': OCTET, 'Upload-Offset': '0' }, Buffer.alloc(5 * MB, 7));
    assertEnvelope(big, 507, 'quota_exceeded');
    assert.ok((await tempSize(url))! <= MB, `temp file holds ${await tempSize(url)} bytes`);

    // Without a Content-Length (a chunked stream), the bytes past the remaining quota are refused the same way.
    const { req, answer } = request('PATCH', url, gus.access, { 'Content-Type': OCTET, 'Upload-Offset': String((await tempSize(url))!) });
    req.on('error', () => {});
    for (let i = 0; i < 40; i++) req.write(Buffer.alloc(128 * KB, 3));
    req.end();
    assertEnvelope(await answer, 507, 'quota_exceeded');
    assert.ok((await tempSize(url))! <= MB, `temp file holds ${await tempSize(url)} bytes`);
    assert.equal(await quotaUsed(gus.access), 0);
  });

  test('parallel deferred-length PATCHes on 6 uploads share the remaining quota: their bytes together never pass it', async () => {
    const hal = await createMember(t.client, owner, 'hal');
    await setQuota(hal.userId, MB);
    const urls = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        createUpload(hal.access, { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadata({ filename: `d${i}.bin` }) }),
      ),
    );
    const answers = await Promise.all(
      urls.map((url) => send('PATCH', url, hal.access, { 'Content-Type': OCTET, 'Upload-Offset': '0' }, Buffer.alloc(300 * KB, 5))),
    );
    const accepted = answers.filter((a) => a.status === 204).length;
    assert.ok(accepted <= 3, `${accepted} PATCHes of 300 KB accepted under a 1 MB quota`);
    for (const answer of answers.filter((a) => a.status !== 204)) assertEnvelope(answer, 507, 'quota_exceeded');
    const held = (await Promise.all(urls.map(tempSize))).reduce<number>((sum, size) => sum + (size ?? 0), 0);
    assert.ok(held <= MB, `the uploads hold ${held} bytes`);
    // A further upload sees the space those bytes hold.
    const more = await send('POST', `${t.api}/uploads`, hal.access, { 'Upload-Length': String(MB - held + 1) });
    assertEnvelope(more, 507, 'quota_exceeded');
  });

  test('a deferred-length upload within its quota still completes when its length is declared', async () => {
    const ida = await createMember(t.client, owner, 'ida');
    await setQuota(ida.userId, MB);
    const url = await createUpload(ida.access, { 'Upload-Defer-Length': '1', 'Upload-Metadata': metadata({ filename: 'ok.bin' }) });
    assert.equal(
      (await send('PATCH', url, ida.access, { 'Content-Type': OCTET, 'Upload-Offset': '0' }, Buffer.alloc(600 * KB, 1))).status,
      204,
    );
    const last = await send(
      'PATCH',
      url,
      ida.access,
      { 'Content-Type': OCTET, 'Upload-Offset': String(600 * KB), 'Upload-Length': String(MB) },
      Buffer.alloc(MB - 600 * KB, 2),
    );
    assert.equal(last.status, 204, last.text);
    assert.ok(last.headers['service-node-id']);
    assert.equal(await quotaUsed(ida.access), MB);
  });
});

describe('access is checked again when an upload completes', () => {
  let jo: SignedIn;
  let shared: string;

  before(async () => {
    jo = await createMember(t.client, owner, 'joan');
  });

  async function shareWithJo(): Promise<void> {
    shared = (await t.client.post('/nodes/folder', { name: `Shared ${Date.now()}-${Math.random()}` }, { token: owner.access })).body.id;
    const grant = await t.client.post(`/nodes/${shared}/permissions`, { user_id: jo.userId, role: 'editor' }, { token: owner.access });
    assert.equal(grant.status, 201, JSON.stringify(grant.body));
  }

  async function revokeJo(): Promise<void> {
    assert.equal((await t.client.delete(`/nodes/${shared}/permissions/${jo.userId}`, { token: owner.access })).status, 204);
  }

  test('a completing PATCH still streaming when the uploader loses access does not become a file in the folder', async () => {
    await shareWithJo();
    const url = await createUpload(jo.access, {
      'Upload-Length': String(200 * KB),
      'Upload-Metadata': metadata({ filename: 'late.bin', parent_id: shared }),
    });
    const { req, answer } = request('PATCH', url, jo.access, { 'Content-Type': OCTET, 'Upload-Offset': '0', 'Content-Length': 200 * KB });
    req.write(Buffer.alloc(100 * KB, 1));
    // The first half is on disk before access goes away.
    for (let i = 0; i < 200 && ((await tempSize(url)) ?? 0) < 100 * KB; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    await revokeJo();
    req.end(Buffer.alloc(100 * KB, 2));
    const res = await answer;
    assertEnvelope(res, 404, 'not_found');
    assert.equal(res.headers['service-node-id'], undefined);
    assert.deepEqual(await childrenOf(owner.access, shared), []);
    assert.equal(await tempSize(url), null, 'the temp file is removed');
  });

  test('an upload whose bytes were all on disk before its uploader lost access is not completed by a HEAD', async () => {
    await shareWithJo();
    const url = await createUpload(jo.access, {
      'Upload-Length': '10',
      'Upload-Metadata': metadata({ filename: 'crashed.bin', parent_id: shared }),
    });
    assert.equal((await send('PATCH', url, jo.access, { 'Content-Type': OCTET, 'Upload-Offset': '0' }, Buffer.from('12345'))).status, 204);
    await revokeJo();
    // The state a crash leaves when the last bytes were written and the completion never ran:
    // the temp file is whole, the upload is not a node yet.
    const id = url.split('/').pop()!;
    await fs.appendFile(path.join(t.dataDir, 'files', 'tmp', `${id}.upload`), '67890');
    const head = await send('HEAD', url, jo.access);
    assert.equal(head.status, 404);
    assert.equal(head.headers['service-node-id'], undefined);
    assert.deepEqual(await childrenOf(owner.access, shared), []);
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
    try {
      assert.equal((db.prepare("SELECT count(*) AS n FROM nodes WHERE name = 'crashed.bin'").get() as { n: number }).n, 0);
    } finally {
      db.close();
    }
  });
});

describe('termination and append take the same lock', () => {
  test('a DELETE while a PATCH of the same upload is streaming: the DELETE answers 204, the PATCH a 4xx envelope or a cut connection, and the server logs no internal error', async () => {
    // Its own server, logging errors: an aborted PATCH's client may only see its connection cut,
    // so the server's own account of the request is what shows a 500.
    const logged: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      const line = String(chunk);
      if (!line.includes('"level":"error"')) return write(chunk, ...rest);
      logged.push(line);
      return true;
    }) as typeof process.stderr.write;
    const s = await startTestServer({ logLevel: 'error' });
    try {
      const kim = await setupOwner(s.client);
      for (let round = 0; round < 30; round++) {
        const created = await send('POST', `${s.api}/uploads`, kim.access, {
          'Upload-Length': String(MB),
          'Upload-Metadata': metadata({ filename: `race-${round}.bin` }),
        });
        assert.equal(created.status, 201, created.text);
        const url = new URL(created.headers.location!, s.url).toString();
        const temp = path.join(s.dataDir, 'files', 'tmp', `${url.split('/').pop()}.upload`);
        const size = () =>
          fs.stat(temp).then(
            (st) => st.size,
            () => null,
          );
        // Half the rounds cut in while the PATCH streams, half send both at the same moment.
        const streaming = round % 2 === 0;
        const { req, answer } = request('PATCH', url, kim.access, {
          'Content-Type': OCTET,
          'Upload-Offset': '0',
          'Content-Length': 256 * KB,
        });
        req.on('error', () => {});
        if (streaming) {
          req.write(Buffer.alloc(128 * KB, 1));
          for (let i = 0; i < 200 && ((await size()) ?? 0) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
        }
        const [deleted, patched] = await Promise.all([
          send('DELETE', url, kim.access),
          answer.catch(() => null),
          new Promise((resolve) => setTimeout(resolve, round % 3)).then(() => req.end(Buffer.alloc(streaming ? 128 * KB : 256 * KB, 2))),
        ]);
        assert.equal(deleted.status, 204, deleted.text);
        if (patched) {
          assert.ok(patched.status < 500, `PATCH answered ${patched.status}: ${patched.text}`);
          if (patched.status >= 400) assert.ok(patched.json?.error?.code, patched.text);
        }
        assert.equal(await size(), null);
        assert.equal((await send('HEAD', url, kim.access)).status, 404);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(logged, []);
    } finally {
      process.stderr.write = write;
      await s.close();
    }
  });
});
