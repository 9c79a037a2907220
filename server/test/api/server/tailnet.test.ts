import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createLogger } from '../../../src/log.ts';
import { Tailnet } from '../../../src/services/server/tailnet.ts';
import { makeTempDir } from '../../helpers/server.ts';
import { TailscaleCli } from '../../helpers/tailscale-cli.ts';

/*
 * Hearth finds Tailscale on the PC, takes the PC's tailnet name and keeps an HTTPS certificate
 * for it, and nothing Tailscale does (missing, logged out, stopped, refusing a certificate) can
 * stop the server. The real `tailscale` needs its daemon and the network: it is played by an
 * executable script (helpers/tailscale-cli.ts) answering recorded output and making real
 * certificates with openssl, the boundary to an external program.
 */

const DAY = 24 * 60 * 60_000;
const NAME = 'family-pc.tail1234.ts.net';
const dirs: string[] = [];
after(() => Promise.all(dirs.map((dir) => fs.promises.rm(dir, { recursive: true, force: true }))));

async function world(options: { retryAfterFailureMs?: number } = {}) {
  const root = await makeTempDir('hearth-tailnet-');
  dirs.push(root);
  const cli = new TailscaleCli(path.join(root, 'bin'));
  const dataDir = path.join(root, 'data');
  fs.mkdirSync(dataDir, { mode: 0o700 });
  const make = (tailscalePath: string | null = cli.command) =>
    new Tailnet(
      { tailscale: 'auto', tailscalePath, tailnetCheckIntervalMs: 60 * 60_000, dataDir },
      createLogger('silent'),
      Date.now,
      options.retryAfterFailureMs ?? 60 * 60_000,
    );
  return { cli, dataDir, make };
}

describe('Tailscale on the PC', () => {
  test('not installed: no tailnet, no certificate, said as not found', async () => {
    const { make, dataDir } = await world();
    const tailnet = make(path.join(dataDir, 'no-such-tailscale'));
    await tailnet.start();
    assert.equal(tailnet.current(), null);
    assert.equal(tailnet.certificate(), null);
    assert.equal(tailnet.status().tailscale, 'not_found');
    await tailnet.stop();
  });

  test('TAILSCALE=off never runs the CLI', async () => {
    const { cli, dataDir } = await world();
    const tailnet = new Tailnet(
      { tailscale: 'off', tailscalePath: cli.command, tailnetCheckIntervalMs: 1000, dataDir },
      createLogger('silent'),
    );
    await tailnet.start();
    await tailnet.refresh();
    assert.equal(tailnet.status().tailscale, 'off');
    assert.deepEqual(cli.calls(), []);
    await tailnet.stop();
  });

  test("logged out, stopped, or its daemon not running: no tailnet name, and Tailscale's words for the console", async () => {
    const { cli, make } = await world();
    const tailnet = make();
    cli.status('logged-out');
    await tailnet.start();
    assert.equal(tailnet.current(), null);
    assert.deepEqual(tailnet.status(), { tailscale: 'not_running', detail: 'You are logged out.', certificateProblem: null });
    cli.status('stopped');
    await tailnet.refresh();
    assert.equal(tailnet.status().detail, 'Tailscale is stopped.');
    cli.status('daemon-down');
    await tailnet.refresh();
    assert.equal(tailnet.status().tailscale, 'not_running');
    assert.match(tailnet.status().detail ?? '', /tailscaled/);
    assert.ok(!cli.calls().some((call) => call.startsWith('cert')), 'no certificate asked for a machine that is not up');
    await tailnet.stop();
  });

  test('running: the tailnet name and addresses, a certificate for the name kept in a private folder (0700, files 0600)', async () => {
    const { cli, make, dataDir } = await world();
    const tailnet = make();
    await tailnet.start();
    assert.deepEqual(tailnet.current(), { name: NAME, addresses: ['100.101.102.103', 'fd7a:115c:a1e0::e901:6667'] });
    const certificate = tailnet.certificate();
    assert.ok(certificate, 'a certificate');
    const x509 = new crypto.X509Certificate(certificate.cert);
    assert.equal(x509.checkHost(NAME), NAME);
    assert.ok(x509.checkPrivateKey(crypto.createPrivateKey(certificate.key)));
    assert.ok(Math.abs(certificate.notAfter.getTime() - (Date.now() + 90 * DAY)) < DAY);
    assert.deepEqual(tailnet.status(), { tailscale: 'running', detail: null, certificateProblem: null });
    assert.deepEqual(
      cli
        .calls()
        .filter((c) => c.startsWith('cert'))
        .map((c) => c.split(' ').at(-1)),
      [NAME],
    );

    const folder = path.join(dataDir, 'tailscale');
    assert.equal(fs.statSync(folder).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(folder).sort(), ['tailnet.crt', 'tailnet.key'], 'no temp files left');
    for (const file of fs.readdirSync(folder)) assert.equal(fs.statSync(path.join(folder, file)).mode & 0o777, 0o600, file);

    // A second look with plenty of time left asks for nothing.
    await tailnet.refresh();
    assert.equal(cli.calls().filter((c) => c.startsWith('cert')).length, 1);
    await tailnet.stop();

    // The next start serves the kept certificate without asking Tailscale for one.
    const again = make();
    await again.start();
    assert.equal(again.certificate()?.notAfter.getTime(), certificate.notAfter.getTime());
    assert.equal(cli.calls().filter((c) => c.startsWith('cert')).length, 1);
    await again.stop();
  });

  test('a certificate with under 30 days left is renewed at the next look, and the change is heard', async () => {
    const { cli, make } = await world();
    const tailnet = make();
    cli.certDays(20);
    await tailnet.start();
    const first = tailnet.certificate()!.notAfter.getTime();
    assert.ok(first < Date.now() + 21 * DAY);
    let heard = 0;
    tailnet.onChange(() => heard++);
    cli.certDays(90);
    await tailnet.refresh();
    assert.ok(tailnet.certificate()!.notAfter.getTime() > first + 60 * DAY, 'renewed');
    assert.equal(cli.calls().filter((c) => c.startsWith('cert')).length, 2);
    assert.equal(heard, 1);
    await tailnet.stop();
  });

  test('a refused certificate is not fatal: the name still works, the problem is said, the old certificate keeps serving, and it is asked again later', async () => {
    const { cli, make } = await world({ retryAfterFailureMs: 0 });
    const tailnet = make();
    cli.certFails('500 Internal Server Error: your Tailscale account does not support getting TLS certs');
    await tailnet.start();
    assert.equal(tailnet.current()?.name, NAME);
    assert.equal(tailnet.certificate(), null);
    assert.match(tailnet.status().certificateProblem ?? '', /HTTPS certificates are turned off/);

    cli.certFails(null).certDays(20);
    await tailnet.refresh();
    const held = tailnet.certificate();
    assert.ok(held, 'got one once Tailscale gave it');
    assert.equal(tailnet.status().certificateProblem, null);

    // Due for renewal, refused: the one held still serves until it ends.
    cli.certFails("Access denied: cert access denied\n\nUse 'sudo tailscale cert' or 'tailscale up --operator=$USER' to not require root.");
    await tailnet.refresh();
    assert.equal(tailnet.certificate()?.notAfter.getTime(), held.notAfter.getTime());
    assert.match(tailnet.status().certificateProblem ?? '', /operator/);
    await tailnet.stop();
  });

  test("a refused certificate is not asked for again at every look (Let's Encrypt limits failures)", async () => {
    const { cli, make } = await world();
    const tailnet = make();
    cli.certFails('tailscale: something went wrong');
    await tailnet.start();
    await tailnet.refresh();
    await tailnet.refresh();
    assert.equal(cli.calls().filter((c) => c.startsWith('cert')).length, 1);
    assert.equal(tailnet.status().certificateProblem, 'Tailscale could not give a certificate: tailscale: something went wrong');
    await tailnet.stop();
  });

  test('HTTPS certificates off for the tailnet: no certificate is asked for, and the console says where to turn them on', async () => {
    const { cli, make } = await world();
    const tailnet = make();
    cli.status('running-no-https');
    await tailnet.start();
    assert.equal(tailnet.current()?.name, NAME);
    assert.equal(tailnet.certificate(), null);
    assert.match(tailnet.status().certificateProblem ?? '', /admin console/);
    assert.ok(!cli.calls().some((call) => call.startsWith('cert')));
    await tailnet.stop();
  });

  test('Tailscale stopping takes the name and the certificate away; starting again brings them back', async () => {
    const { cli, make } = await world();
    const tailnet = make();
    await tailnet.start();
    assert.ok(tailnet.certificate());
    cli.status('stopped');
    await tailnet.refresh();
    assert.equal(tailnet.current(), null);
    assert.equal(tailnet.certificate(), null);
    cli.status('running');
    await tailnet.refresh();
    assert.ok(tailnet.certificate());
    assert.equal(cli.calls().filter((c) => c.startsWith('cert')).length, 1, 'the kept certificate serves again');
    await tailnet.stop();
  });
});
