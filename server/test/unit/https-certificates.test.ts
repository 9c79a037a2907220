import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { HttpsCertificates } from '../../src/services/server/https-certificates.ts';
import { homeNetworkNames, localLabel } from '../../src/services/server/home-names.ts';
import type { CertificateNames } from '../../src/services/server/certificate-names.ts';
import { loadAuthority } from '../../src/store/data-dir/keys.ts';
import { TlsFiles } from '../../src/store/data-dir/tls-files.ts';
import { extendedKeyUsagesOf, SERVER_AUTH } from '../helpers/certificates.ts';
import { opensslVerify } from '../helpers/openssl.ts';

/*
 * Issue 24: the home network's certificate renews itself. Phones only keep trusting Hearth if
 * its certificate is always current (before its end), always names what they type (a new
 * address from the router, a renamed server), and is always signed by the authority they hold.
 */

const DAY = 86_400_000;

describe('the server certificate: names, renewal, re-issue', () => {
  let dataDir: string;
  let now = Date.now();
  let names: CertificateNames = { dns: ['hearth.local', 'localhost'], ips: ['192.168.1.23', '127.0.0.1'] };
  let certificates: HttpsCertificates;
  const serial = () => new crypto.X509Certificate(certificates.tlsOptions()!.cert).serialNumber;
  const san = () => new crypto.X509Certificate(certificates.tlsOptions()!.cert).subjectAltName ?? '';
  /** The server certificate alone, without the authority sent after it. */
  const leafPem = () => certificates.tlsOptions()!.cert.split(/(?<=-----END CERTIFICATE-----\r?\n?)/)[0]!;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-https-'));
    certificates = new HttpsCertificates({
      dataDir,
      files: new TlsFiles(dataDir),
      authorityName: () => 'Hearth at home (Hearth)',
      wantedNames: () => names,
      log: createLogger('silent'),
      now: () => now,
    });
    await certificates.check();
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('the first certificate carries every name and address, is signed by the authority, and is for TLS servers', () => {
    assert.match(san(), /DNS:hearth\.local, DNS:localhost, IP Address:192\.168\.1\.23, IP Address:127\.0\.0\.1/);
    const leaf = new crypto.X509Certificate(leafPem());
    const authority = new crypto.X509Certificate(loadAuthority(dataDir)!.certPem);
    assert.ok(leaf.checkIssued(authority) && leaf.verify(authority.publicKey), 'issued and signed by the authority');
    assert.deepEqual(extendedKeyUsagesOf(leafPem()), [SERVER_AUTH]);
  });

  test('openssl, an independent verifier, accepts it for a TLS server against the authority alone', (t) => {
    const verdict = opensslVerify(t, loadAuthority(dataDir)!.certPem, leafPem(), 'sslserver');
    if (verdict) assert.ok(verdict.ok, verdict.output);
  });

  test('nothing changed: the same certificate stays', async () => {
    const before = serial();
    now += 10 * DAY;
    await certificates.check();
    assert.equal(serial(), before);
  });

  test('the router gave the PC a new address: a certificate naming it is issued', async () => {
    const before = serial();
    names = { ...names, ips: ['192.168.1.57', '127.0.0.1'] };
    await certificates.check();
    assert.notEqual(serial(), before);
    assert.match(san(), /IP Address:192\.168\.1\.57/);
  });

  test('a renamed server (a new .local name) is issued a certificate for the new name', async () => {
    names = { ...names, dns: ['kitchen-pc.local', 'localhost'] };
    await certificates.check();
    assert.match(san(), /DNS:kitchen-pc\.local/);
  });

  test('renewed 30 days before its end, by the same authority', async () => {
    const before = serial();
    const authority = loadAuthority(dataDir)!.certPem;
    const notAfter = certificates.certificate()!.notAfter.getTime();
    now = notAfter - 31 * DAY;
    await certificates.check();
    assert.equal(serial(), before, 'not yet');
    now = notAfter - 29 * DAY;
    await certificates.check();
    assert.notEqual(serial(), before, 'renewed');
    assert.ok(certificates.certificate()!.notAfter.getTime() > notAfter);
    assert.equal(loadAuthority(dataDir)!.certPem, authority);
  });

  test('a name the authority may not vouch for (a public DNS name or address) is left out, so phones never refuse the certificate', async () => {
    names = { dns: ['hearth.local', 'photos.example.com'], ips: ['8.8.8.8', '10.0.0.5'] };
    await certificates.check();
    assert.doesNotMatch(san(), /example\.com|8\.8\.8\.8/);
    assert.match(san(), /IP Address:10\.0\.0\.5/);
  });

  test('a certificate on disk signed by another authority (a restore brought its own) is replaced at start', async () => {
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-https-other-'));
    try {
      const foreign = new HttpsCertificates({
        dataDir: other,
        files: new TlsFiles(other),
        authorityName: () => 'Another',
        wantedNames: () => names,
        log: createLogger('silent'),
        now: () => now,
      });
      await foreign.check();
      // This data folder's certificate is now another authority's, its keys.json unchanged.
      new TlsFiles(dataDir).write({
        keyPem: foreign.tlsOptions()!.key,
        certPem: foreign.tlsOptions()!.cert.split(/(?<=-----END CERTIFICATE-----\r?\n)/)[0]!,
      });
      const restarted = new HttpsCertificates({
        dataDir,
        files: new TlsFiles(dataDir),
        authorityName: () => 'unused',
        wantedNames: () => names,
        log: createLogger('silent'),
        now: () => now,
      });
      await restarted.check();
      const leaf = new crypto.X509Certificate(restarted.tlsOptions()!.cert);
      assert.ok(leaf.verify(new crypto.X509Certificate(loadAuthority(dataDir)!.certPem).publicKey), 'signed by this server’s authority');
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});

describe('home names', () => {
  test('the server name becomes one mDNS label', () => {
    assert.equal(localLabel('Hearth'), 'hearth');
    assert.equal(localLabel('Family PC'), 'family-pc');
    assert.equal(localLabel('Zoë’s  Mac!'), 'zoe-s-mac');
    assert.equal(localLabel('***'), 'hearth');
    assert.equal(localLabel('a'.repeat(80)).length, 63);
  });

  test('the certificate is asked for the server’s and the machine’s .local names, configured names, the LAN addresses and loopback', () => {
    const names = homeNetworkNames({ hostNames: ['family.home.arpa'], publicUrl: null }, 'Family PC', [], ['192.168.1.9']);
    assert.deepEqual(names.dns.slice(0, 1), ['family-pc.local']);
    assert.ok(names.dns.includes(`${localLabel(os.hostname())}.local`));
    assert.ok(names.dns.includes('family.home.arpa'));
    assert.deepEqual(names.ips, ['192.168.1.9', '127.0.0.1', '::1']);
  });
});
