import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { basic, dav, driveLogin, propfindBody, type DriveLogin } from './dav-support.ts';

let t: TestServer;
let drive: DriveLogin;

before(async () => {
  t = await startTestServer();
  drive = await driveLogin(t, await setupOwner(t.client), 'owner');
  await dav(t, 'PUT', '/dav/target.txt', { login: drive, body: 'x' });
});
after(() => t.close());

/** A refusal as drive clients read it: the status, an XML DAV:error body with Hearth's code, and any precondition. */
async function assertDavError(res: Response, status: number, code: string, condition?: string): Promise<string> {
  const body = await res.text();
  assert.equal(res.status, status, body);
  assert.match(res.headers.get('content-type')!, /^application\/xml/);
  assert.match(body, /^<\?xml version="1.0" encoding="utf-8"\?>\n<d:error xmlns:d="DAV:" xmlns:h="urn:x-hearth:dav">/);
  assert.match(body, new RegExp(`<h:code>${code}</h:code><h:message>[^<]+</h:message></d:error>`));
  if (condition) assert.match(body, new RegExp(`<d:${condition}/>`));
  return body;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = performance.now();
  const value = await work();
  return { value, ms: performance.now() - start };
}

const BOMB = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from(
  { length: 9 },
  (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`,
).join('')}]><D:propfind xmlns:D="DAV:"><D:prop><x xmlns="urn:x">&lol9;</x></D:prop></D:propfind>`;

describe('WebDAV bad input: bodies', () => {
  test('a body that is not XML, or not the right XML, is 400 with an XML error body', async () => {
    for (const [method, body] of [
      ['PROPFIND', 'not xml at all'],
      ['PROPFIND', '<D:propfind xmlns:D="DAV:"><D:prop>'],
      ['PROPPATCH', '{"json": true}'],
      ['PROPPATCH', '<D:propertyupdate xmlns:D="DAV:"/>'],
      ['PROPPATCH', '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x>&undeclared;</x></D:prop></D:set></D:propertyupdate>'],
      ['PROPPATCH', '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x>&#0;</x></D:prop></D:set></D:propertyupdate>'],
      ['PROPPATCH', '<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><q:x>1</q:x></D:prop></D:set></D:propertyupdate>'],
    ]) {
      const res = await dav(t, method!, '/dav/target.txt', { login: drive, headers: { Depth: '0' }, body });
      await assertDavError(res, 400, 'invalid_input');
    }
  });

  test('an entity bomb (billion laughs) is refused fast: a WebDAV body has no DTD', async () => {
    for (const method of ['PROPFIND', 'PROPPATCH']) {
      const { value: res, ms } = await timed(() =>
        dav(t, method, '/dav/target.txt', { login: drive, headers: { Depth: '0' }, body: BOMB }),
      );
      await assertDavError(res, 400, 'invalid_input');
      assert.ok(ms < 2000, `${method} took ${ms} ms`);
    }
  });

  test('an external entity is refused with DAV:no-external-entities (RFC 4918 16)', async () => {
    const body = `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY secret SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:"><D:prop><x>&secret;</x></D:prop></D:propfind>`;
    const res = await dav(t, 'PROPFIND', '/dav/target.txt', { login: drive, headers: { Depth: '0' }, body });
    await assertDavError(res, 403, 'forbidden', 'no-external-entities');
  });

  test('deeply nested or countless elements are refused fast, never parsed for long', async () => {
    const deep = `<D:propfind xmlns:D="DAV:"><D:prop>${'<a>'.repeat(100_000)}${'</a>'.repeat(100_000)}</D:prop></D:propfind>`;
    const wide = `<D:propfind xmlns:D="DAV:"><D:prop>${'<a/>'.repeat(200_000)}</D:prop></D:propfind>`;
    const value = `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x>${'<a>'.repeat(80)}${'</a>'.repeat(80)}</x></D:prop></D:set></D:propertyupdate>`;
    for (const [method, body] of [
      ['PROPFIND', deep],
      ['PROPFIND', wide],
      ['PROPPATCH', value],
    ]) {
      const { value: res, ms } = await timed(() => dav(t, method!, '/dav/target.txt', { login: drive, headers: { Depth: '0' }, body }));
      await assertDavError(res, 400, 'invalid_input');
      assert.ok(ms < 2000, `${method} took ${ms} ms`);
    }
  });

  test('a body past 1 MiB is 413, whether its length is declared or it comes in chunks', async () => {
    const huge = `<D:propfind xmlns:D="DAV:"><D:prop><x>${'a'.repeat(1024 * 1024)}</x></D:prop></D:propfind>`;
    await assertDavError(
      await dav(t, 'PROPFIND', '/dav/target.txt', { login: drive, headers: { Depth: '0' }, body: huge }),
      413,
      'payload_too_large',
    );
    const chunk = new TextEncoder().encode('a'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        // Endless: the server must stop reading and answer rather than wait for the end.
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await dav(t, 'PROPPATCH', '/dav/target.txt', { login: drive, body: stream });
    await assertDavError(res, 413, 'payload_too_large');
    assert.ok(sent < 64 * 1024 * 1024, `read ${sent} bytes`);
  });
});

describe('WebDAV bad input: paths and headers', () => {
  test('paths escaping the tree (.., %2e%2e, %2f, %5c) are 400 or 404 with an XML body', async () => {
    for (const path of ['/dav/../api/v1/me', '/dav/%2e%2e/%2e%2e/etc/passwd', '/dav/a%2f..%2f..%2fb', '/dav/a%5c..%5cb', '/dav/./x']) {
      const { status, type, body } = await raw('PROPFIND', path);
      assert.ok(status === 400 || status === 404, `${path}: ${status}`);
      if (path.startsWith('/dav/')) {
        assert.match(type, /^application\/xml/, path);
        assert.match(body, /<d:error xmlns:d="DAV:"/, path);
      }
    }
  });

  test('PROPFIND Depth: infinity (or none) is 403 propfind-finite-depth; any Depth but 0, 1 or infinity is 400', async () => {
    const body = propfindBody('<D:getetag/>');
    for (const headers of [{ Depth: 'infinity' }, {}] as Record<string, string>[]) {
      await assertDavError(await dav(t, 'PROPFIND', '/dav/', { login: drive, headers, body }), 403, 'forbidden', 'propfind-finite-depth');
    }
    for (const depth of ['2', 'one', '-1', '1,0']) {
      await assertDavError(await dav(t, 'PROPFIND', '/dav/', { login: drive, headers: { Depth: depth }, body }), 400, 'invalid_input');
    }
  });
});

describe('WebDAV error bodies', () => {
  test('every refusal under /dav/ is a DAV:error XML body with its status and headers kept; the API keeps its JSON', async () => {
    const unsigned = await dav(t, 'PROPFIND', '/dav/', { headers: { Depth: '0' } });
    await assertDavError(unsigned, 401, 'invalid_credentials');
    assert.match(unsigned.headers.get('www-authenticate')!, /^Basic realm="Hearth"/);
    await assertDavError(await dav(t, 'GET', '/dav/nothing.txt', { login: drive }), 404, 'not_found');
    const folderGet = await dav(t, 'GET', '/dav/', { login: drive });
    await assertDavError(folderGet, 405, 'method_not_allowed');
    assert.ok(folderGet.headers.get('allow'));
    await assertDavError(await dav(t, 'MKCOL', '/dav/no/such/', { login: drive }), 409, 'not_found');
    await assertDavError(await dav(t, 'MKCOL', '/dav/withbody/', { login: drive, body: 'x' }), 415, 'unsupported_media_type');
    await dav(t, 'PUT', '/dav/other.txt', { login: drive, body: 'y' });
    const overwrite = { Destination: `${t.url}/dav/other.txt`, Overwrite: 'F' };
    await assertDavError(await dav(t, 'COPY', '/dav/target.txt', { login: drive, headers: overwrite }), 412, 'name_conflict');
    const away = { Destination: 'http://elsewhere.example/dav/x.txt' };
    await assertDavError(await dav(t, 'MOVE', '/dav/target.txt', { login: drive, headers: away }), 502, 'invalid_input');

    const api = await fetch(`${t.url}/api/v1/nodes`);
    assert.equal(api.status, 401);
    assert.match(api.headers.get('content-type')!, /^application\/json/);
    assert.equal((await api.json()).error.code, 'unauthorized');
  });
});

/** A request whose path is sent as written, with its answer's status, type and body. */
function raw(method: string, path: string): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, headers: { Authorization: basic(drive), Host: url.host, Depth: '0' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (part: string) => (body += part));
        res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type'] ?? ''), body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
