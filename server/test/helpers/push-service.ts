import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A browser's side of a subscription: its P-256 key pair and auth secret, as a browser makes them. */
export interface BrowserKeys {
  ecdh: crypto.ECDH;
  auth: Buffer;
  /** As PushSubscription.toJSON() gives them. */
  json: { p256dh: string; auth: string };
}

export function browserKeys(): BrowserKeys {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = crypto.randomBytes(16);
  return { ecdh, auth, json: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A push service of the test's own on 127.0.0.1: it keeps each request it receives and answers
 * what `answer` says for its path (201 unless told otherwise).
 */
export class PushServiceFake {
  readonly received: Received[] = [];
  answer: (path: string) => { status: number; headers?: Record<string, string> } = () => ({ status: 201 });
  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(): Promise<PushServiceFake> {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const fake = new PushServiceFake(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        fake.received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        const { status, headers } = fake.answer(req.url ?? '');
        res.writeHead(status, headers).end();
      });
    });
    return fake;
  }

  async waitFor(count: number, timeoutMs = 5_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > until) assert.fail(`the push service received ${this.received.length} of ${count} messages`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return this.received;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * Checks the VAPID JWT (RFC 8292) as a push service does: ES256 signed by the key the server
 * serves, `aud` the push service's origin, `exp` within a day; answers its claims.
 */
export function verifyVapid(headers: http.IncomingHttpHeaders, servedKey: string, audience: string): Record<string, unknown> {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.authorization ?? '');
  assert.ok(match, `Authorization: ${headers.authorization}`);
  const [, jwt, k] = match;
  assert.equal(k, servedKey);
  const [head, claims, signature] = jwt!.split('.') as [string, string, string];
  assert.deepEqual(JSON.parse(Buffer.from(head, 'base64url').toString()), { typ: 'JWT', alg: 'ES256' });
  const raw = Buffer.from(servedKey, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = crypto.verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  assert.ok(ok, 'the VAPID signature verifies with the served public key');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  assert.equal(body.aud, audience);
  const now = Date.now() / 1000;
  assert.ok(body.exp > now && body.exp <= now + 24 * 3600, `exp ${body.exp}`);
  assert.match(body.sub, /^(mailto:|https:)/);
  return body;
}

/** Decrypts an aes128gcm body (RFC 8188) with the browser's keys, as RFC 8291 says a browser does. */
export function decryptPush(body: Buffer, keys: BrowserKeys): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const serverKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  assert.equal(idLength, 65);
  assert.ok(record.length <= recordSize);
  const shared = keys.ecdh.computeSecret(serverKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(crypto.hkdfSync('sha256', shared, keys.auth, keyInfo, 32));
  const cek = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(crypto.hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = crypto.createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  assert.equal(plain[end], 2, 'the last record is delimited by 0x02');
  return plain.subarray(0, end).toString('utf8');
}
