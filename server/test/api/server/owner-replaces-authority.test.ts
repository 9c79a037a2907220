import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import tls from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { writeOlderAuthority } from '../../helpers/older-authority.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 30, finding 11: the owner sees on the Connect page the fingerprint a phone shows when
 * installing Hearth's authority, what the authority may vouch for, and the names phones use that
 * it does not cover; and may make a new one. A phone that trusted the old one is then not sent to
 * HTTPS (where it would meet a certificate it does not trust) until it installs the new one.
 */

/** A page opening over plain HTTP, with the guided page's cookie: a 307 means "sent to HTTPS". */
function openPage(port: number, cookie: string | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Host: `localhost:${port}`, 'Sec-Fetch-Mode': 'navigate' };
    if (cookie !== null) headers.Cookie = `hearth_https=${cookie}`;
    const request = http.request({ host: '127.0.0.1', port, path: '/files', headers, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('error', reject);
    request.end();
  });
}

/** The authority that signed the certificate served over TLS, by its fingerprint. */
function servedAuthority(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false }, () => {
      const chain = socket.getPeerCertificate(true);
      resolve(chain.issuerCertificate.fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

const cookieOf = (fingerprint: string) => fingerprint.replaceAll(':', '');

describe('the owner and Hearth’s authority', () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;
  before(async () => {
    t = await startTestServer({ https: true });
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'kid');
    await t.server.httpsReady();
  });
  after(() => t.close());

  test('GET /admin/https shows the fingerprint a phone shows (the guided page’s), what it vouches for, and that no phone has it yet', async () => {
    const view = await t.client.get('/admin/https', { token: owner.access });
    assert.equal(view.status, 200, JSON.stringify(view.body));
    const offer = await t.client.get('/server/https');
    const keys = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8')) as { authority: { certPem: string } };
    assert.equal(view.body.authority.fingerprint_sha256, new crypto.X509Certificate(keys.authority.certPem).fingerprint256);
    assert.equal(view.body.authority.fingerprint_sha256, offer.body.authority_fingerprint_sha256);
    assert.equal(view.body.authority.name, offer.body.authority_name);
    assert.equal(view.body.available, true);
    assert.equal(view.body.authority.limited, true);
    assert.ok(view.body.authority.names.includes('hearth.local'), JSON.stringify(view.body.authority.names));
    assert.ok(view.body.authority.addresses.includes('127.0.0.1/32'));
    assert.equal(view.body.authority.given_to_phones, false);
    assert.deepEqual(view.body.uncovered, []);
  });

  test('only the owner sees it or replaces it', async () => {
    assert.equal((await t.client.get('/admin/https')).status, 401);
    const forbidden = await t.client.get('/admin/https', { token: member.access });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.body.error.code, 'forbidden');
    const replace = await t.client.post('/admin/https/authority', {}, { token: member.access });
    assert.equal(replace.status, 403);
    assert.equal((await t.client.post('/admin/https/authority', {})).status, 401);
  });

  test('a phone downloading it makes it "given to phones"', async () => {
    assert.equal((await fetch(`${t.api}/server/https/authority.crt`)).status, 200);
    const view = await t.client.get('/admin/https', { token: owner.access });
    assert.equal(view.body.authority.given_to_phones, true);
  });

  test('a phone is sent to HTTPS only with the cookie of the authority it trusts; an older page’s "1" no longer does it', async () => {
    const view = await t.client.get('/admin/https', { token: owner.access });
    assert.equal(await openPage(t.server.port, cookieOf(view.body.authority.fingerprint_sha256)), 307);
    assert.notEqual(await openPage(t.server.port, '1'), 307, 'a limited authority was never trusted through "1"');
    assert.notEqual(await openPage(t.server.port, 'AB'.repeat(32)), 307);
    assert.notEqual(await openPage(t.server.port, null), 307);
  });

  test('replacing it: HTTPS serves a certificate of the new one, the check reports it, and phones of the old one stay on plain HTTP', async () => {
    const before = (await t.client.get('/admin/https', { token: owner.access })).body.authority.fingerprint_sha256 as string;
    const replaced = await t.client.post('/admin/https/authority', {}, { token: owner.access });
    assert.equal(replaced.status, 200, JSON.stringify(replaced.body));
    const now = replaced.body.authority.fingerprint_sha256 as string;
    assert.notEqual(now, before);
    assert.equal(replaced.body.authority.given_to_phones, false);
    assert.equal(await servedAuthority(t.server.port), now);
    assert.notEqual(await openPage(t.server.port, cookieOf(before)), 307, 'a phone of the old authority is not sent to HTTPS');
    assert.equal(await openPage(t.server.port, cookieOf(now)), 307);
    const offer = await t.client.get('/server/https');
    assert.equal(offer.body.authority_fingerprint_sha256, now);
  });
});

describe('an authority an earlier version made (issue 24), with phones that trust it', () => {
  let t: TestServer;
  let owner: SignedIn;
  let older: { fingerprint: string };
  before(async () => {
    const dataDir = await makeTempDir();
    older = writeOlderAuthority(dataDir);
    t = await startTestServer({ https: true, dataDir });
    owner = await setupOwner(t.client);
    await t.server.httpsReady();
  });
  after(() => t.close());

  test('is kept and serves as before; the owner is told it is not limited; the older pages’ cookie still sends phones to HTTPS', async () => {
    assert.equal(await servedAuthority(t.server.port), older.fingerprint);
    const view = await t.client.get('/admin/https', { token: owner.access });
    assert.equal(view.body.authority.fingerprint_sha256, older.fingerprint);
    assert.equal(view.body.authority.limited, false);
    assert.equal(view.body.authority.given_to_phones, true);
    assert.ok(view.body.authority.names.includes('lan'), 'it vouches for every .lan name');
    assert.equal(await openPage(t.server.port, '1'), 307);
  });

  test('replaced by the owner: limited, and the older pages’ cookie sends no phone to a certificate it does not trust', async () => {
    const replaced = await t.client.post('/admin/https/authority', {}, { token: owner.access });
    assert.equal(replaced.body.authority.limited, true);
    assert.notEqual(await openPage(t.server.port, '1'), 307);
    assert.equal(await servedAuthority(t.server.port), replaced.body.authority.fingerprint_sha256);
  });
});

describe('HTTPS off (HTTPS=0)', () => {
  test('the owner’s view says so, and there is no authority to replace', async () => {
    const t = await startTestServer({ https: false });
    try {
      const owner = await setupOwner(t.client);
      const view = await t.client.get('/admin/https', { token: owner.access });
      assert.deepEqual(view.body, { available: false, authority: null, uncovered: [] });
      const replace = await t.client.post('/admin/https/authority', {}, { token: owner.access });
      assert.equal(replace.status, 404);
      assert.equal(replace.body.error.code, 'https_off');
    } finally {
      await t.close();
    }
  });
});
