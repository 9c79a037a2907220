import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { describe, test } from 'node:test';
import { OWNER, setupOwner } from '../../helpers/accounts.ts';
import { CADDY, NGINX, PROXY_NAME, type ProxyKind, type RunningProxy } from '../../helpers/readme-proxies.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { skipBecause } from '../../helpers/skip.ts';

/*
 * The README's Caddy and nginx examples, run as an owner copies them (only ports and file paths
 * changed), in front of the real server with TRUSTED_PROXIES=127.0.0.1. Both proxies write
 * X-Forwarded-For and would pass a visitor's own `Forwarded` on: a visitor who writes a new
 * `Forwarded: for=` with each wrong password must stay one address to the limit on guesses, a
 * sign-in must be recorded under the address the proxy saw, and the address of an upload (made
 * from the X-Forwarded-Proto and -Host the proxy sets) must be one the visitor can follow.
 */

const QUICK_DELAYS = { slowBaseMs: 20, slowMaxMs: 200 };
const API = '/api/v1';

async function behindProxy(kind: ProxyKind, work: (t: TestServer, proxy: RunningProxy) => Promise<void>): Promise<void> {
  const t = await startTestServer({
    rateLimit: QUICK_DELAYS,
    trustedProxies: ['127.0.0.1'],
    publicUrl: `https://${PROXY_NAME}`,
  });
  const dir = await makeTempDir('hearth-proxy-');
  try {
    const proxy = await kind.start(t.server.port, dir);
    try {
      await work(t, proxy);
    } finally {
      await proxy.stop();
    }
  } finally {
    await t.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

for (const kind of [CADDY, NGINX]) {
  describe(`behind the README's ${kind.name} example`, () => {
    test('25 wrong passwords, each forging a new Forwarded: for= and X-Forwarded-For, reach 429 after the tenth; the sign-in is recorded under the address the proxy saw', async (ctx) => {
      const missing = kind.missing();
      if (missing) return skipBecause(ctx, missing);
      await behindProxy(kind, async (t, proxy) => {
        await setupOwner(t.client);
        const statuses: number[] = [];
        for (let i = 0; i < 25; i++) {
          const res = await proxy.request('POST', `${API}/auth/login`, {
            from: '127.0.0.3',
            body: { username: OWNER.username, password: `wrong-guess-${i}` },
            headers: { Forwarded: `for=198.51.100.${i + 1}`, 'X-Forwarded-For': `192.0.2.${i + 1}` },
          });
          statuses.push(res.status);
          if (res.status === 429) assert.equal(res.body.error.code, 'rate_limited');
        }
        assert.deepEqual(statuses, [...Array(10).fill(401), ...Array(15).fill(429)], JSON.stringify(statuses));

        // Another visitor through the same proxy signs in, and is recorded as itself, whatever it wrote.
        const signedIn = await proxy.request('POST', `${API}/auth/login`, {
          from: '127.0.0.2',
          body: OWNER,
          headers: { Forwarded: 'for=203.0.113.9', 'X-Forwarded-For': '203.0.113.9' },
        });
        assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
        const sessions = await t.client.get('/sessions', { token: signedIn.body.access_token });
        const current = sessions.body.items.find((s: { current: boolean }) => s.current);
        assert.equal(current?.ip, '127.0.0.2', JSON.stringify(sessions.body.items));
      });
    });

    test("an upload's address is https on the name and port the visitor used, and the upload finishes through it", async (ctx) => {
      const missing = kind.missing();
      if (missing) return skipBecause(ctx, missing);
      await behindProxy(kind, async (t, proxy) => {
        const owner = await setupOwner(t.client);
        const content = Buffer.from('through the proxy');
        const created = await proxy.request('POST', `${API}/uploads`, {
          headers: {
            authorization: `Bearer ${owner.access}`,
            'Tus-Resumable': '1.0.0',
            'Upload-Length': String(content.length),
            'Upload-Metadata': `filename ${Buffer.from('proxied.txt').toString('base64')}`,
          },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const location = new URL(created.headers.get('location') ?? '');
        assert.equal(location.origin, `https://${PROXY_NAME}:${proxy.port}`);

        const finished = await proxy.request('PATCH', location.pathname, {
          rawBody: content,
          headers: {
            authorization: `Bearer ${owner.access}`,
            'Tus-Resumable': '1.0.0',
            'Upload-Offset': '0',
            'Content-Type': 'application/offset+octet-stream',
          },
        });
        assert.equal(finished.status, 204, JSON.stringify(finished.body));
        const nodeId = finished.headers.get('service-node-id');
        assert.ok(nodeId);
        const download = await t.client.get(`/nodes/${nodeId}/download`, { token: owner.access });
        assert.equal(download.body, content.toString());
      });
    });
  });
}
