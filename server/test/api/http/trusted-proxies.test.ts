import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OWNER, setupOwner } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { startTestServer, type ApiClient } from '../../helpers/server.ts';

/*
 * X-Forwarded-For and its kin are believed from the proxies the owner named (TRUSTED_PROXIES)
 * and from no one else: a phone on the home Wi-Fi that forges a new X-Forwarded-For with each
 * wrong password must stay one address to the limit on guesses, while a reverse proxy in front
 * of Hearth gets each of its visitors counted (and shown on the devices list) as themselves.
 */

const QUICK_DELAYS = { slowBaseMs: 20, slowMaxMs: 200 };

async function wrongPasswords(client: ApiClient, times: number, forwardedFor: (i: number) => string): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await client.post(
      '/auth/login',
      { username: OWNER.username, password: `wrong-guess-${i}` },
      { headers: { 'X-Forwarded-For': forwardedFor(i) } },
    );
    assertError(res, 401, 'invalid_credentials');
  }
}

describe('X-Forwarded-For from an address that is not a trusted proxy is ignored', () => {
  test('ten wrong passwords from 127.0.0.1, each forging another X-Forwarded-For, limit 127.0.0.1: the eleventh is 429 whatever it forges', async () => {
    const t = await startTestServer({ rateLimit: QUICK_DELAYS });
    try {
      await setupOwner(t.client);
      await wrongPasswords(t.client, 10, (i) => `203.0.113.${i + 1}`);
      const eleventh = await t.client.post('/auth/login', OWNER, { headers: { 'X-Forwarded-For': '203.0.113.99' } });
      assertError(eleventh, 429, 'rate_limited');
      // The limit is 127.0.0.1's own: another address signs in.
      assert.equal((await new ClientFrom(t.api, '127.0.0.2').post('/auth/login', OWNER)).status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('from a trusted proxy (TRUSTED_PROXIES=127.0.0.1), the forwarded address is the client', () => {
  test('ten wrong passwords forwarded for 203.0.113.7 limit 203.0.113.7, not the proxy: another visitor through it signs in', async () => {
    const t = await startTestServer({ rateLimit: QUICK_DELAYS, trustedProxies: ['127.0.0.1'] });
    try {
      await setupOwner(t.client);
      await wrongPasswords(t.client, 10, () => '203.0.113.7');
      const again = await t.client.post('/auth/login', OWNER, { headers: { 'X-Forwarded-For': '203.0.113.7' } });
      assertError(again, 429, 'rate_limited');
      // A visitor cannot escape by writing an address of its own in front: the proxy appended the real one.
      const prepended = await t.client.post('/auth/login', OWNER, { headers: { 'X-Forwarded-For': '198.51.100.1, 203.0.113.7' } });
      assertError(prepended, 429, 'rate_limited');
      const other = await t.client.post('/auth/login', OWNER, { headers: { 'X-Forwarded-For': '203.0.113.8' } });
      assert.equal(other.status, 200, JSON.stringify(other.body));
      // The devices list shows where the sign-in came from, as the proxy saw it.
      const sessions = await t.client.get('/sessions', { token: other.body.access_token });
      assert.ok(
        sessions.body.items.some((s: { ip: string }) => s.ip === '203.0.113.8'),
        JSON.stringify(sessions.body.items),
      );
    } finally {
      await t.close();
    }
  });

  test("a visitor's own Forwarded header is not believed beside the proxy's X-Forwarded-For: twenty forged Forwarded addresses stay one visitor", async () => {
    const t = await startTestServer({ rateLimit: QUICK_DELAYS, trustedProxies: ['127.0.0.1'] });
    try {
      await setupOwner(t.client);
      // What Caddy and nginx send by default: their own X-Forwarded-For, and the visitor's Forwarded passed on as it came.
      const results: number[] = [];
      for (let i = 0; i < 20; i++) {
        const res = await t.client.post(
          '/auth/login',
          { username: OWNER.username, password: `wrong-guess-${i}` },
          { headers: { 'X-Forwarded-For': '203.0.113.7', Forwarded: `for=198.51.100.${i + 1}` } },
        );
        results.push(res.status);
      }
      assert.deepEqual(results.slice(10), Array(10).fill(429), JSON.stringify(results));
      // The name and protocol in it are not believed either: the Host allow list checks X-Forwarded-Host alone.
      const named = await t.client.get('/status', { headers: { Forwarded: 'host=rebound.attacker.example;proto=https' } });
      assert.equal(named.status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('TRUSTED_PROXY_HEADER=forwarded: a proxy that writes RFC 7239 Forwarded is read from it, and X-Forwarded-* is then ignored', () => {
  test('Forwarded is read, a range trusts each proxy in it, and a chain of trusted proxies is walked to the first that is not', async () => {
    const t = await startTestServer({
      rateLimit: QUICK_DELAYS,
      trustedProxies: ['127.0.0.0/8', '10.0.0.0/8'],
      trustedProxyHeader: 'forwarded',
    });
    try {
      await setupOwner(t.client);
      const viaFrontProxy = new ClientFrom(t.api, '127.0.0.5');
      for (let i = 0; i < 10; i++) {
        const res = await viaFrontProxy.post(
          '/auth/login',
          { username: OWNER.username, password: `wrong-guess-${i}` },
          // The visitor, then a second proxy of the owner's (10.1.2.3) that passed it on; X-Forwarded-For is the visitor's forgery.
          { headers: { Forwarded: 'for=192.0.2.60;proto=https, for=10.1.2.3', 'X-Forwarded-For': `198.51.100.${i + 1}` } },
        );
        assertError(res, 401, 'invalid_credentials');
      }
      assertError(await viaFrontProxy.post('/auth/login', OWNER, { headers: { Forwarded: 'for=192.0.2.60' } }), 429, 'rate_limited');
      const ok = await viaFrontProxy.post('/auth/login', OWNER, { headers: { Forwarded: 'for="[2001:db8:cafe::17]:4711"' } });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      // X-Forwarded-Host means nothing in this mode; the host in Forwarded is the name checked.
      assert.equal((await t.client.get('/status', { headers: { 'X-Forwarded-Host': 'rebound.attacker.example' } })).status, 200);
      assertError(await t.client.get('/status', { headers: { Forwarded: 'host=rebound.attacker.example' } }), 421, 'misdirected_request');
    } finally {
      await t.close();
    }
  });
});

describe('the protocol and the name a trusted proxy forwards', () => {
  async function createUpload(client: ApiClient, token: string, headers: Record<string, string>) {
    return client.post('/uploads', undefined, {
      token,
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': '5',
        'Upload-Metadata': `filename ${Buffer.from('a.txt').toString('base64')}`,
        ...headers,
      },
    });
  }

  test("an upload's address is https on the public name through the proxy, and the plain connection's from anyone else", async () => {
    const t = await startTestServer({ trustedProxies: ['127.0.0.1'], publicUrl: 'https://photos.example.org' });
    try {
      const owner = await setupOwner(t.client);
      const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'photos.example.org', 'X-Forwarded-For': '203.0.113.7' };
      const proxied = await createUpload(t.client, owner.access, forwarded);
      assert.equal(proxied.status, 201, JSON.stringify(proxied.body));
      assert.match(proxied.headers.get('location') ?? '', /^https:\/\/photos\.example\.org\/api\/v1\/uploads\//);

      const direct = await createUpload(new ClientFrom(t.api, '127.0.0.2'), owner.access, forwarded);
      assert.equal(direct.status, 201, JSON.stringify(direct.body));
      assert.match(direct.headers.get('location') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/uploads\//);
    } finally {
      await t.close();
    }
  });

  test('the name a trusted proxy forwards is the one the Host allow list checks (a rebound name through the proxy is refused)', async () => {
    const t = await startTestServer({ trustedProxies: ['127.0.0.1'] });
    try {
      assertError(
        await t.client.get('/status', { headers: { 'X-Forwarded-Host': 'rebound.attacker.example' } }),
        421,
        'misdirected_request',
      );
      assert.equal((await t.client.get('/status', { headers: { 'X-Forwarded-Host': 'family-pc.local' } })).status, 200);
      // From an untrusted address the forwarded name means nothing: its Host is checked.
      const direct = await new ClientFrom(t.api, '127.0.0.2').get('/status', {
        headers: { 'X-Forwarded-Host': 'rebound.attacker.example' },
      });
      assert.equal(direct.status, 200);
    } finally {
      await t.close();
    }
  });
});
