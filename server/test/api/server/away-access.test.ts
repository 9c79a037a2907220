import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import tls from 'node:tls';
import { after, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import type { ConfigInput } from '../../../src/config.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { TailscaleCli } from '../../helpers/tailscale-cli.ts';

/*
 * The owner sees in the console how the family gets in from away from home (Tailscale, a
 * reverse proxy's PUBLIC_URL), and links say where they open: on the tailnet name while
 * Tailscale is up, for anyone in the tailnet. The `tailscale` CLI is played by an executable
 * script (helpers/tailscale-cli.ts) with recorded output: the boundary to an external program.
 */

const NAME = 'family-pc.tail1234.ts.net';
const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => fs.promises.rm(dir, { recursive: true, force: true }))));

async function serverWithTailscale(config: ConfigInput = {}): Promise<{ t: TestServer; cli: TailscaleCli; owner: SignedIn }> {
  const root = await makeTempDir('hearth-away-');
  dirs.push(root);
  const cli = new TailscaleCli(path.join(root, 'bin'));
  const t = await startTestServer({ tailscale: 'auto', tailscalePath: cli.command, ...config });
  const owner = await setupOwner(t.client);
  return { t, cli, owner };
}

/** The first look at Tailscale runs once the server listens, without holding it up: wait for it. */
async function networkOnceLooked(t: TestServer, owner: SignedIn) {
  for (let i = 0; i < 200; i++) {
    const res = await t.client.get('/admin/network', { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    if (res.body.away.tailscale !== 'not_found' || i === 199) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('unreachable');
}

describe('Tailscale up on the PC', () => {
  test('the console shows the tailnet name, its address for phones and the certificate; links are on the tailnet name and say so', async () => {
    const { t, owner } = await serverWithTailscale();
    try {
      const network = await networkOnceLooked(t, owner);
      const port = new URL(t.url).port;
      assert.deepEqual(network.away, {
        tailscale: 'running',
        tailscale_detail: null,
        tailnet: {
          name: NAME,
          // The front door answers the tailnet name with the certificate `tailscale cert` gave.
          url: `https://${NAME}:${port}/`,
          addresses: ['100.101.102.103', 'fd7a:115c:a1e0::e901:6667'],
          https: true,
          certificate_expires_at: network.away.tailnet.certificate_expires_at,
          certificate_problem: null,
        },
        public_url: null,
        trusted_proxies: 0,
      });
      assert.ok(network.away.tailnet.certificate_expires_at > Date.now() + 80 * 24 * 60 * 60_000);

      const kim = await createMember(t.client, owner, 'kim');
      const folder = (await t.client.post('/nodes/folder', { name: 'Holiday' }, { token: kim.access })).body;
      const link = await t.client.post(`/nodes/${folder.id}/share`, {}, { token: kim.access });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      assert.ok(link.body.url.startsWith(`https://${NAME}:${port}/s/`), link.body.url);
      // A phone in the tailnet asking for that name gets Tailscale's certificate for it, on the same port.
      const served = await new Promise<tls.PeerCertificate>((resolve, reject) => {
        const socket = tls.connect({ host: '127.0.0.1', port: Number(port), servername: NAME, rejectUnauthorized: false }, () => {
          resolve(socket.getPeerCertificate());
          socket.end();
        });
        socket.on('error', reject);
      });
      assert.match(served.subjectaltname ?? '', new RegExp(`DNS:${NAME.replace(/\./g, '\\.')}`));
      assert.equal((await t.client.get('/server/settings', { token: kim.access })).body.link_reach, 'tailnet');

      // The tailnet name is one of the server's names; a name it does not have is still refused.
      const direct = new ClientFrom(t.api, '127.0.0.1');
      assert.equal((await direct.get('/status', { headers: { host: `${NAME}:${port}` } })).status, 200);
      assertError(await direct.get('/status', { headers: { host: `other-pc.tail1234.ts.net:${port}` } }), 421, 'misdirected_request');
    } finally {
      await t.close();
    }
  });

  test("logged out: the console says so in Tailscale's words, links stay on the home network", async () => {
    const root = await makeTempDir('hearth-away-');
    dirs.push(root);
    const cli = new TailscaleCli(path.join(root, 'bin')).status('logged-out');
    const t = await startTestServer({ tailscale: 'auto', tailscalePath: cli.command });
    try {
      const owner = await setupOwner(t.client);
      const network = await networkOnceLooked(t, owner);
      assert.equal(network.away.tailscale, 'not_running');
      assert.equal(network.away.tailscale_detail, 'You are logged out.');
      assert.equal(network.away.tailnet, null);
      assert.equal((await t.client.get('/server/settings', { token: owner.access })).body.link_reach, 'home_network');
      assertError(await new ClientFrom(t.api, '127.0.0.1').get('/status', { headers: { host: NAME } }), 421, 'misdirected_request');
    } finally {
      await t.close();
    }
  });

  test("PUBLIC_URL, set by the owner, stays the links' origin with Tailscale up; the console shows both ways and the trusted proxies", async () => {
    const { t, owner } = await serverWithTailscale({
      publicUrl: 'https://photos.example.org',
      trustedProxies: ['127.0.0.1', '10.0.0.0/8'],
    });
    try {
      const network = await networkOnceLooked(t, owner);
      assert.equal(network.away.tailnet.name, NAME);
      assert.equal(network.away.public_url, 'https://photos.example.org');
      assert.equal(network.away.trusted_proxies, 2);
      assert.equal((await t.client.get('/server/settings', { token: owner.access })).body.link_reach, 'internet');
    } finally {
      await t.close();
    }
  });
});

test('with Tailscale off (TAILSCALE=off), the console says off and nothing is run', async () => {
  const root = await makeTempDir('hearth-away-');
  dirs.push(root);
  const cli = new TailscaleCli(path.join(root, 'bin'));
  const t = await startTestServer({ tailscale: 'off', tailscalePath: cli.command });
  try {
    const owner = await setupOwner(t.client);
    const network = (await t.client.get('/admin/network', { token: owner.access })).body;
    assert.deepEqual(network.away, { tailscale: 'off', tailscale_detail: null, tailnet: null, public_url: null, trusted_proxies: 0 });
    assert.deepEqual(cli.calls(), []);
  } finally {
    await t.close();
  }
});

test('a family member cannot read the network page (403)', async () => {
  const t = await startTestServer();
  try {
    const owner = await setupOwner(t.client);
    const kim = await createMember(t.client, owner, 'kim');
    assertError(await t.client.get('/admin/network', { token: kim.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/network'), 401, 'unauthorized');
  } finally {
    await t.close();
  }
});

test('"Check it works" looks at Tailscale again at once: signed in on the PC a moment ago, the tailnet address is there', async () => {
  const root = await makeTempDir('hearth-away-');
  dirs.push(root);
  const cli = new TailscaleCli(path.join(root, 'bin')).status('stopped');
  // The scheduled look is far off: only the check can see the change.
  const t = await startTestServer({ tailscale: 'auto', tailscalePath: cli.command, tailnetCheckIntervalMs: 3_600_000 });
  try {
    const owner = await setupOwner(t.client);
    const before = await networkOnceLooked(t, owner);
    assert.equal(before.away.tailscale, 'not_running');
    cli.status('running');
    assert.equal((await t.client.get('/admin/network', { token: owner.access })).body.away.tailscale, 'not_running');
    const checked = await t.client.post('/admin/network/check', {}, { token: owner.access });
    assert.equal(checked.status, 200, JSON.stringify(checked.body));
    assert.equal(checked.body.away.tailscale, 'running');
    assert.equal(checked.body.away.tailnet.name, NAME);
    assert.ok(checked.body.away.tailnet.url.includes(NAME), checked.body.away.tailnet.url);

    const kim = await createMember(t.client, owner, 'kim');
    assertError(await t.client.post('/admin/network/check', {}, { token: kim.access }), 403, 'forbidden');
    assertError(await t.client.post('/admin/network/check', {}), 401, 'unauthorized');
  } finally {
    await t.close();
  }
});
