/**
 * The name a family types on a phone comes from the server's name, and is always one a phone's
 * resolver takes: lower-case letters, digits and single hyphens, within one DNS label.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { homeNetworkListen } from '../../src/http/listening.ts';
import { numberedLabel } from '../../src/platform/mdns.ts';
import { hostLabelFor, instanceNameFor } from '../../src/services/server/local-name.ts';

test('the host name is the server name in lower case, anything but letters and digits a single hyphen', () => {
  assert.equal(hostLabelFor('Hearth'), 'hearth');
  assert.equal(hostLabelFor('Smith Family Photos'), 'smith-family-photos');
  assert.equal(hostLabelFor("  Dad's  PC!! "), 'dad-s-pc');
  assert.equal(hostLabelFor('Müller Café'), 'muller-cafe');
  assert.equal(hostLabelFor('hearth.home'), 'hearth-home');
  assert.equal(hostLabelFor('--x--'), 'x');
});

test('a server name with nothing a host name can hold is hearth', () => {
  assert.equal(hostLabelFor('写真'), 'hearth');
  assert.equal(hostLabelFor('🏠'), 'hearth');
  assert.equal(hostLabelFor(''), 'hearth');
});

test('the host name fits one DNS label (63 bytes) and never ends in a hyphen, numbered or not', () => {
  const long = hostLabelFor('a'.repeat(62) + ' b');
  assert.equal(long, 'a'.repeat(62));
  assert.equal(numberedLabel('hearth', 2), 'hearth-2');
  assert.equal(numberedLabel('a'.repeat(63), 12), `${'a'.repeat(60)}-12`);
  assert.equal(numberedLabel(`${'a'.repeat(60)}-bc`, 2), `${'a'.repeat(60)}-2`);
});

test('the instance name is the server name as written, a dot a space, with room for a conflict\'s " (2)"', () => {
  assert.equal(instanceNameFor('Hearth'), 'Hearth');
  assert.equal(instanceNameFor('Smith Family Photos v1.2'), 'Smith Family Photos v1 2');
  const long = instanceNameFor('é'.repeat(64));
  assert.ok(Buffer.byteLength(long) <= 57, long);
  assert.equal(long, 'é'.repeat(28));
  assert.equal(instanceNameFor('...'), 'Hearth');
});

test('the name is announced only where the home network reaches the server, IPv6 only where it listens on it', () => {
  assert.deepEqual(homeNetworkListen({ first: '0.0.0.0', then: null }), { address: null, ipv6: false });
  assert.deepEqual(homeNetworkListen({ first: '::', then: null }), { address: null, ipv6: true });
  assert.deepEqual(homeNetworkListen({ first: '192.168.1.20', then: null }), { address: '192.168.1.20', ipv6: false });
  assert.equal(homeNetworkListen({ first: '127.0.0.1', then: null }), null);
  assert.equal(homeNetworkListen({ first: 'localhost', then: null }), null);
  // The desktop app before its owner exists listens on loopback, then widens to the plan's rest.
  assert.deepEqual(homeNetworkListen({ first: '127.0.0.1', then: { rebind: '0.0.0.0' } }), { address: null, ipv6: false });
  assert.deepEqual(homeNetworkListen({ first: '127.0.0.1', then: { add: 'fd00::5' } }), { address: 'fd00::5', ipv6: true });
  assert.equal(homeNetworkListen({ first: '127.0.0.1', then: { add: '127.0.0.2' } }), null);
});
