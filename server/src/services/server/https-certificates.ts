import crypto from 'node:crypto';
import type { Logger } from '../../log.ts';
import { loadAuthority, saveAuthority, type StoredAuthority } from '../../store/keys.ts';
import type { StoredCertificate, TlsFiles } from '../../store/tls-files.ts';
import { createAuthority, issueServerCertificate, permittedName, type CertificateNames } from './x509.ts';

/** Hearth's authority as a phone sees it: what it installs, and the fingerprint to compare. */
export interface AuthorityFacts {
  certPem: string;
  certDer: Buffer;
  fingerprintSha256: string;
  commonName: string;
  notAfter: Date;
}

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
  /** How often names and expiry are looked at. */
  checkEveryMs?: number;
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Hearth's own certificate authority and the server certificate it issues: made on the first
 * start, then kept current by itself. A certificate is issued again when it nears its end, when
 * a name or address phones use is not in it (the router gave the PC a new address, the owner
 * renamed the server), or when it is not the authority's (a restore brought another authority).
 */
export class HttpsCertificates {
  private authorityFacts: AuthorityFacts | null = null;
  private authority: StoredAuthority | null = null;
  private current: { facts: ServerCertificateFacts; options: { key: string; cert: string } } | null = null;
  private checking: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly validityDays: number;
  private readonly renewBeforeMs: number;

  constructor(private readonly options: HttpsCertificatesOptions) {
    this.validityDays = options.validityDays ?? 397;
    this.renewBeforeMs = options.renewBeforeMs ?? 30 * DAY_MS;
  }

  /** Makes or loads the authority and a current certificate, then keeps them current. */
  async start(): Promise<void> {
    await this.check();
    const every = this.options.checkEveryMs ?? 5 * 60_000;
    this.timer = setInterval(() => void this.check(), every);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
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
    this.checking ??= this.checkOnce()
      .catch((error: unknown) => this.options.log.error('https certificate not renewed', { error: String(error) }))
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  private async checkOnce(): Promise<void> {
    const { dataDir, files, log } = this.options;
    const now = new Date(this.options.now());
    if (this.authority === null) {
      let authority = loadAuthority(dataDir);
      if (authority === null) {
        authority = await createAuthority(this.options.authorityName(), now);
        saveAuthority(dataDir, authority);
        log.info('made the home network certificate authority');
      }
      this.authority = authority;
      this.authorityFacts = describeAuthority(authority);
    }
    const wanted = filterPermitted(this.options.wantedNames());
    if (this.current === null) {
      const stored = files.read();
      if (stored && this.fits(stored, wanted, now)) {
        this.use(stored);
        return;
      }
    } else if (this.stillFits(this.current.facts, wanted, now)) return;
    const issued = await issueServerCertificate(this.authority, wanted, now, this.validityDays);
    files.write(issued);
    this.use(issued);
    log.info('issued the https certificate', { names: [...wanted.dns, ...wanted.ips].join(', ') });
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
    this.current = {
      facts: { names: namesOf(x509), notAfter: new Date(x509.validTo) },
      // The chain is sent whole, so a phone that holds the authority needs nothing else.
      options: { key: certificate.keyPem, cert: certificate.certPem + this.authority!.certPem },
    };
    for (const listener of this.listeners) listener();
  }
}

function describeAuthority(authority: StoredAuthority): AuthorityFacts {
  const x509 = new crypto.X509Certificate(authority.certPem);
  return {
    certPem: authority.certPem,
    certDer: x509.raw,
    fingerprintSha256: x509.fingerprint256,
    commonName: /CN=([^\n]+)/.exec(x509.subject)?.[1] ?? 'Hearth',
    notAfter: new Date(x509.validTo),
  };
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

function filterPermitted(names: CertificateNames): CertificateNames {
  const unique = (list: string[]) => [...new Set(list.map((n) => n.toLowerCase()))].filter(permittedName);
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
