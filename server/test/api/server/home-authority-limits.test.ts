import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import forge from 'node-forge';
import { localLabel } from '../../../src/services/server/home-names.ts';
import { listLanAddresses } from '../../../src/platform/network.ts';
import { EMAIL_PROTECTION, extendedKeyUsagesOf, nameConstraintsOf, SERVER_AUTH, signWithAuthority } from '../../helpers/certificates.ts';
import { opensslVerify } from '../../helpers/openssl.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 30, finding 11: phones install Hearth's certificate authority, so whatever it may vouch
 * for, a copy of its key (a stolen backup of keys.json) could forge for those phones. It vouches
 * for Hearth alone: TLS server certificates only (no S/MIME, code or client certificates), for
 * the names this server goes by and the /24 (IPv4) or /64 (IPv6) networks it is on, under its own
 * directory name; never the router, the printer, another PC of the house, e-mail or a URI.
 */

const HEARTH_SUBJECT = [{ name: 'organizationName', value: 'Hearth' }];

interface Authority {
  keyPem: string;
  certPem: string;
}

function authorityOf(dataDir: string): Authority {
  return (JSON.parse(fs.readFileSync(path.join(dataDir, 'keys.json'), 'utf8')) as { authority: Authority }).authority;
}

/** This machine's home-network addresses, as the server lists them for its certificate. */
function lanIpv4(): string[] {
  return listLanAddresses()
    .filter((a) => a.family === 'IPv4')
    .map((a) => a.address);
}

/** A private address on none of this machine's networks: another device's, of another house. */
function addressOfAnotherNetwork(): string {
  const taken = new Set(lanIpv4().map((address) => address.split('.').slice(0, 3).join('.')));
  for (let third = 250; third > 0; third--) if (!taken.has(`192.168.${third}`)) return `192.168.${third}.1`;
  throw new Error('every 192.168.x network is this machine’s');
}

describe('what Hearth’s authority may vouch for', () => {
  let t: TestServer;
  let authority: Authority;
  before(async () => {
    t = await startTestServer({ https: true, hostNames: ['family-pc.lan'] });
    await t.server.httpsReady();
    authority = authorityOf(t.dataDir);
  });
  after(() => t.close());

  test('it is for TLS servers only (extended key usage serverAuth) and signs certificates only (no digital signatures of its own)', () => {
    assert.deepEqual(extendedKeyUsagesOf(authority.certPem), [SERVER_AUTH]);
    const keyUsage = forge.pki.certificateFromPem(authority.certPem).getExtension('keyUsage') as Record<string, unknown>;
    assert.equal(keyUsage.critical, true);
    assert.equal(keyUsage.keyCertSign, true);
    assert.equal(keyUsage.cRLSign, true);
    assert.ok(!keyUsage.digitalSignature && !keyUsage.keyEncipherment && !keyUsage.nonRepudiation, JSON.stringify(keyUsage));
    assert.equal(new crypto.X509Certificate(authority.certPem).ca, true);
  });

  test('its critical Name Constraints permit this server’s own names, the networks it is on and loopback, and nothing broader', () => {
    const constraints = nameConstraintsOf(authority.certPem);
    assert.ok(constraints?.critical, 'critical Name Constraints');
    const ownNames = ['family-pc.lan', 'hearth.local', `${localLabel(os.hostname())}.local`, 'localhost'];
    assert.deepEqual([...constraints.permitted.dns].sort(), [...new Set(ownNames)].sort());
    for (const range of constraints.permitted.ips) {
      const [network, bits] = range.split('/') as [string, string];
      if (network === '127.0.0.1' || network === '::1') assert.equal(bits, network === '::1' ? '128' : '32', range);
      else if (net.isIPv4(network)) {
        assert.equal(bits, '24', range);
        assert.ok(
          lanIpv4().some((address) => address.startsWith(network.replace(/0$/, ''))),
          `${range} is a network of this machine`,
        );
      } else assert.equal(bits, '64', range);
    }
    for (const address of lanIpv4().filter((a) => /^(10|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(a))) {
      assert.ok(constraints.permitted.ips.includes(`${address.split('.').slice(0, 3).join('.')}.0/24`), `the network of ${address}`);
    }
    assert.ok(constraints.permitted.ips.includes('127.0.0.1/32'));
    assert.deepEqual(constraints.excluded, { dns: [], ips: [], emails: [], uris: [], directoryNames: [] });
  });

  test('no real e-mail address, URI or other directory name fits in them', () => {
    const constraints = nameConstraintsOf(authority.certPem)!;
    // `.invalid` is reserved (RFC 6761): nobody can have an address or a URI there.
    assert.deepEqual(constraints.permitted.emails, ['invalid']);
    assert.deepEqual(constraints.permitted.uris, ['invalid']);
    assert.deepEqual(constraints.permitted.directoryNames, ['O=Hearth']);
  });

  test('openssl accepts the certificate Hearth serves, within those limits, for a TLS server', (ctx) => {
    const served = fs.readFileSync(path.join(t.dataDir, 'tls', 'server.pem'), 'utf8');
    const leafPem = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/.exec(served)![0];
    const verdict = opensslVerify(ctx, authority.certPem, leafPem, 'sslserver');
    if (verdict) assert.ok(verdict.ok, verdict.output);
  });

  test('a certificate its key signs for an e-mail address (S/MIME) is refused: the authority is not for e-mail', (ctx) => {
    const smime = signWithAuthority(authority, {
      commonName: 'Alice',
      subjectPrefix: HEARTH_SUBJECT,
      emails: ['alice@example.com'],
      usage: 'emailProtection',
    });
    assert.deepEqual(extendedKeyUsagesOf(smime), [EMAIL_PROTECTION]);
    const verdict = opensslVerify(ctx, authority.certPem, smime, 'smimesign');
    if (!verdict) return;
    assert.equal(verdict.ok, false, `refused: ${verdict.output}`);
    // Twice over: the authority is for TLS servers only, and no real e-mail address fits its constraints.
    assert.match(verdict.output, /unsuitable certificate purpose/);
    assert.match(verdict.output, /permitted subtree violation/);
  });

  test('a certificate its key signs for another device of the house (the router, a printer, another network) is refused', (ctx) => {
    for (const forged of [
      { commonName: 'router.lan', dns: ['router.lan'] },
      { commonName: 'printer.local', dns: ['printer.local'] },
      { commonName: 'nas', ips: [addressOfAnotherNetwork()] },
    ]) {
      const leaf = signWithAuthority(authority, { ...forged, subjectPrefix: HEARTH_SUBJECT, usage: 'serverAuth' });
      const verdict = opensslVerify(ctx, authority.certPem, leaf, 'sslserver');
      if (!verdict) return;
      assert.equal(verdict.ok, false, `${JSON.stringify(forged)} refused: ${verdict.output}`);
      assert.match(verdict.output, /permitted subtree violation/);
    }
  });

  test('a certificate for this server’s own name under another directory name (a company’s) is refused', (ctx) => {
    const leaf = signWithAuthority(authority, {
      commonName: 'hearth.local',
      subjectPrefix: [{ name: 'organizationName', value: 'Example Bank' }],
      dns: ['hearth.local'],
      usage: 'serverAuth',
    });
    const verdict = opensslVerify(ctx, authority.certPem, leaf, 'sslserver');
    if (!verdict) return;
    assert.equal(verdict.ok, false, `refused: ${verdict.output}`);
    assert.match(verdict.output, /permitted subtree violation/);
  });
});
