import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createLogger } from '../../src/log.ts';
import { HttpsCertificates } from '../../src/services/server/https-certificates.ts';
import type { CertificateNames } from '../../src/services/server/certificate-names.ts';
import { loadAuthority } from '../../src/store/data-dir/keys.ts';
import { TlsFiles } from '../../src/store/data-dir/tls-files.ts';
import { nameConstraintsOf } from '../helpers/certificates.ts';
import { writeOlderAuthority } from '../helpers/older-authority.ts';

/*
 * Issue 30, finding 11: the authority is limited to the names and networks the server used when
 * it was made, and phones install it once for 20 years. Until a phone has downloaded it, it is
 * made again whenever phones use a name it misses (the owner naming the server at setup): nobody
 * holds it, so that costs nothing. Once a phone may hold it, it is never made again unasked
 * (phones would meet a certificate they do not trust): a name it misses is left out of the
 * certificate and told to the owner, who may replace it. An authority an earlier version made
 * (no limits) is kept the same way until the owner replaces it.
 */

const dirs: string[] = [];
after(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

function world(names: { current: CertificateNames }, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-authority-'))) {
  dirs.push(dataDir);
  const certificates = new HttpsCertificates({
    dataDir,
    files: new TlsFiles(dataDir),
    authorityName: () => 'Hearth home network',
    wantedNames: () => names.current,
    log: createLogger('silent'),
    now: Date.now,
  });
  const fingerprint = () => certificates.authorityInfo()!.fingerprintSha256;
  const san = () => new crypto.X509Certificate(certificates.tlsOptions()!.cert).subjectAltName ?? '';
  const issuer = () => new crypto.X509Certificate(certificates.tlsOptions()!.cert);
  return { certificates, dataDir, fingerprint, san, issuer };
}

describe('an authority no phone holds yet', () => {
  test('is made again for a name it misses (the owner names the server at setup), and the certificate names it', async () => {
    const names = { current: { dns: ['hearth.local', 'localhost'], ips: ['192.168.1.23', '127.0.0.1'] } };
    const { certificates, fingerprint, san, issuer } = world(names);
    await certificates.check();
    const first = fingerprint();
    names.current = { ...names.current, dns: ['smith-family.local', 'localhost'] };
    await certificates.check();
    assert.notEqual(fingerprint(), first, 'a new authority');
    assert.ok(nameConstraintsOf(certificates.authorityInfo()!.certPem)!.permitted.dns.includes('smith-family.local'));
    assert.match(san(), /DNS:smith-family\.local/);
    assert.ok(issuer().verify(new crypto.X509Certificate(certificates.authorityInfo()!.certPem).publicKey), 'signed by the new one');
    assert.deepEqual(certificates.uncovered(), []);
  });

  test('is kept while it covers what phones use: a new address on the same network is in its /24', async () => {
    const names = { current: { dns: ['hearth.local'], ips: ['192.168.1.23'] } };
    const { certificates, fingerprint, san } = world(names);
    await certificates.check();
    const first = fingerprint();
    names.current = { dns: ['hearth.local'], ips: ['192.168.1.57'] };
    await certificates.check();
    assert.equal(fingerprint(), first);
    assert.match(san(), /IP Address:192\.168\.1\.57/);
  });
});

describe('an authority a phone has downloaded', () => {
  const names = { current: { dns: ['hearth.local', 'localhost'], ips: ['192.168.1.23', '127.0.0.1'] } };
  const w = world(names);

  test('is recorded as given to phones in keys.json before the download is answered', async () => {
    await w.certificates.check();
    assert.equal(loadAuthority(w.dataDir)!.handedOutAt, null);
    const given = w.certificates.handOutAuthority()!;
    assert.equal(given.handedOut, true);
    assert.match(loadAuthority(w.dataDir)!.handedOutAt ?? '', /^\d{4}-\d\d-\d\dT/, 'on disk, not in memory only');
  });

  test('is kept when phones use a name it misses: the certificate leaves it out, and the owner is told', async () => {
    const kept = w.fingerprint();
    names.current = { dns: ['attic-pc.local', 'hearth.local', 'localhost'], ips: ['10.9.8.7', '192.168.1.23', '127.0.0.1'] };
    await w.certificates.check();
    assert.equal(w.fingerprint(), kept, 'the same authority: phones go on trusting it');
    assert.doesNotMatch(w.san(), /attic-pc|10\.9\.8\.7/);
    assert.match(w.san(), /DNS:hearth\.local/);
    assert.deepEqual(w.certificates.uncovered(), ['attic-pc.local', '10.9.8.7']);
  });

  test('a restart keeps it, and remembers it was given to phones', async () => {
    const again = world(names, w.dataDir);
    await again.certificates.check();
    assert.equal(again.fingerprint(), w.fingerprint());
    assert.equal(again.certificates.authorityInfo()!.handedOut, true);
    assert.deepEqual(again.certificates.uncovered(), ['attic-pc.local', '10.9.8.7']);
  });

  test('the owner replaces it: a new one for the names phones use now, not yet given to phones', async () => {
    const old = w.fingerprint();
    const made = await w.certificates.replaceAuthority();
    assert.notEqual(made.fingerprintSha256, old);
    assert.equal(made.handedOut, false);
    assert.equal(loadAuthority(w.dataDir)!.handedOutAt, null);
    assert.match(w.san(), /DNS:attic-pc\.local/);
    assert.match(w.san(), /IP Address:10\.9\.8\.7/);
    assert.ok(w.issuer().verify(new crypto.X509Certificate(made.certPem).publicKey));
    assert.deepEqual(w.certificates.uncovered(), []);
  });
});

describe('an authority an earlier version made, without limits', () => {
  test('is kept (phones trust it), said to be unlimited and given to phones, until the owner replaces it', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-authority-old-'));
    const older = writeOlderAuthority(dataDir);
    const names = { current: { dns: ['family-pc.local', 'localhost'], ips: ['192.168.1.23', '127.0.0.1'] } };
    const w = world(names, dataDir);
    await w.certificates.check();
    assert.equal(w.fingerprint(), older.fingerprint);
    assert.equal(w.certificates.authorityInfo()!.limited, false);
    assert.equal(w.certificates.authorityInfo()!.handedOut, true);
    assert.match(w.san(), /DNS:family-pc\.local/);
    const made = await w.certificates.replaceAuthority();
    assert.notEqual(made.fingerprintSha256, older.fingerprint);
    assert.equal(made.limited, true);
  });
});
