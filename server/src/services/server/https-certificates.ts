import crypto from 'node:crypto';
import type { Logger } from '../../log.ts';
import { loadAuthority, saveAuthority, type StoredAuthority } from '../../store/data-dir/keys.ts';
import type { StoredCertificate, TlsFiles } from '../../store/data-dir/tls-files.ts';
import { coversAll, describeAuthority, type AuthorityFacts } from './authority-facts.ts';
import { isHomeName, scopeCovers, scopeFor } from './authority-scope.ts';
import type { CertificateNames } from './certificate-names.ts';
import { createAuthority, issueServerCertificate } from './x509.ts';

export type { AuthorityFacts } from './authority-facts.ts';

/** The server certificate in use. */
export interface ServerCertificateFacts {
  names: CertificateNames;
  notAfter: Date;
}

export interface HttpsCertificatesOptions {
  dataDir: string;
  files: TlsFiles;
  /** The authority's name, fixed when it is made (a phone lists it under this name). */
  authorityName: () => string;
  /** The names and addresses phones use now; read at each check, since DHCP and renames move them. */
  wantedNames: () => CertificateNames;
  log: Logger;
  now: () => number;
  /** How long a server certificate is valid; browsers accept 398 days at most. */
  validityDays?: number;
  /** A certificate with less than this left is renewed. */
  renewBeforeMs?: number;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Hearth's own certificate authority and the server certificate it issues: made on the first
 * start, then kept current by itself. A certificate is issued again when it nears its end, when
 * a name or address phones use is not in it (the router gave the PC a new address, the owner
 * renamed the server), or when it is not the authority's (a restore brought another authority).
 *
 * The authority vouches for the names and networks of this server when it was made
 * (authority-scope.ts). While no phone has downloaded it, it is made again whenever phones use a
 * name it does not cover (the owner naming the server at setup): nobody holds it yet, so that
 * costs nothing. Once a phone may hold it, it is kept, and a name it does not cover is left out
 * of the certificate (`uncovered()` tells the owner, who may make a new one: `replaceAuthority`).
 * An authority made before it was limited (issue 24) is kept the same way until the owner
 * replaces it: phones trust it, and making another silently would break them.
 */
export class HttpsCertificates {
  private authorityFacts: AuthorityFacts | null = null;
  private authority: StoredAuthority | null = null;
  private current: {
    facts: ServerCertificateFacts;
    options: { key: string; cert: string };
    authorityPem: string;
    authorityFingerprint: string;
  } | null = null;
  private uncoveredNames: string[] = [];
  /** Checks and replacements run one at a time, in the order asked. */
  private lane: Promise<unknown> = Promise.resolve();
  private checking: Promise<void> | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly validityDays: number;
  private readonly renewBeforeMs: number;

  constructor(private readonly options: HttpsCertificatesOptions) {
    this.validityDays = options.validityDays ?? 397;
    this.renewBeforeMs = options.renewBeforeMs ?? 30 * DAY_MS;
  }

  /**
   * Makes or loads the authority and a current certificate; the certificates job
   * (jobs/home-network.ts) then keeps them current with a check every few minutes.
   */
  start(): Promise<void> {
    return this.check();
  }

  /** The key and chain of the current certificate; null until the first is ready (HTTPS waits meanwhile). */
  tlsOptions(): { key: string; cert: string } | null {
    return this.current?.options ?? null;
  }

  authorityInfo(): AuthorityFacts | null {
    return this.authorityFacts;
  }

  certificate(): ServerCertificateFacts | null {
    return this.current?.facts ?? null;
  }

  /** The fingerprint of the authority that signed the certificate HTTPS answers with now (during a replacement, still the old one for a moment). */
  servingAuthority(): string | null {
    return this.current?.authorityFingerprint ?? null;
  }

  /** Names and addresses phones use now that the authority may not vouch for, so the certificate leaves them out. */
  uncovered(): string[] {
    return [...this.uncoveredNames];
  }

  /** Whether phones reaching the server at `host` get a certificate that names it. */
  covers(host: string): boolean {
    const names = this.current?.facts.names;
    if (!names) return false;
    const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
    return names.dns.includes(bare) || names.ips.some((ip) => sameAddress(ip, bare));
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Looks at names and expiry now, issuing a certificate if one is due; one check at a time. */
  check(): Promise<void> {
    this.checking ??= this.inLane(() => this.checkOnce())
      .catch((error: unknown) => this.options.log.error('https certificate not renewed', { error: String(error) }))
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  /**
   * The authority as a phone takes it (the guided page's download): from now on phones may trust
   * it, which is on disk before the phone has it, so no crash can let it be made again unasked.
   */
  handOutAuthority(): AuthorityFacts | null {
    if (this.authority === null || this.authorityFacts === null) return null;
    if (!this.authorityFacts.handedOut) {
      const handedOut = { ...this.authority, handedOutAt: new Date(this.options.now()).toISOString() };
      saveAuthority(this.options.dataDir, handedOut);
      this.adopt(handedOut);
    }
    return this.authorityFacts;
  }

  /**
   * The owner's choice: a new authority for the names and networks phones use now, and a
   * certificate from it. Every phone that trusted the old one must install the new one.
   */
  replaceAuthority(): Promise<AuthorityFacts> {
    return this.inLane(async () => {
      await this.makeAuthority(this.wanted(), 'the owner asked');
      await this.keepCertificateCurrent();
      return this.authorityFacts!;
    });
  }

  private inLane<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lane.then(work);
    this.lane = run.catch(() => undefined);
    return run;
  }

  private async checkOnce(): Promise<void> {
    const wanted = this.wanted();
    if (this.authority === null) {
      const stored = loadAuthority(this.options.dataDir);
      if (stored) this.adopt(stored);
    }
    const facts = this.authorityFacts;
    // None yet, or one no phone holds that misses a name phones use now: made (again) for free.
    if (facts === null) await this.makeAuthority(wanted, 'first start');
    else if (!facts.handedOut && !coversAll(facts, wanted)) await this.makeAuthority(wanted, 'no phone holds it, and it missed a name');
    await this.keepCertificateCurrent();
  }

  /** The certificate in use (or the one on disk, at start) is kept while it fits; else one is issued. */
  private async keepCertificateCurrent(): Promise<void> {
    const { files, log } = this.options;
    const now = new Date(this.options.now());
    const wanted = this.wanted();
    const scope = this.authorityFacts!.scope;
    const covered = (name: string) => scopeCovers(scope, name);
    const issuable = { dns: wanted.dns.filter(covered), ips: wanted.ips.filter(covered) };
    this.uncoveredNames = [...wanted.dns, ...wanted.ips].filter((name) => !covered(name));
    if (this.current === null || this.current.authorityPem !== this.authority!.certPem) {
      const stored = files.read();
      if (stored && this.fits(stored, issuable, now)) {
        this.use(stored);
        return;
      }
    } else if (this.stillFits(this.current.facts, issuable, now)) return;
    const issued = await issueServerCertificate(this.authority!, issuable, now, this.validityDays);
    files.write(issued);
    this.use(issued);
    log.info('issued the https certificate', { names: [...issuable.dns, ...issuable.ips].join(', ') });
  }

  /**
   * A new authority for `wanted`. Its key takes a moment: a phone that took the old one
   * meanwhile keeps it in place, unless the owner asked for the new one.
   */
  private async makeAuthority(
    wanted: CertificateNames,
    why: 'first start' | 'no phone holds it, and it missed a name' | 'the owner asked',
  ): Promise<void> {
    const made = await createAuthority(this.options.authorityName(), scopeFor(wanted), new Date(this.options.now()));
    if (this.authorityFacts?.handedOut && why !== 'the owner asked') return;
    const stored = { ...made, handedOutAt: null };
    saveAuthority(this.options.dataDir, stored);
    this.adopt(stored);
    this.options.log.info('made the home network certificate authority', { why, names: [...wanted.dns, ...wanted.ips].join(', ') });
  }

  private adopt(authority: StoredAuthority): void {
    this.authority = authority;
    this.authorityFacts = describeAuthority(authority);
  }

  private wanted(): CertificateNames {
    return homeOnly(this.options.wantedNames());
  }

  /** Not yet due for renewal, and naming everything phones use now. */
  private stillFits(facts: ServerCertificateFacts, wanted: CertificateNames, now: Date): boolean {
    return facts.notAfter.getTime() - now.getTime() > this.renewBeforeMs && includesAll(facts.names, wanted);
  }

  private fits(certificate: StoredCertificate, wanted: CertificateNames, now: Date): boolean {
    try {
      const x509 = new crypto.X509Certificate(certificate.certPem);
      const authority = new crypto.X509Certificate(this.authority!.certPem);
      if (!x509.verify(authority.publicKey) || !x509.checkPrivateKey(crypto.createPrivateKey(certificate.keyPem))) return false;
      return this.stillFits({ names: namesOf(x509), notAfter: new Date(x509.validTo) }, wanted, now);
    } catch {
      return false;
    }
  }

  private use(certificate: StoredCertificate): void {
    const x509 = new crypto.X509Certificate(certificate.certPem);
    const authorityPem = this.authority!.certPem;
    this.current = {
      facts: { names: namesOf(x509), notAfter: new Date(x509.validTo) },
      // The chain is sent whole, so a phone that holds the authority needs nothing else.
      options: { key: certificate.keyPem, cert: certificate.certPem + authorityPem },
      authorityPem,
      authorityFingerprint: this.authorityFacts!.fingerprintSha256,
    };
    for (const listener of this.listeners) listener();
  }
}

/** The names a certificate carries, from its subjectAltName ("DNS:hearth.local, IP Address:127.0.0.1"). */
function namesOf(x509: crypto.X509Certificate): CertificateNames {
  const names: CertificateNames = { dns: [], ips: [] };
  for (const entry of (x509.subjectAltName ?? '').split(', ')) {
    if (entry.startsWith('DNS:')) names.dns.push(entry.slice(4).toLowerCase());
    else if (entry.startsWith('IP Address:')) names.ips.push(entry.slice(11).toLowerCase());
  }
  return names;
}

/** Only home-network names ever reach the authority: a public name would be the wider internet's. */
function homeOnly(names: CertificateNames): CertificateNames {
  const unique = (list: string[]) => [...new Set(list.map((n) => n.toLowerCase()))].filter(isHomeName);
  return { dns: unique(names.dns), ips: unique(names.ips) };
}

function includesAll(have: CertificateNames, wanted: CertificateNames): boolean {
  return wanted.dns.every((name) => have.dns.includes(name)) && wanted.ips.every((ip) => have.ips.some((h) => sameAddress(h, ip)));
}

/** Node writes an IPv6 SAN in full ("0:0:0:0:0:0:0:1"): addresses are compared by their bytes. */
function sameAddress(a: string, b: string): boolean {
  const parse = (address: string) => {
    try {
      return new URL(`http://${address.includes(':') ? `[${address}]` : address}/`).hostname;
    } catch {
      return address;
    }
  };
  return parse(a) === parse(b);
}
