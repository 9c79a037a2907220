import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { parse as parsePlist } from 'plist';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { isHomeName } from '../../../src/services/server/authority-scope.ts';

/*
 * Issue 24: over plain HTTP a phone's browser gives the app no secure context (no install, no
 * Share sheet, no clipboard). Hearth serves HTTPS beside HTTP on the same port, with its own
 * authority made at the first start and kept with the keys; phones install that authority
 * from the guided page (Android's certificate, iOS's profile) and are then sent to HTTPS.
 */

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** Plain HTTP with headers a browser sends and fetch will not (Host, Sec-Fetch-Mode). */
function overHttp(port: number, pathname: string, headers: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path: pathname, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

/** A request over TLS that trusts `ca` alone, as a phone that installed Hearth's authority does. */
function overHttps(
  port: number,
  pathname: string,
  options: { ca?: string; servername?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      {
        host: '127.0.0.1',
        port,
        path: pathname,
        ca: options.ca,
        servername: options.servername,
        headers: { Host: `${options.servername ?? '127.0.0.1'}:${port}`, ...options.headers },
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

function authorityPem(dataDir: string): string {
  const keys = JSON.parse(fs.readFileSync(path.join(dataDir, 'keys.json'), 'utf8')) as { authority: { certPem: string } };
  return keys.authority.certPem;
}

/** The cookie the guided page sets once the phone trusts this authority. */
function trustCookie(caPem: string): string {
  return `hearth_https=${new crypto.X509Certificate(caPem).fingerprint256.replaceAll(':', '')}`;
}

function peerCertificate(port: number, servername: string): Promise<tls.PeerCertificate> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      resolve(socket.getPeerCertificate());
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('HTTPS at home: one port, its own authority (issue 24)', () => {
  let t: TestServer;
  let ca: string;
  before(async () => {
    t = await startTestServer({ https: true, hostNames: ['family-pc.lan'] });
    await t.server.httpsReady();
    ca = authorityPem(t.dataDir);
  });
  after(() => t.close());

  test('HTTPS answers on the HTTP port for a phone that trusts the authority, and plain HTTP still answers there', async () => {
    const secure = await overHttps(t.server.port, '/api/v1/status', { ca, servername: 'localhost' });
    assert.equal(secure.status, 200);
    assert.equal(typeof JSON.parse(secure.body.toString()).version, 'string');
    const plain = await fetch(`${t.api}/status`);
    assert.equal(plain.status, 200);
  });

  test('a client that does not trust the authority is refused by its own TLS check: nothing is served to it unverified', async () => {
    await assert.rejects(
      overHttps(t.server.port, '/api/v1/status', { servername: 'localhost' }),
      /self-signed|unable to get local issuer|certificate/i,
    );
  });

  test('the certificate names the .local names, the configured names and the addresses; a public name is never in it', async () => {
    const peer = await peerCertificate(t.server.port, 'hearth.local');
    const san = peer.subjectaltname ?? '';
    assert.match(san, /DNS:hearth\.local/);
    assert.match(san, /DNS:localhost/);
    assert.match(san, /DNS:family-pc\.lan/);
    assert.match(san, /IP Address:127\.0\.0\.1/);
    for (const address of Object.values(os.networkInterfaces()).flatMap((list) => list ?? [])) {
      if (!address.internal && address.family === 'IPv4' && isHomeName(address.address) && !address.address.startsWith('169.254.')) {
        assert.ok(san.includes(`IP Address:${address.address}`), `${address.address} in ${san}`);
      }
    }
    const days = (new Date(peer.valid_to).getTime() - Date.now()) / 86_400_000;
    assert.ok(days > 390 && days <= 398, `valid for ${days} days`);
  });

  test('the authority is kept in keys.json (backed up with the keys), readable by the server user only, as is the certificate', () => {
    assert.equal(fs.statSync(path.join(t.dataDir, 'keys.json')).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.join(t.dataDir, 'tls')).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(t.dataDir, 'tls', 'server.pem')).mode & 0o777, 0o600);
    const keys = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8'));
    assert.match(keys.authority.keyPem, /BEGIN (RSA )?PRIVATE KEY/);
    assert.ok(keys.token && keys.link && keys.totp, 'the other keys are kept');
  });

  test('GET /server/https tells the guided page HTTPS is there and the fingerprint to compare', async () => {
    const offer = await t.client.get('/server/https');
    assert.equal(offer.status, 200);
    assert.equal(offer.body.available, true);
    assert.equal(offer.body.authority_fingerprint_sha256, new crypto.X509Certificate(ca).fingerprint256);
    assert.match(offer.body.authority_name, /Hearth/);
  });

  test("Android's certificate: DER, application/x-x509-ca-cert, a download, and it reads as the authority", async () => {
    const response = await fetch(`${t.api}/server/https/authority.crt`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-x509-ca-cert');
    assert.match(response.headers.get('content-disposition') ?? '', /attachment; filename="Hearth Hearth\.crt"/);
    const der = Buffer.from(await response.arrayBuffer());
    assert.equal(new crypto.X509Certificate(der).fingerprint256, new crypto.X509Certificate(ca).fingerprint256, 'the authority, in DER');
  });

  test("iOS's profile: application/x-apple-aspen-config, a valid plist with the authority as a root and Hearth on the home screen, the same UUIDs each time", async () => {
    const download = async () => {
      const response = await overHttp(t.server.port, '/api/v1/server/https/profile.mobileconfig', {
        Host: `hearth.local:${t.server.port}`,
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/x-apple-aspen-config');
      assert.match(String(response.headers['content-disposition']), /\.mobileconfig"/);
      return parsePlist(response.body.toString()) as Record<string, any>;
    };
    const profile = await download();
    assert.equal(profile.PayloadType, 'Configuration');
    assert.equal(profile.PayloadVersion, 1);
    const root = profile.PayloadContent.find((p: any) => p.PayloadType === 'com.apple.security.root');
    assert.ok(root, 'a root certificate payload');
    assert.deepEqual(Buffer.from(root.PayloadContent), new crypto.X509Certificate(ca).raw);
    const clip = profile.PayloadContent.find((p: any) => p.PayloadType === 'com.apple.webClip.managed');
    assert.equal(clip.URL, `https://hearth.local:${t.server.port}/`);
    assert.equal(clip.Label, 'Hearth');
    for (const payload of [profile, root, clip])
      assert.match(payload.PayloadUUID, /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/);
    const again = await download();
    assert.equal(again.PayloadUUID, profile.PayloadUUID, 'installing again replaces the profile, never adds a second');
  });

  test('the check answers over HTTPS, readable from the plain-HTTP page (CORS), and says when it was not HTTPS', async () => {
    const secure = await overHttps(t.server.port, '/api/v1/server/https/check', { ca, servername: 'hearth.local' });
    assert.equal(secure.status, 200);
    assert.deepEqual(JSON.parse(secure.body.toString()), {
      secure: true,
      authority_fingerprint_sha256: new crypto.X509Certificate(ca).fingerprint256,
    });
    assert.equal(secure.headers['access-control-allow-origin'], '*');
    assert.equal(secure.headers['cross-origin-resource-policy'], 'cross-origin');
    const plain = await (await fetch(`${t.api}/server/https/check`)).json();
    assert.deepEqual(plain, { secure: false, authority_fingerprint_sha256: null });
  });

  test('a phone that trusts the authority (the guided page set hearth_https to its fingerprint) is sent from HTTP to HTTPS when it opens a page; nobody else is', async () => {
    const open = (headers: Record<string, string>, pathname = '/files') => overHttp(t.server.port, pathname, headers);
    const trusts = trustCookie(ca);
    const host = `hearth.local:${t.server.port}`;
    const trusting = await open({ Cookie: trusts, 'Sec-Fetch-Mode': 'navigate', Host: host });
    assert.equal(trusting.status, 307);
    assert.equal(trusting.headers.location, `https://${host}/files`);
    const other = await open({ 'Sec-Fetch-Mode': 'navigate', Host: host });
    assert.notEqual(other.status, 307, 'a phone that skipped the guided page keeps plain HTTP');
    const api = await open({ Cookie: trusts, 'Sec-Fetch-Mode': 'navigate', Host: host }, '/api/v1/status');
    assert.equal(api.status, 200, 'API calls are never redirected');
    const fetchFromPage = await open({ Cookie: trusts, 'Sec-Fetch-Mode': 'cors', Host: host });
    assert.notEqual(fetchFromPage.status, 307);
    const uncovered = await open({ Cookie: trusts, 'Sec-Fetch-Mode': 'navigate', Host: `somewhere.local:${t.server.port}` });
    assert.notEqual(uncovered.status, 307, 'never to a name the certificate does not carry');
  });

  test('HSTS is sent over HTTPS to a trusting phone only, on the server’s own .local name only, and never over plain HTTP', async () => {
    const trusts = trustCookie(ca);
    const trusting = await overHttps(t.server.port, '/api/v1/status', {
      ca,
      servername: 'hearth.local',
      headers: { Cookie: trusts },
    });
    assert.equal(trusting.headers['strict-transport-security'], 'max-age=604800');
    const other = await overHttps(t.server.port, '/api/v1/status', { ca, servername: 'hearth.local' });
    assert.equal(other.headers['strict-transport-security'], undefined);
    // HSTS holds for every port of a name: on a name the PC's other web pages may share, never.
    const sharedName = await overHttps(t.server.port, '/api/v1/status', {
      ca,
      servername: 'family-pc.lan',
      headers: { Cookie: trusts },
    });
    assert.equal(sharedName.status, 200);
    assert.equal(sharedName.headers['strict-transport-security'], undefined);
    const plain = await overHttp(t.server.port, '/api/v1/status', { Cookie: trusts });
    assert.equal(plain.headers['strict-transport-security'], undefined);
  });

  test('a connection that never says anything does not hold the port (the first byte decides HTTP or TLS)', async () => {
    const socket = net.connect(t.server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    const after = await fetch(`${t.api}/status`);
    assert.equal(after.status, 200, 'others are answered while it waits');
    socket.destroy();
  });
});

describe('HTTPS off (HTTPS=0)', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ https: false });
  });
  after(() => t.close());

  test('the offer says no, the downloads answer https_off, a TLS handshake is refused, and no authority is made', async () => {
    const offer = await t.client.get('/server/https');
    assert.deepEqual(offer.body, { available: false, authority_fingerprint_sha256: null, authority_name: null });
    const download = await t.client.get('/server/https/authority.crt');
    assert.equal(download.status, 404);
    assert.equal(download.body.error.code, 'https_off');
    await assert.rejects(overHttps(t.server.port, '/api/v1/status', { servername: 'localhost' }));
    const keys = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8'));
    assert.equal(keys.authority, undefined);
  });
});

describe('the certificate stays current by itself', () => {
  test('a restart keeps the authority and the certificate; a restored keys.json brings its authority back (phones go on trusting)', async () => {
    const first = await startTestServer({ https: true });
    await first.server.httpsReady();
    const dataDir = first.dataDir;
    const ca = authorityPem(dataDir);
    const serial = (await peerCertificate(first.server.port, 'localhost')).serialNumber;
    await first.server.close();
    const second = await startTestServer({ https: true, dataDir });
    try {
      await second.server.httpsReady();
      assert.equal(authorityPem(dataDir), ca);
      assert.equal((await peerCertificate(second.server.port, 'localhost')).serialNumber, serial, 'no new certificate without a reason');
    } finally {
      await second.close();
    }
  });
});
