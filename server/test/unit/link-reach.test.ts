import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linkReach } from '../../src/services/server/link-reach.ts';

// Issue 19, finding 11: the share dialog says "home network only" unless links open from outside.

test('private, loopback, link-local and carrier addresses are the home network', () => {
  for (const origin of [
    'http://192.168.1.20:8420',
    'http://10.0.0.5:8420',
    'http://172.20.1.1',
    'http://127.0.0.1:9000',
    'http://169.254.3.4',
    'http://100.72.1.9',
    'http://[fd12:3456::1]:8420',
    'http://[fe80::1]',
    'http://[::1]:8420',
    'http://[::ffff:192.168.0.2]',
  ]) {
    assert.equal(linkReach(origin), 'home_network', origin);
  }
});

test('names only a home network resolves are the home network', () => {
  for (const origin of [
    'http://family-pc.local:8420',
    'http://hearth.home.arpa',
    'http://nas.lan',
    'http://hearth',
    'http://localhost:8420',
    'http://box.fritz.box.internal',
  ]) {
    assert.equal(linkReach(origin), 'home_network', origin);
  }
});

test('a public name or a public address opens from anywhere', () => {
  for (const origin of [
    'https://hearth.example.org',
    'https://files.smith-family.net:8443',
    'http://203.0.113.7:8420',
    'http://[2001:db8::20]:8420',
    'http://172.32.0.1',
  ]) {
    assert.equal(linkReach(origin), 'internet', origin);
  }
});
