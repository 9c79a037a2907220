import assert from 'node:assert/strict';
import type os from 'node:os';
import { describe, test } from 'node:test';
import { OwnAddresses, canonicalAddress, listLanAddresses, listOwnAddresses } from '../../src/platform/network.ts';

type Info = os.NetworkInterfaceInfo;

function v4(address: string, internal = false): Info {
  return { address, netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:01', internal, cidr: `${address}/24` };
}

function v6(address: string, internal = false): Info {
  return {
    address,
    netmask: 'ffff:ffff:ffff:ffff::',
    family: 'IPv6',
    mac: '02:00:00:00:00:01',
    internal,
    cidr: `${address}/64`,
    scopeid: 0,
  };
}

/** A desktop Linux PC with Docker, libvirt, a VPN and Wi-Fi. */
const LINUX_DESKTOP: NodeJS.Dict<Info[]> = {
  lo: [v4('127.0.0.1', true), v6('::1', true)],
  enp3s0: [v4('192.168.1.20'), v6('fe80::1c2d:3eff:fe4f:5a6b'), v6('2001:db8:1:2::20')],
  wlp2s0: [v4('169.254.10.3'), v6('fe80::aaaa:bbbb:cccc:dddd')],
  docker0: [v4('172.17.0.1'), v6('fe80::42:acff:fe11:1')],
  'br-4f2a9c1d0e3b': [v4('172.18.0.1')],
  veth12ab34c: [v6('fe80::9c4e:1bff:fe2a:3c4d')],
  virbr0: [v4('192.168.122.1')],
  tun0: [v4('10.8.0.2')],
  wg0: [v4('10.13.13.2')],
  tailscale0: [v4('100.101.102.103')],
};

describe('listLanAddresses: the addresses a phone on the home network can type', () => {
  test("keeps the LAN adapter's IPv4 and global IPv6 addresses, IPv4 first, and drops loopback, link-local and virtual adapters", () => {
    assert.deepEqual(listLanAddresses(LINUX_DESKTOP), [
      { address: '192.168.1.20', family: 'IPv4', interface: 'enp3s0' },
      { address: '2001:db8:1:2::20', family: 'IPv6', interface: 'enp3s0' },
    ]);
  });

  test('an adapter with only link-local addresses contributes nothing', () => {
    assert.deepEqual(listLanAddresses({ wlp2s0: [v4('169.254.10.3'), v6('fe80::1')] }), []);
  });

  test('Windows and macOS virtual adapters are left out, real ones kept whatever their name', () => {
    const found = listLanAddresses({
      'vEthernet (WSL)': [v4('172.25.160.1')],
      'VirtualBox Host-Only Network': [v4('192.168.56.1')],
      'VMware Network Adapter VMnet8': [v4('192.168.80.1')],
      'Loopback Pseudo-Interface 1': [v4('127.0.0.1', true)],
      utun3: [v6('fd7a:115c:a1e0::1')],
      awdl0: [v6('fe80::1')],
      'Wi-Fi': [v4('192.168.0.14'), v6('fd12:3456:789a::14')],
      en0: [v4('10.0.0.5')],
      br0: [v4('192.168.1.30')],
    });
    assert.deepEqual(
      found.map((a) => `${a.interface} ${a.address}`),
      ['Wi-Fi 192.168.0.14', 'en0 10.0.0.5', 'br0 192.168.1.30', 'Wi-Fi fd12:3456:789a::14'],
    );
  });

  test('a numeric family (Node 18.0-18.3) is understood', () => {
    const info = { ...v4('192.168.1.9'), family: 4 } as unknown as Info;
    assert.deepEqual(listLanAddresses({ eth0: [info] }), [{ address: '192.168.1.9', family: 'IPv4', interface: 'eth0' }]);
  });

  test('on this machine it answers a list of non-loopback addresses', () => {
    for (const a of listLanAddresses()) {
      assert.ok(!a.address.startsWith('127.') && a.address !== '::1', a.address);
      assert.ok(a.family === 'IPv4' || a.family === 'IPv6');
    }
  });
});

describe("the machine's own addresses (for the Host allow-list)", () => {
  test('listOwnAddresses keeps every adapter, loopback and virtual ones included', () => {
    const own = listOwnAddresses(LINUX_DESKTOP);
    for (const address of ['127.0.0.1', '::1', '192.168.1.20', '2001:db8:1:2::20', '172.17.0.1', '10.8.0.2']) {
      assert.ok(own.includes(address), address);
    }
  });

  test('canonicalAddress writes one spelling of an address and refuses names', () => {
    assert.equal(canonicalAddress('2001:DB8:0:0:0:0:0:20'), '2001:db8::20');
    assert.equal(canonicalAddress('fe80::1%eth0'), 'fe80::1');
    assert.equal(canonicalAddress('192.168.1.20'), '192.168.1.20');
    assert.equal(canonicalAddress('example.local'), null);
  });

  test('an address the machine received after the last read is found by reading again on a miss', () => {
    let clock = 0;
    let current = ['192.168.1.20'];
    let reads = 0;
    const own = new OwnAddresses(
      () => (reads++, current),
      () => clock,
    );
    assert.equal(own.has('192.168.1.20'), true);
    clock += 5_000;
    current = ['192.168.1.77']; // DHCP moved the machine
    assert.equal(own.has('192.168.1.77'), true);
    assert.equal(own.has('192.168.1.20'), false);
    const before = reads;
    // Misses within a second do not read again (a flood of bad Host headers costs nothing).
    for (let i = 0; i < 100; i++) own.has('10.9.9.9');
    assert.equal(reads, before);
  });
});
