import assert from 'node:assert/strict';
import http from 'node:http';
import os from 'node:os';
import { after, before, describe, test } from 'node:test';
import * as tus from 'tus-js-client';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { listLanAddresses } from '../../../src/platform/network.ts';

/*
 * Issue 12, finding 13: any Host was served, and link URLs were built from it. A web page a
 * family member opens can rebind its own name to the server's address and then read the
 * API as if it were its own origin: reach /setup before the owner, or guess passwords from
 * every family browser at once. The server now answers only its own names and addresses.
 */

/** A request sent to the test server (127.0.0.1) with a Host header of our choosing. */
function withHost(t: TestServer, host: string): ClientFrom {
  const client = new ClientFrom(t.api, '127.0.0.1');
  const request = client.request.bind(client);
  client.request = (method, route, options = {}) => request(method, route, { ...options, headers: { ...options.headers, host } });
  return client;
}

/** A WebSocket upgrade request with the given Host; resolves with the HTTP answer that refused it. */
function upgradeWithHost(t: TestServer, host: string, token: string): Promise<{ status: number; body: string; type: string }> {
  const url = new URL(`${t.api}/ws`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      headers: {
        host,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        authorization: `Bearer ${token}`,
      },
    });
    req.on('upgrade', () => reject(new Error('the upgrade was accepted')));
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, type: res.headers['content-type'] ?? '' }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("only the server's own names are answered (issue 12, finding 13)", () => {
  let t: TestServer;
  let owner: SignedIn;
  before(async () => {
    t = await startTestServer({ hostNames: ['hearth.home.arpa', 'Family-PC.'] });
  });
  after(() => t.close());

  test('a rebound page cannot run /setup before the owner: POST /setup with Host evil.example answers 421 misdirected_request and nothing is created', async () => {
    const rebound = withHost(t, 'evil.example:8420');
    assertError(await rebound.post('/setup', { username: 'mallory', password: 'mallory-password' }), 421, 'misdirected_request');
    assert.equal((await t.client.get('/status')).body.setup_required, true);
    owner = await setupOwner(t.client);
  });

  test('sign-in, reads and unknown routes under a foreign Host all answer 421 with the error envelope', async () => {
    const rebound = withHost(t, 'evil.example');
    assertError(await rebound.post('/auth/login', { username: 'owner', password: 'a-guess-at-it' }), 421, 'misdirected_request');
    assertError(await rebound.get('/me', { token: owner.access }), 421, 'misdirected_request');
    assertError(await rebound.get('/status'), 421, 'misdirected_request');
    assertError(await rebound.get('/no/such/route'), 421, 'misdirected_request');
    const rootHealth = await new ClientFrom(t.url, '127.0.0.1').get('/healthz', { headers: { host: 'evil.example' } });
    assertError(rootHealth, 421, 'misdirected_request');
    // A name that merely contains an allowed one is not it.
    assertError(await withHost(t, 'localhost.evil.example').get('/status'), 421, 'misdirected_request');
    assertError(await withHost(t, 'local').get('/status'), 421, 'misdirected_request');
  });

  test('a tus upload under a foreign Host answers 421 with the envelope and the tus headers', async () => {
    const res = await withHost(t, 'evil.example').request('POST', '/uploads', {
      token: owner.access,
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '5' },
    });
    assertError(res, 421, 'misdirected_request');
    assert.equal(res.headers.get('tus-resumable'), '1.0.0');
    // The real tus client, pointed at a rebound name, fails the same way.
    const failed = await new Promise<Error>((resolve) => {
      new tus.Upload(Buffer.from('hello'), {
        endpoint: `${t.api}/uploads`,
        retryDelays: [],
        headers: { Authorization: `Bearer ${owner.access}`, Host: 'evil.example' },
        onError: resolve,
        onSuccess: () => resolve(new Error('accepted')),
      }).start();
    });
    assert.match(String(failed), /421/);
  });

  test('the WebSocket upgrade under a foreign Host is refused with 421 and the envelope', async () => {
    const refused = await upgradeWithHost(t, 'evil.example', owner.access);
    assert.equal(refused.status, 421);
    assert.match(refused.type, /application\/json/);
    assert.equal(JSON.parse(refused.body).error.code, 'misdirected_request');
  });

  test("localhost, 127.0.0.1, [::1], the machine's own addresses and name, any *.local name and the HOST_NAMES names are answered", async () => {
    const port = new URL(t.url).port;
    const hosts = [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      'family-pc.local',
      'FAMILY-PC.LOCAL.',
      'hearth.home.arpa',
      'family-pc',
      os.hostname(),
      ...listLanAddresses().map((a) => (a.family === 'IPv6' ? `[${a.address}]:${port}` : `${a.address}:${port}`)),
    ];
    for (const host of hosts) {
      const res = await withHost(t, host).get('/status');
      assert.equal(res.status, 200, `${host}: ${JSON.stringify(res.body)}`);
    }
  });
});

describe("link URLs never come from the request's Host (issue 12, finding 13)", () => {
  test("with PUBLIC_URL set, a link's url is on that origin whatever Host the request carried, and that name is answered", async () => {
    const t = await startTestServer({ publicUrl: 'http://hearth.example.org:8420/' });
    try {
      const owner = await setupOwner(t.client);
      const fileId = await uploadFile(t.api, owner.access, Buffer.from('holiday'), { filename: 'holiday.txt' });
      const created = await withHost(t, 'family-pc.local').post(`/nodes/${fileId}/share`, {}, { token: owner.access });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.url, `http://hearth.example.org:8420/s/${created.body.token}`);
      const listed = await withHost(t, 'localhost').get('/shares', { token: owner.access });
      assert.equal(listed.body.items[0].url, created.body.url);
      assert.equal((await withHost(t, 'hearth.example.org:8420').get('/status')).status, 200);
    } finally {
      await t.close();
    }
  });

  test("an invite's url is on PUBLIC_URL too, whatever Host the owner's request carried", async () => {
    const t = await startTestServer({ publicUrl: 'http://hearth.example.org:8420' });
    try {
      const owner = await setupOwner(t.client);
      const invite = await withHost(t, 'family-pc.local').post('/admin/invites', {}, { token: owner.access });
      assert.equal(invite.status, 201, JSON.stringify(invite.body));
      assert.equal(invite.body.url, `http://hearth.example.org:8420/invite/${invite.body.code}`);
      const listed = await t.client.get('/admin/invites', { token: owner.access });
      assert.equal(listed.body.items[0].url, undefined, 'the code and its link are shown once');
    } finally {
      await t.close();
    }
  });

  test("without PUBLIC_URL, a link's url is on the detected origin (the address the server listens on), not the name the request used", async () => {
    const t = await startTestServer();
    try {
      const owner = await setupOwner(t.client);
      const fileId = await uploadFile(t.api, owner.access, Buffer.from('holiday'), { filename: 'holiday.txt' });
      const created = await withHost(t, 'some-name.local').post(`/nodes/${fileId}/share`, {}, { token: owner.access });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.url, `${t.url}/s/${created.body.token}`);
      assert.ok(!created.body.url.includes('some-name'));
    } finally {
      await t.close();
    }
  });
});
