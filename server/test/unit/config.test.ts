import assert from 'node:assert/strict';
import { test } from 'node:test';
import { configFromEnv, resolveConfig } from '../../src/config.ts';

test('HOST_NAMES is a comma-separated list of names, kept lower case without a trailing dot', () => {
  const config = resolveConfig(configFromEnv({ HOST_NAMES: 'Family-PC.lan., hearth.home.arpa ,,' }));
  assert.deepEqual(config.hostNames, ['family-pc.lan', 'hearth.home.arpa']);
  assert.deepEqual(resolveConfig({}).hostNames, []);
});

test('PUBLIC_URL is an http(s) origin; a path, query or credentials are refused at startup', () => {
  assert.equal(resolveConfig(configFromEnv({ PUBLIC_URL: 'http://Hearth.Example.org:8420/' })).publicUrl, 'http://hearth.example.org:8420');
  assert.equal(resolveConfig({}).publicUrl, null);
  for (const bad of ['ftp://x.example', 'http://x.example/app', 'http://u:p@x.example', 'http://x.example/?a=1', 'not a url']) {
    assert.throws(() => configFromEnv({ PUBLIC_URL: bad }), /PUBLIC_URL/, bad);
  }
});

test('ANNOUNCE=1 or 0 turns the .local name on or off; the headless server stays quiet unless told', () => {
  assert.equal(resolveConfig({}).announce, false);
  assert.equal(resolveConfig(configFromEnv({ ANNOUNCE: '1' })).announce, true);
  assert.equal(resolveConfig(configFromEnv({ ANNOUNCE: 'true' })).announce, true);
  assert.equal(resolveConfig(configFromEnv({ ANNOUNCE: '0' })).announce, false);
  assert.equal(configFromEnv({}).announce, undefined, 'the desktop app sees "not said" and turns it on');
  assert.throws(() => configFromEnv({ ANNOUNCE: 'yes' }), /ANNOUNCE must be 1 or 0/);
});

test('HTTPS=0 turns HTTPS off; it is on unless told', () => {
  assert.equal(resolveConfig({}).https, true);
  assert.equal(resolveConfig(configFromEnv({ HTTPS: '0' })).https, false);
  assert.equal(resolveConfig(configFromEnv({ HTTPS: '1' })).https, true);
  assert.throws(() => configFromEnv({ HTTPS: 'maybe' }), /HTTPS must be 1 or 0/);
});

test('TRUSTED_PROXIES lists addresses and CIDR ranges; a name, a bad range or garbage is refused at startup', () => {
  const config = resolveConfig(configFromEnv({ TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,FD00::/8,,' }));
  assert.deepEqual(config.trustedProxies, ['127.0.0.1', '10.0.0.0/8', 'fd00::/8']);
  assert.deepEqual(resolveConfig({}).trustedProxies, []);
  for (const bad of ['proxy.lan', '10.0.0.0/33', '10.0.0.0/', '::/129', '10.0.0.0/8/1', '1.2.3']) {
    assert.throws(() => resolveConfig(configFromEnv({ TRUSTED_PROXIES: bad })), /TRUSTED_PROXIES/, bad);
  }
});

test('TRUSTED_PROXY_HEADER chooses one header family, X-Forwarded-For unless told forwarded; anything else is refused at startup', () => {
  assert.equal(resolveConfig({}).trustedProxyHeader, 'x-forwarded-for');
  assert.equal(resolveConfig(configFromEnv({ TRUSTED_PROXY_HEADER: 'Forwarded' })).trustedProxyHeader, 'forwarded');
  assert.equal(resolveConfig(configFromEnv({ TRUSTED_PROXY_HEADER: 'x-forwarded-for' })).trustedProxyHeader, 'x-forwarded-for');
  for (const bad of ['both', 'x-real-ip', 'forwarded,x-forwarded-for']) {
    assert.throws(() => configFromEnv({ TRUSTED_PROXY_HEADER: bad }), /TRUSTED_PROXY_HEADER must be x-forwarded-for or forwarded/, bad);
  }
});

test('downloads: a minute without progress closes one, 24 per address, 12 per session, 16 per link, each set by its variable; nonsense is refused at startup', () => {
  assert.deepEqual(resolveConfig({}).downloads, { stallMs: 60_000, perAddress: 24, perSession: 12, perLink: 16 });
  const set = resolveConfig(
    configFromEnv({ DOWNLOAD_STALL_SECONDS: '300', DOWNLOADS_PER_ADDRESS: '50', DOWNLOADS_PER_SESSION: '20', DOWNLOADS_PER_LINK: '4' }),
  );
  assert.deepEqual(set.downloads, { stallMs: 300_000, perAddress: 50, perSession: 20, perLink: 4 });
  assert.deepEqual(resolveConfig(configFromEnv({ DOWNLOADS_PER_LINK: '4' })).downloads, { ...resolveConfig({}).downloads, perLink: 4 });
  for (const [name, bad] of [
    ['DOWNLOAD_STALL_SECONDS', '0'],
    ['DOWNLOAD_STALL_SECONDS', '1.5'],
    ['DOWNLOADS_PER_ADDRESS', '0'],
    ['DOWNLOADS_PER_SESSION', 'many'],
    ['DOWNLOADS_PER_LINK', '-1'],
  ] as const) {
    assert.throws(() => configFromEnv({ [name]: bad }), new RegExp(`${name} must be a whole number`), `${name}=${bad}`);
  }
});

test('TAILSCALE is auto (the default) or off; TAILSCALE_PATH names the CLI', () => {
  assert.equal(resolveConfig({}).tailscale, 'auto');
  assert.equal(resolveConfig(configFromEnv({ TAILSCALE: 'off' })).tailscale, 'off');
  assert.throws(() => configFromEnv({ TAILSCALE: 'on' }), /TAILSCALE must be auto or off/);
  assert.equal(resolveConfig(configFromEnv({ TAILSCALE_PATH: '/opt/ts/tailscale' })).tailscalePath, '/opt/ts/tailscale');
});
