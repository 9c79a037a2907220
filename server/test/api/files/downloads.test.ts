import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

interface Got {
  status: number;
  headers: Headers;
  body: Buffer;
}

let t: TestServer;
let owner: SignedIn;
let bob: SignedIn;

/** GET (or HEAD) /nodes/{id}/download with the owner's bearer token unless told otherwise. */
async function get(
  id: string,
  headers: Record<string, string> = {},
  options: { token?: string | null; query?: string; method?: string } = {},
): Promise<Got> {
  const token = options.token === undefined ? owner.access : options.token;
  const all: Record<string, string> = { ...headers };
  if (token !== null) all.authorization = `Bearer ${token}`;
  const res = await fetch(`${t.api}/nodes/${id}/download${options.query ?? ''}`, { method: options.method ?? 'GET', headers: all });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function errorCode(got: Got): string {
  assert.match(got.headers.get('content-type') ?? '', /application\/json/);
  const body = JSON.parse(got.body.toString()) as any;
  assert.equal(typeof body.error.message, 'string');
  return body.error.code;
}

/** A tiny valid PNG (1x1). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

const NAME = 'Résumé été 2024 "final".txt';
const DATA = crypto.randomBytes(1000);
let fileId: string;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  bob = await createMember(t.client, owner, 'bob');
  fileId = await uploadFile(t.api, owner.access, DATA, { filename: NAME });
});
after(() => t.close());

describe('full downloads', () => {
  test('a download is 200 with the bytes, Content-Length, ETag, Last-Modified, Accept-Ranges, an attachment of plain bytes with the UTF-8 name and nosniff', async () => {
    const got = await get(fileId);
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(DATA));
    assert.equal(got.headers.get('content-length'), String(DATA.length));
    assert.match(got.headers.get('etag') ?? '', /^"[^"]+"$/);
    const lastModified = got.headers.get('last-modified') ?? '';
    assert.match(lastModified, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    assert.ok(Math.abs(Date.parse(lastModified) - Date.now()) < 60_000);
    assert.equal(got.headers.get('accept-ranges'), 'bytes');
    assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(got.headers.get('content-type'), 'application/octet-stream');
    const disposition = got.headers.get('content-disposition') ?? '';
    assert.match(disposition, /^attachment; /);
    const star = /filename\*=UTF-8''([^;\s]+)/.exec(disposition);
    assert.ok(star, disposition);
    assert.equal(decodeURIComponent(star[1]!), NAME);
    const fallback = /filename="([^"]*)"/.exec(disposition);
    assert.ok(fallback, disposition);
    assert.match(fallback[1]!, /^[\x20-\x7e]+$/);
  });

  test('HEAD answers the headers of a download without the body', async () => {
    const got = await get(fileId, {}, { method: 'HEAD' });
    assert.equal(got.status, 200);
    assert.equal(got.body.length, 0);
    assert.equal(got.headers.get('content-length'), String(DATA.length));
    assert.equal(got.headers.get('accept-ranges'), 'bytes');
    assert.ok(got.headers.get('etag'));
    const ranged = await get(fileId, { Range: 'bytes=0-9' }, { method: 'HEAD' });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.body.length, 0);
    assert.equal(ranged.headers.get('content-length'), '10');
    assert.equal(ranged.headers.get('content-range'), `bytes 0-9/${DATA.length}`);
  });

  test('a zero-byte file downloads as 200 with Content-Length 0, and any range of it is 416 bytes */0', async () => {
    const empty = await uploadFile(t.api, owner.access, Buffer.alloc(0), { filename: 'empty.bin' });
    const got = await get(empty);
    assert.equal(got.status, 200);
    assert.equal(got.headers.get('content-length'), '0');
    assert.equal(got.body.length, 0);
    const ranged = await get(empty, { Range: 'bytes=0-' });
    assert.equal(ranged.status, 416);
    assert.equal(ranged.headers.get('content-range'), 'bytes */0');
    assert.equal(errorCode(ranged), 'invalid_range');
  });
});

describe('ranges', () => {
  const N = DATA.length;

  test('Range bytes=0-9 is 206 with Content-Range bytes 0-9/N and exactly those bytes', async () => {
    const got = await get(fileId, { Range: 'bytes=0-9' });
    assert.equal(got.status, 206);
    assert.equal(got.headers.get('content-range'), `bytes 0-9/${N}`);
    assert.equal(got.headers.get('content-length'), '10');
    assert.ok(got.body.equals(DATA.subarray(0, 10)));
    assert.ok(got.headers.get('etag'));
    assert.equal(got.headers.get('accept-ranges'), 'bytes');
  });

  test('a range in the middle and an open-ended range give exactly those bytes', async () => {
    const middle = await get(fileId, { Range: 'bytes=100-199' });
    assert.equal(middle.status, 206);
    assert.equal(middle.headers.get('content-range'), `bytes 100-199/${N}`);
    assert.ok(middle.body.equals(DATA.subarray(100, 200)));
    const open = await get(fileId, { Range: 'bytes=990-' });
    assert.equal(open.status, 206);
    assert.equal(open.headers.get('content-range'), `bytes 990-${N - 1}/${N}`);
    assert.ok(open.body.equals(DATA.subarray(990)));
    const last = await get(fileId, { Range: `bytes=${N - 1}-${N - 1}` });
    assert.equal(last.status, 206);
    assert.ok(last.body.equals(DATA.subarray(N - 1)));
  });

  test('a file of many MiB read at full speed, whole and as a Range from an odd offset, gives exactly its bytes', async () => {
    // A fast reader gets larger reads once it has shown its pace (file-span.ts): the bytes
    // either side of the change, and a last read shorter than the buffer, must all be right.
    const big = crypto.randomBytes(21 * 1024 * 1024 + 333);
    const id = await uploadFile(t.api, owner.access, big, { filename: 'big.bin' });
    const whole = await get(id);
    assert.equal(whole.status, 200);
    assert.ok(whole.body.equals(big));
    const start = 1024 * 1024 + 77;
    const end = big.length - 1000;
    const ranged = await get(id, { Range: `bytes=${start}-${end}` });
    assert.equal(ranged.status, 206);
    assert.ok(ranged.body.equals(big.subarray(start, end + 1)));
  });

  test('an end past the file is clamped to the last byte', async () => {
    const got = await get(fileId, { Range: `bytes=${N - 5}-${N + 5000}` });
    assert.equal(got.status, 206);
    assert.equal(got.headers.get('content-range'), `bytes ${N - 5}-${N - 1}/${N}`);
    assert.ok(got.body.equals(DATA.subarray(N - 5)));
  });

  test('suffix ranges: bytes=-10 is the last ten bytes, a suffix longer than the file is the whole file as 206', async () => {
    const tail = await get(fileId, { Range: 'bytes=-10' });
    assert.equal(tail.status, 206);
    assert.equal(tail.headers.get('content-range'), `bytes ${N - 10}-${N - 1}/${N}`);
    assert.ok(tail.body.equals(DATA.subarray(N - 10)));
    const all = await get(fileId, { Range: `bytes=-${N + 100}` });
    assert.equal(all.status, 206);
    assert.equal(all.headers.get('content-range'), `bytes 0-${N - 1}/${N}`);
    assert.ok(all.body.equals(DATA));
  });

  test('a range starting at or past the end is 416 with Content-Range bytes */N and the JSON envelope', async () => {
    for (const range of [`bytes=${N}-`, `bytes=${N + 10}-${N + 20}`]) {
      const got = await get(fileId, { Range: range });
      assert.equal(got.status, 416, range);
      assert.equal(got.headers.get('content-range'), `bytes */${N}`);
      assert.equal(errorCode(got), 'invalid_range');
    }
  });

  test('several ranges, another unit or a malformed header get the whole file with 200', async () => {
    for (const range of ['bytes=0-1,5-9', 'items=0-9', 'bytes=abc', 'bytes=9-0']) {
      const got = await get(fileId, { Range: range });
      assert.equal(got.status, 200, range);
      assert.equal(got.headers.get('content-range'), null);
      assert.ok(got.body.equals(DATA));
    }
  });
});

describe('validators', () => {
  test('If-None-Match with the current ETag is 304 without a body', async () => {
    const etag = (await get(fileId)).headers.get('etag')!;
    const got = await get(fileId, { 'If-None-Match': etag });
    assert.equal(got.status, 304);
    assert.equal(got.body.length, 0);
    assert.equal(got.headers.get('etag'), etag);
    const other = await get(fileId, { 'If-None-Match': '"something-else"' });
    assert.equal(other.status, 200);
    assert.ok(other.body.equals(DATA));
  });

  test('If-Range with the current ETag or the exact Last-Modified date applies the range; a weak ETag does not', async () => {
    const first = await get(fileId);
    const etag = first.headers.get('etag')!;
    const byEtag = await get(fileId, { Range: 'bytes=0-9', 'If-Range': etag });
    assert.equal(byEtag.status, 206);
    assert.ok(byEtag.body.equals(DATA.subarray(0, 10)));
    const byDate = await get(fileId, { Range: 'bytes=0-9', 'If-Range': first.headers.get('last-modified')! });
    assert.equal(byDate.status, 206);
    const weak = await get(fileId, { Range: 'bytes=0-9', 'If-Range': `W/${etag}` });
    assert.equal(weak.status, 200);
    assert.ok(weak.body.equals(DATA));
  });

  test('after a new version the ETag changes: If-Range with the old ETag sends the whole new file (200) and If-None-Match no longer matches', async () => {
    const v1 = crypto.randomBytes(300);
    const v2 = crypto.randomBytes(400);
    const id = await uploadFile(t.api, owner.access, v1, { filename: 'changing.bin' });
    const oldEtag = (await get(id)).headers.get('etag')!;
    await uploadFile(t.api, owner.access, v2, { nodeId: id });
    const current = await get(id);
    assert.ok(current.body.equals(v2));
    const newEtag = current.headers.get('etag')!;
    assert.notEqual(newEtag, oldEtag);

    const stale = await get(id, { Range: 'bytes=0-9', 'If-Range': oldEtag });
    assert.equal(stale.status, 200);
    assert.equal(stale.headers.get('content-range'), null);
    assert.ok(stale.body.equals(v2));
    const fresh = await get(id, { Range: 'bytes=0-9', 'If-Range': newEtag });
    assert.equal(fresh.status, 206);
    assert.ok(fresh.body.equals(v2.subarray(0, 10)));
    assert.equal((await get(id, { 'If-None-Match': oldEtag })).status, 200);
    assert.equal((await get(id, { 'If-None-Match': newEtag })).status, 304);
  });
});

describe('tokens and access', () => {
  test('?access_token= with a token minted for the file works on download, and not on GET /nodes/{id}', async () => {
    const minted = await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token: owner.access });
    const query = `?access_token=${encodeURIComponent(minted.body.access_token)}`;
    const got = await get(fileId, {}, { token: null, query });
    assert.equal(got.status, 200);
    assert.ok(got.body.equals(DATA));
    const node = await fetch(`${t.api}/nodes/${fileId}${query}`);
    assert.equal(node.status, 401);
    const body = (await node.json()) as any;
    assert.equal(typeof body.error.code, 'string');
    const bad = await get(fileId, {}, { token: null, query: '?access_token=not-a-token' });
    assert.equal(bad.status, 401);
  });

  test('without any token a download is 401', async () => {
    const got = await get(fileId, {}, { token: null });
    assert.equal(got.status, 401);
    assert.equal(typeof errorCode(got), 'string');
  });

  test("another account's file is 404 not_found, by header or when asking for its URL token, and so is an unknown id", async () => {
    const byHeader = await get(fileId, {}, { token: bob.access });
    assert.equal(byHeader.status, 404);
    assert.equal(errorCode(byHeader), 'not_found');
    const minting = await t.client.post(`/nodes/${fileId}/access-token`, undefined, { token: bob.access });
    assert.equal(minting.status, 404);
    assert.equal(minting.body.error.code, 'not_found');
    const unknown = await get('01HZZZZZZZZZZZZZZZZZZZZZZZ');
    assert.equal(unknown.status, 404);
    assert.equal(errorCode(unknown), 'not_found');
  });

  test('a folder cannot be downloaded: 400', async () => {
    const folder = await t.client.post('/nodes/folder', { name: 'A folder' }, { token: owner.access });
    assert.equal(folder.status, 201);
    const got = await get(folder.body.id);
    assert.equal(got.status, 400);
    assert.equal(errorCode(got), 'invalid_input');
  });
});

describe('content is never rendered as a page on the server origin', () => {
  test('an HTML file is an attachment and not text/html, even with ?inline=1, and carries a sandbox CSP', async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
    const id = await uploadFile(t.api, owner.access, html, { filename: 'page.html', filetype: 'text/html' });
    for (const query of ['', '?inline=1', '?inline=true']) {
      const got = await get(id, {}, { query });
      assert.equal(got.status, 200, query);
      assert.match(got.headers.get('content-disposition') ?? '', /^attachment;/, query);
      assert.doesNotMatch(got.headers.get('content-type') ?? '', /html/i, query);
      assert.equal(got.headers.get('x-content-type-options'), 'nosniff');
      assert.match(got.headers.get('content-security-policy') ?? '', /\bsandbox\b/);
      assert.ok(got.body.equals(html));
    }
  });

  test('an SVG is never inline and not served as image/svg+xml', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>');
    const id = await uploadFile(t.api, owner.access, svg, { filename: 'drawing.svg' });
    const got = await get(id, {}, { query: '?inline=1' });
    assert.equal(got.status, 200);
    assert.match(got.headers.get('content-disposition') ?? '', /^attachment;/);
    assert.doesNotMatch(got.headers.get('content-type') ?? '', /svg|xml|html/i);
  });

  test('an image with ?inline=1 is inline, typed as the image, with a Content-Security-Policy containing sandbox', async () => {
    const id = await uploadFile(t.api, owner.access, PNG, { filename: 'dot.png' });
    const inline = await get(id, {}, { query: '?inline=1' });
    assert.equal(inline.status, 200);
    assert.match(inline.headers.get('content-disposition') ?? '', /^inline;/);
    assert.equal(inline.headers.get('content-type'), 'image/png');
    assert.match(inline.headers.get('content-security-policy') ?? '', /\bsandbox\b/);
    assert.ok(inline.body.equals(PNG));
    const plain = await get(id);
    assert.match(plain.headers.get('content-disposition') ?? '', /^attachment;/);
  });
});
