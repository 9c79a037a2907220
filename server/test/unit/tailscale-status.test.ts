import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { parseTailscaleStatus } from '../../src/platform/tailscale.ts';

/*
 * Hearth reads `tailscale status --json` to find the PC's tailnet name: only a machine that is
 * signed in and running has one to hand out, and Go's `null` for an empty list must not read
 * as a broken document.
 */

const recorded = (name: string) =>
  fs.readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'tailscale', `status-${name}.json`), 'utf8');

test('a running machine: its DNS name without the trailing dot, its addresses IPv4 first, the names it may get certificates for', () => {
  assert.deepEqual(parseTailscaleStatus(recorded('running')), {
    kind: 'running',
    self: {
      name: 'family-pc.tail1234.ts.net',
      addresses: ['100.101.102.103', 'fd7a:115c:a1e0::e901:6667'],
      certDomains: ['family-pc.tail1234.ts.net'],
    },
  });
});

test('HTTPS certificates off for the tailnet (CertDomains null): still running, with no name to certify', () => {
  const state = parseTailscaleStatus(recorded('running-no-https'));
  assert.equal(state.kind, 'running');
  assert.deepEqual(state.kind === 'running' && state.self.certDomains, []);
});

test("logged out (NeedsLogin, no name, null lists) and stopped are not running, said in Tailscale's words", () => {
  assert.deepEqual(parseTailscaleStatus(recorded('logged-out')), { kind: 'not_running', detail: 'You are logged out.' });
  assert.deepEqual(parseTailscaleStatus(recorded('stopped')), { kind: 'not_running', detail: 'Tailscale is stopped.' });
  assert.deepEqual(parseTailscaleStatus('{"BackendState":"NeedsMachineAuth","Self":{"DNSName":"pc.tail1.ts.net."}}'), {
    kind: 'not_running',
    detail: 'Tailscale is waiting for the tailnet admin to approve this machine',
  });
});

test('a document that is not JSON, or not an object, is not running rather than a crash', () => {
  assert.equal(parseTailscaleStatus('not json').kind, 'not_running');
  assert.equal(parseTailscaleStatus('null').kind, 'not_running');
  assert.equal(parseTailscaleStatus('{"BackendState":"Running","Self":null}').kind, 'not_running');
});
