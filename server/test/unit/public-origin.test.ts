import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublicOrigin } from '../../src/services/server/public-origin.ts';
import type { LanAddress } from '../../src/platform/network.ts';

const LAN: LanAddress[] = [
  { address: '192.168.1.20', family: 'IPv4', interface: 'eth0' },
  { address: '2001:db8::20', family: 'IPv6', interface: 'eth0' },
];

test('PUBLIC_URL, when set, is the origin of every link', () => {
  const origin = new PublicOrigin({ host: '0.0.0.0', publicUrl: 'https://hearth.example.org' }, () => LAN);
  origin.listeningOn(8420);
  assert.equal(origin.current(), 'https://hearth.example.org');
});

test("listening on every address, the origin is the machine's LAN IPv4 address and the real port", () => {
  const origin = new PublicOrigin({ host: '0.0.0.0', publicUrl: null }, () => LAN);
  origin.listeningOn(8420);
  assert.equal(origin.current(), 'http://192.168.1.20:8420');
});

test('listening on IPv6 only with no IPv4 on the LAN, the origin is the IPv6 address in brackets', () => {
  const origin = new PublicOrigin({ host: '::', publicUrl: null }, () => LAN.filter((a) => a.family === 'IPv6'));
  origin.listeningOn(8420);
  assert.equal(origin.current(), 'http://[2001:db8::20]:8420');
});

test('listening on one address, the origin is that address; with no LAN at all, the loopback', () => {
  const one = new PublicOrigin({ host: '127.0.0.1', publicUrl: null }, () => LAN);
  one.listeningOn(9000);
  assert.equal(one.current(), 'http://127.0.0.1:9000');
  const none = new PublicOrigin({ host: '0.0.0.0', publicUrl: null }, () => []);
  none.listeningOn(9000);
  assert.equal(none.current(), 'http://127.0.0.1:9000');
});

test('a new LAN address (DHCP) is picked up once the detected origin is 10 s old', () => {
  let clock = 0;
  let lan = LAN;
  const origin = new PublicOrigin(
    { host: '0.0.0.0', publicUrl: null },
    () => lan,
    () => clock,
  );
  origin.listeningOn(8420);
  assert.equal(origin.current(), 'http://192.168.1.20:8420');
  lan = [{ address: '192.168.1.77', family: 'IPv4', interface: 'eth0' }];
  clock += 11_000;
  assert.equal(origin.current(), 'http://192.168.1.77:8420');
});

test('with Tailscale up and no PUBLIC_URL, links are on the tailnet name and reach the tailnet; https once the name is served over it', () => {
  let tailnet: { name: string; https: boolean } | null = { name: 'family-pc.tail1234.ts.net', https: false };
  const origin = new PublicOrigin(
    { host: '0.0.0.0', publicUrl: null },
    () => LAN,
    Date.now,
    () => tailnet,
  );
  origin.listeningOn(8420);
  assert.equal(origin.current(), 'http://family-pc.tail1234.ts.net:8420');
  assert.equal(origin.reach(), 'tailnet');
  tailnet = { name: 'family-pc.tail1234.ts.net', https: true };
  assert.equal(origin.current(), 'https://family-pc.tail1234.ts.net:8420');
  tailnet = null;
  assert.equal(origin.current(), 'http://192.168.1.20:8420');
  assert.equal(origin.reach(), 'home_network');
});

test('PUBLIC_URL, set by the owner, wins over the tailnet name', () => {
  const origin = new PublicOrigin(
    { host: '0.0.0.0', publicUrl: 'https://hearth.example.org' },
    () => LAN,
    Date.now,
    () => ({
      name: 'family-pc.tail1234.ts.net',
      https: true,
    }),
  );
  origin.listeningOn(8420);
  assert.equal(origin.current(), 'https://hearth.example.org');
  assert.equal(origin.reach(), 'internet');
});

test('while the server announces its .local name, invites and links are on that name (it outlives the address); PUBLIC_URL and the tailnet come first', () => {
  let announced: string | null = 'hearth.local';
  const named = new PublicOrigin(
    { host: '0.0.0.0', publicUrl: null },
    () => LAN,
    Date.now,
    () => null,
    () => announced,
  );
  named.listeningOn(8420);
  assert.equal(named.current(), 'http://hearth.local:8420');
  assert.equal(named.reach(), 'home_network');
  announced = null;
  assert.equal(named.current(), 'http://192.168.1.20:8420', 'not announcing: the address');
  const tailnet = new PublicOrigin(
    { host: '0.0.0.0', publicUrl: null },
    () => LAN,
    Date.now,
    () => ({ name: 'pc.tail1.ts.net', https: true }),
    () => 'hearth.local',
  );
  tailnet.listeningOn(8420);
  assert.equal(tailnet.current(), 'https://pc.tail1.ts.net:8420');
  const configured = new PublicOrigin(
    { host: '0.0.0.0', publicUrl: 'https://photos.example.org' },
    () => LAN,
    Date.now,
    () => null,
    () => 'hearth.local',
  );
  assert.equal(configured.current(), 'https://photos.example.org');
});
