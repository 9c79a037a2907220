import assert from 'node:assert/strict';
import net from 'node:net';
import zlib from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * What a careless or hostile client sends below the level of JSON: bodies that do not
 * decompress, WebSocket handshakes that are not, and bytes that are not HTTP at all. Every
 * one of them is answered with the error envelope, never a bare status or an HTML page.
 */

let t: TestServer;
let owner: SignedIn;
let port: number;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  port = t.server.port;
});
after(() => t.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: any;
  /** The server closed the connection after answering. */
  closed: boolean;
}

/** Writes bytes on a fresh TCP connection and reads the answer until the server closes it. */
function rawRequest(bytes: string | Buffer, timeoutMs = 5_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => {
      socket.destroy();
      settle();
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => {});
    socket.on('end', () => (closedByServer = true));
    socket.on('close', () => {
      clearTimeout(timer);
      settle();
    });
    let settled = false;
    function settle(): void {
      if (settled) return;
      settled = true;
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) {
        reject(new Error(`no HTTP answer to ${JSON.stringify(String(bytes).slice(0, 60))}: ${JSON.stringify(text)}`));
        return;
      }
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = text.slice(split + 4);
      let json: any = null;
      try {
        json = JSON.parse(body);
      } catch {
        // asserted below
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body, json, closed: closedByServer });
    }
  });
}

function assertRawEnvelope(res: RawAnswer, status: number, code: string): void {
  assert.equal(res.status, status, `${res.status} ${res.body}`);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/, JSON.stringify(res.headers));
  assert.equal(res.json?.error?.code, code, res.body);
  assert.equal(typeof res.json.error.message, 'string');
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body, 'latin1'));
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
}

describe('compressed request bodies', () => {
  const login = (body: Buffer, encoding: string) =>
    fetch(`${t.api}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': encoding },
      body: body as BodyInit,
    });

  async function envelope(res: Response, status: number, code: string): Promise<void> {
    const text = await res.text();
    assert.equal(res.status, status, text);
    assert.match(res.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(JSON.parse(text).error.code, code, text);
  }

  test('a body labelled gzip, deflate or br that is not compressed answers 400 invalid_encoding, on routes with and without an account', async () => {
    const plain = Buffer.from(JSON.stringify({ username: 'owner', password: 'x'.repeat(12) }));
    for (const encoding of ['gzip', 'deflate', 'br']) {
      await envelope(await login(plain, encoding), 400, 'invalid_encoding');
      await envelope(
        await fetch(`${t.api}/nodes/folder`, {
          method: 'POST',
          headers: { authorization: `Bearer ${owner.access}`, 'content-type': 'application/json', 'content-encoding': encoding },
          body: plain as BodyInit,
        }),
        400,
        'invalid_encoding',
      );
    }
  });

  test('a truncated compressed stream answers 400 invalid_encoding', async () => {
    const json = Buffer.from(JSON.stringify({ username: 'owner', password: 'y'.repeat(200) }));
    const cut = (b: Buffer) => b.subarray(0, Math.floor(b.length / 2));
    await envelope(await login(cut(zlib.gzipSync(json)), 'gzip'), 400, 'invalid_encoding');
    await envelope(await login(cut(zlib.deflateSync(json)), 'deflate'), 400, 'invalid_encoding');
    await envelope(await login(cut(zlib.brotliCompressSync(json)), 'br'), 400, 'invalid_encoding');
  });

  test('a gzip bomb stops at the body limit: 413 payload_too_large, and the server keeps answering', async () => {
    // 64 MiB of spaces (valid JSON whitespace) in about 64 KiB: only the limit stops it.
    const bomb = zlib.gzipSync(
      Buffer.concat([Buffer.from('{"username":"owner","password":"'), Buffer.alloc(64 * 1024 * 1024, 0x61), Buffer.from('"}')]),
      { level: 9 },
    );
    assert.ok(bomb.length < 200 * 1024);
    const before = process.memoryUsage().rss;
    await envelope(await login(bomb, 'gzip'), 413, 'payload_too_large');
    assert.ok(process.memoryUsage().rss - before < 48 * 1024 * 1024, 'the body was not inflated whole');
    assert.equal((await t.client.get('/status')).status, 200);
  });

  test('a well-formed compressed body is still read', async () => {
    const res = await login(zlib.gzipSync(Buffer.from(JSON.stringify({ username: 'owner', password: 'owner-password-1' }))), 'gzip');
    assert.equal(res.status, 200, await res.text());
  });
});

describe('WebSocket handshakes that are not', () => {
  const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

  function upgrade(lines: Record<string, string>, method = 'GET', path = '/api/v1/ws'): Promise<RawAnswer> {
    const headers = { Host: `127.0.0.1:${port}`, Authorization: `Bearer ${owner.access}`, Connection: 'Upgrade', ...lines };
    const text = Object.entries(headers)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    return rawRequest(`${method} ${path} HTTP/1.1\r\n${text}\r\n`);
  }

  test('a missing or malformed Sec-WebSocket-Key answers 400 invalid_handshake in the envelope', async () => {
    for (const key of ['', 'abc', 'not base64 at all!!!!!==', `${KEY}x`]) {
      const res = await upgrade({ Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': key });
      assertRawEnvelope(res, 400, 'invalid_handshake');
      assert.ok(res.closed);
    }
  });

  test('an unsupported Sec-WebSocket-Version answers 426 in the envelope and names the version spoken', async () => {
    for (const version of ['', '99', 'thirteen']) {
      const res = await upgrade({ Upgrade: 'websocket', 'Sec-WebSocket-Version': version, 'Sec-WebSocket-Key': KEY });
      assertRawEnvelope(res, 426, 'websocket_version_unsupported');
      assert.equal(res.headers['sec-websocket-version'], '13');
    }
  });

  test('Upgrade: h2c on the WebSocket path answers 400 invalid_handshake', async () => {
    const res = await upgrade({ Upgrade: 'h2c', 'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA', 'Sec-WebSocket-Key': KEY });
    assertRawEnvelope(res, 400, 'invalid_handshake');
  });

  test('a POST upgrade answers 405 method_not_allowed with Allow: GET', async () => {
    const res = await upgrade(
      { Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': KEY, 'Content-Length': '0' },
      'POST',
    );
    assertRawEnvelope(res, 405, 'method_not_allowed');
    assert.equal(res.headers.allow, 'GET');
  });

  test('a malformed Sec-WebSocket-Protocol is ignored, not answered with HTML: the socket opens', async () => {
    const res = await rawRequest(
      `GET /api/v1/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner.access}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${KEY}\r\nSec-WebSocket-Protocol: a,,b, ,\r\n\r\n`,
      500,
    );
    assert.equal(res.status, 101, res.body);
    assert.equal(res.headers['sec-websocket-protocol'], undefined);
  });

  test('Upgrade: h2c on an ordinary route is answered as the ordinary request it also is; one with a body is refused with the envelope', async () => {
    const res = await upgrade({ Upgrade: 'h2c', 'HTTP2-Settings': 'AAMAAABkAARAAAAAAAIAAAAA' }, 'GET', '/api/v1/status');
    assert.equal(res.status, 200, res.body);
    assert.equal(typeof res.json?.server_id, 'string');
    const body = JSON.stringify({ username: 'owner', password: 'owner-password-1' });
    const withBody = await rawRequest(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n` +
        `HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    assertRawEnvelope(withBody, 400, 'invalid_handshake');
  });
});

describe('tus method override', () => {
  test('X-HTTP-Method-Override: HEAD on a POST is not obeyed (its answer would promise a body it never sends, and the client would hang): the POST is answered with its body', async () => {
    const started = Date.now();
    const res = await rawRequest(
      `POST /api/v1/uploads HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner.access}\r\nTus-Resumable: 1.0.0\r\n` +
        'X-HTTP-Method-Override: HEAD\r\nUpload-Length: 5\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    assert.ok(Date.now() - started < 2_000, `answered after ${Date.now() - started} ms`);
    assert.equal(res.status, 201, res.body);
    assert.equal(Number(res.headers['content-length'] ?? 0), Buffer.byteLength(res.body, 'latin1'));
  });

  test('an override on the collection is not obeyed either: POST /uploads with X-HTTP-Method-Override: DELETE creates, it is not a 405', async () => {
    const res = await rawRequest(
      `POST /api/v1/uploads HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAuthorization: Bearer ${owner.access}\r\nTus-Resumable: 1.0.0\r\n` +
        'X-HTTP-Method-Override: DELETE\r\nUpload-Length: 5\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
    );
    assert.equal(res.status, 201, res.body);
  });
});

describe('what the HTTP parser refuses', () => {
  const host = () => `Host: 127.0.0.1:${port}\r\n`;
  const big = 'a'.repeat(20_000);

  const CASES: [string, () => string, number, string][] = [
    ['a URL over the header limit', () => `GET /api/v1/status?x=${big} HTTP/1.1\r\n${host()}\r\n`, 431, 'headers_too_large'],
    ['a header over the limit', () => `GET /api/v1/status HTTP/1.1\r\n${host()}X-Big: ${big}\r\n\r\n`, 431, 'headers_too_large'],
    ['Expect: bogus', () => `GET /api/v1/status HTTP/1.1\r\n${host()}Expect: bogus\r\n\r\n`, 417, 'expectation_failed'],
    ['a malformed header name', () => `GET /api/v1/status HTTP/1.1\r\n${host()}Bad Header: x\r\n\r\n`, 400, 'malformed_request'],
    ['control bytes in a header value', () => `GET /api/v1/status HTTP/1.1\r\n${host()}X-A: a\x01b\r\n\r\n`, 400, 'malformed_request'],
    [
      'Content-Length with Transfer-Encoding',
      () => `POST /api/v1/auth/login HTTP/1.1\r\n${host()}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
      'malformed_request',
    ],
    [
      'a negative Content-Length',
      () => `POST /api/v1/auth/login HTTP/1.1\r\n${host()}Content-Length: -1\r\n\r\n`,
      400,
      'malformed_request',
    ],
    [
      'a doubled Content-Length',
      () => `POST /api/v1/auth/login HTTP/1.1\r\n${host()}Content-Length: 3\r\nContent-Length: 4\r\n\r\nabcd`,
      400,
      'malformed_request',
    ],
    [
      'a bad chunk size',
      () =>
        `POST /api/v1/auth/login HTTP/1.1\r\n${host()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
      400,
      'malformed_request',
    ],
    [
      'an unknown Transfer-Encoding',
      () => `POST /api/v1/auth/login HTTP/1.1\r\n${host()}Transfer-Encoding: gzip\r\n\r\n`,
      400,
      'malformed_request',
    ],
    ['no Host on HTTP/1.1', () => 'GET /api/v1/status HTTP/1.1\r\n\r\n', 400, 'malformed_request'],
    ['the HTTP/2 preface', () => 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 505, 'http_version_unsupported'],
    ['HTTP/9.9', () => `GET /api/v1/status HTTP/9.9\r\n${host()}\r\n`, 505, 'http_version_unsupported'],
    ['a garbage request line', () => 'HELLO\r\n\r\n', 400, 'malformed_request'],
    ['an invalid method', () => `G@T /api/v1/status HTTP/1.1\r\n${host()}\r\n`, 400, 'malformed_request'],
    ['bare LF line ends', () => `GET /api/v1/status HTTP/1.1\n${host().trim()}\n\n`, 400, 'malformed_request'],
    ['an obs-fold header continuation', () => `GET /api/v1/status HTTP/1.1\r\n${host()}X-A: a\r\n b\r\n\r\n`, 400, 'malformed_request'],
  ];

  for (const [what, bytes, status, code] of CASES) {
    test(`${what} answers ${status} ${code} in the envelope and closes the connection`, async () => {
      const res = await rawRequest(bytes());
      assertRawEnvelope(res, status, code);
      assert.equal(res.headers.connection, 'close');
      assert.ok(res.closed, 'the server closed the connection');
    });
  }

  test('after all of that the server still answers ordinary requests', async () => {
    const res = await rawRequest(`GET /api/v1/status HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    assert.equal(res.status, 200);
    assert.equal(typeof res.json.server_id, 'string');
  });
});
