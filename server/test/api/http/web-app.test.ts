import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { after, before, test } from 'node:test';
import { SERVICE_WORKER_CSP, SHARE_TARGET_PATH } from '../../../src/http/static.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

const INDEX = '<!doctype html><html><head><script type="module" src="/assets/app-1a2b3c.js"></script></head><body></body></html>';
let t: TestServer;
let webDir: string;

before(async () => {
  webDir = await makeTempDir('hearth-web-');
  await fs.mkdir(path.join(webDir, 'assets'));
  await fs.writeFile(path.join(webDir, 'index.html'), INDEX);
  await fs.writeFile(path.join(webDir, 'assets', 'app-1a2b3c.js'), 'console.log("app")');
  await fs.writeFile(path.join(webDir, 'assets', 'hash.worker-Xy_9-z.js'), 'self.onmessage = () => {}');
  await fs.writeFile(path.join(webDir, 'manifest.webmanifest'), '{"name":"Hearth"}');
  t = await startTestServer({ webDir });
});
after(async () => {
  await t.close();
  await fs.rm(webDir, { recursive: true, force: true });
});

const get = (p: string, headers: Record<string, string> = {}) => fetch(t.url + p, { headers });

test('/ serves the app page under a strict CSP: own scripts only, no inline script, no framing, the socket of this host', async () => {
  const res = await get('/');
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assert.equal(await res.text(), INDEX);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'self'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
  assert.match(csp, /img-src 'self' blob: data:/);
  assert.match(csp, /style-src 'self'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.ok(csp.includes(`connect-src 'self' ws://${new URL(t.url).host}`), csp);
  assert.equal(res.headers.get('cache-control'), 'no-cache');
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
});

test('app routes, the public link page and the invite page fall back to index.html', async () => {
  for (const p of ['/files/01ABC', '/s/some-share-token', '/invite/some-code', '/gallery']) {
    const res = await get(p);
    assert.equal(res.status, 200, p);
    assert.equal(await res.text(), INDEX, p);
    assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/, p);
  }
});

test('/api/... never falls back to the app: an unknown API path stays a JSON 404', async () => {
  for (const p of ['/api/v1/no-such-route', '/api/v2/status', '/api']) {
    const res = await get(p, { accept: 'text/html' });
    assert.equal(res.status, 404, p);
    const body = (await res.json()) as { error: { code: string } };
    assert.equal(body.error.code, 'not_found', p);
  }
});

test('hashed assets are cached for good; other files revalidate; a missing asset is a 404, not the page', async () => {
  const asset = await get('/assets/app-1a2b3c.js');
  assert.equal(asset.status, 200);
  assert.equal(asset.headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.match(asset.headers.get('content-type') ?? '', /text\/javascript/);
  assert.equal(await asset.text(), 'console.log("app")');
  const manifest = await get('/manifest.webmanifest');
  assert.equal(manifest.headers.get('cache-control'), 'no-cache');
  assert.match(manifest.headers.get('content-type') ?? '', /manifest\+json/);
  const missing = await get('/assets/gone-000000.js');
  assert.equal(missing.status, 404);
  assert.match(missing.headers.get('content-type') ?? '', /json/);
  const etag = asset.headers.get('etag')!;
  const again = await get('/assets/app-1a2b3c.js', { 'if-none-match': etag });
  assert.equal(again.status, 304);
});

test("a worker's script carries a CSP of its own (a worker obeys its script's, not the page's): its own code and WebAssembly, no network, no eval", async () => {
  const worker = await get('/assets/hash.worker-Xy_9-z.js');
  assert.equal(worker.status, 200);
  assert.match(worker.headers.get('content-type') ?? '', /text\/javascript/);
  const csp = (worker.headers.get('content-security-policy') ?? '').split(/;\s*/);
  assert.deepEqual(csp, ["default-src 'none'", "script-src 'self' 'wasm-unsafe-eval'", "base-uri 'none'", "frame-ancestors 'none'"]);
  // Another script keeps the answer every response has: it runs under its page's policy.
  const script = await get('/assets/app-1a2b3c.js');
  assert.equal(script.headers.get('content-security-policy'), "frame-ancestors 'none'");
});

test('no path escapes the app folder', async () => {
  await fs.writeFile(path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`), 'secret');
  for (const p of [`/..%2f${path.basename(webDir)}-secret.txt`, '/%2e%2e/%2e%2e/etc/passwd', '/assets/..%2f..%2fetc%2fpasswd.txt']) {
    const res = await get(p);
    assert.notEqual(await res.text(), 'secret', p);
    assert.ok(res.status === 404 || res.status === 200, `${p}: ${res.status}`);
  }
  await fs.rm(path.join(path.dirname(webDir), `${path.basename(webDir)}-secret.txt`));
});

test('a server without a built app still starts, and / says how to build it', async () => {
  const bare = await startTestServer({ webDir: path.join(webDir, 'not-built') });
  try {
    const res = await fetch(`${bare.url}/`);
    assert.equal(res.status, 503);
    assert.match(await res.text(), /npm run build/);
    const status = await fetch(`${bare.api}/status`);
    assert.equal(status.status, 200);
  } finally {
    await bare.close();
  }
});

/** A GET with exactly these headers, and the raw bytes that came back (no decoding). */
function rawGet(p: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(t.url + p, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/*
 * Issue 19, item 22: the app's scripts went out uncompressed (277 KB for the main one), which
 * held a phone's first paint past 3 s. The build writes .br and .gz copies beside each text
 * file; the server sends the one the browser accepts.
 */
test('a script goes out as the Brotli or gzip copy the build made, whichever the browser accepts, with Vary and a tag of its own; else as it is', async () => {
  const script = `console.log(${JSON.stringify('hearth '.repeat(400))})`;
  await fs.writeFile(path.join(webDir, 'assets', 'big-9f8e7d.js'), script);
  await fs.writeFile(path.join(webDir, 'assets', 'big-9f8e7d.js.br'), zlib.brotliCompressSync(script));
  await fs.writeFile(path.join(webDir, 'assets', 'big-9f8e7d.js.gz'), zlib.gzipSync(script));
  const decode = { br: (b: Buffer) => zlib.brotliDecompressSync(b), gzip: (b: Buffer) => zlib.gunzipSync(b), none: (b: Buffer) => b };
  const tags = new Set<string>();
  for (const [accept, expected] of [
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['identity', 'none'],
    ['', 'none'],
  ] as const) {
    const res = await rawGet('/assets/big-9f8e7d.js', accept ? { 'accept-encoding': accept } : {});
    assert.equal(res.status, 200, accept);
    assert.equal(res.headers['content-encoding'] ?? 'none', expected, accept);
    assert.equal(decode[expected](res.body).toString(), script, accept);
    assert.equal(Number(res.headers['content-length']), res.body.length, accept);
    assert.match(res.headers.vary ?? '', /Accept-Encoding/, accept);
    assert.match(res.headers['content-type'] ?? '', /text\/javascript/, accept);
    tags.add(`${expected} ${res.headers.etag}`);
    const again = await rawGet('/assets/big-9f8e7d.js', {
      ...(accept ? { 'accept-encoding': accept } : {}),
      'if-none-match': res.headers.etag!,
    });
    assert.equal(again.status, 304, accept);
  }
  assert.equal(new Set([...tags].map((tag) => tag.split(' ')[1])).size, 3, `one tag per encoding: ${[...tags].join(', ')}`);
  // Without copies beside it (an image, or a build that made none) the file goes out as it is.
  const plain = await rawGet('/assets/app-1a2b3c.js', { 'accept-encoding': 'br, gzip' });
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.body.toString(), 'console.log("app")');
});

test("a shared link's page (/s/<token>) is share.html, the entry that loads none of the app, once the build has it; other app routes stay index.html", async () => {
  const share = '<!doctype html><html><head><script type="module" src="/assets/share-4d5e6f.js"></script></head><body></body></html>';
  await fs.writeFile(path.join(webDir, 'share.html'), share);
  try {
    for (const p of ['/s/some-share-token', '/s/some-share-token/']) {
      const res = await get(p);
      assert.equal(res.status, 200, p);
      assert.equal(await res.text(), share, p);
      assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'(;|$)/, p);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
    }
    for (const p of ['/files/01ABC', '/s', '/s/token/more', '/shared']) assert.equal(await (await get(p)).text(), INDEX, p);
  } finally {
    await fs.rm(path.join(webDir, 'share.html'));
  }
});

/*
 * Issue 24: "Share → Hearth" posts the shared photos to the manifest's share_target.action. The
 * app's service worker receives them on the phone; before it runs (the first visit), the post
 * reaches the server, which must neither keep it nor answer a bare 404.
 */
test('a share posted before the service worker runs is answered with the app screen that says to share again, and nothing of it is kept', async () => {
  const manifest = JSON.parse(
    await fs.readFile(path.join(import.meta.dirname, '../../../../renderer/public/manifest.webmanifest'), 'utf8'),
  ) as {
    share_target: { action: string; method: string; enctype: string };
  };
  assert.equal(manifest.share_target.action, SHARE_TARGET_PATH);
  assert.equal(manifest.share_target.method, 'POST');
  const form = new FormData();
  form.append('title', 'Holiday');
  // Big enough that the server answers before it has read it all: the answer must still arrive.
  form.append('files', new Blob([Buffer.alloc(8 * 1024 * 1024, 7)], { type: 'image/jpeg' }), 'beach.jpg');
  const res = await fetch(t.url + SHARE_TARGET_PATH, { method: 'POST', body: form, redirect: 'manual' });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get('location'), '/shared-with-hearth?share=missed');
  assert.equal(res.headers.get('cache-control'), 'no-store');
  assert.match(await res.text(), /share again/);
  // The same connection goes on serving: the unread share was drained, not left in the way.
  assert.equal((await get('/shared-with-hearth?share=missed')).status, 200);
  // No file of the server's holds the share: no upload, no temp file of its size.
  for (const name of await fs.readdir(t.dataDir, { recursive: true })) {
    const stat = await fs.stat(path.join(t.dataDir, String(name)));
    assert.ok(!stat.isFile() || stat.size < 8 * 1024 * 1024, String(name));
  }
});

test('the service worker runs under a CSP of its own: its own code and this server only', async () => {
  await fs.writeFile(path.join(webDir, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  try {
    const res = await get('/sw.js');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-security-policy'), SERVICE_WORKER_CSP);
    assert.doesNotMatch(SERVICE_WORKER_CSP, /unsafe/);
  } finally {
    await fs.rm(path.join(webDir, 'sw.js'));
  }
});
