import crypto from 'node:crypto';
import forge from 'node-forge';
import type { StoredAuthority } from '../../store/data-dir/keys.ts';
import { scopeCovers, scopeOf, type AuthorityScope } from './authority-scope.ts';

/** Hearth's authority as a phone and the owner see it. */
export interface AuthorityFacts {
  certPem: string;
  certDer: Buffer;
  /** SHA-256 of the certificate, colon-separated upper-case hex: what a phone shows when it installs it. */
  fingerprintSha256: string;
  commonName: string;
  notAfter: Date;
  /** What its Name Constraints permit (the broad home-network bound for an older authority). */
  scope: AuthorityScope;
  /**
   * Made by this version: for TLS servers only, and for this server's names and networks only.
   * False for one made before (issue 24), which vouches for every home name and private range.
   */
  limited: boolean;
  /** Phones may hold it: downloaded from the guided page, or older than that record. */
  handedOut: boolean;
}

const SERVER_AUTH = '1.3.6.1.5.5.7.3.1';

export function describeAuthority(authority: StoredAuthority): AuthorityFacts {
  const x509 = new crypto.X509Certificate(authority.certPem);
  const scope = scopeOf(forge.pki.certificateFromPem(authority.certPem));
  const usages = x509.keyUsage ?? [];
  const limited = scope !== null && usages.length === 1 && usages[0] === SERVER_AUTH;
  return {
    certPem: authority.certPem,
    certDer: x509.raw,
    fingerprintSha256: x509.fingerprint256,
    commonName: /CN=([^\n]+)/.exec(x509.subject)?.[1] ?? 'Hearth',
    notAfter: new Date(x509.validTo),
    scope: scope ?? { dns: [], ips: [] },
    limited,
    // An older authority kept no record of being downloaded: phones may well hold it.
    handedOut: authority.handedOutAt !== null || !limited,
  };
}

/** Whether the guided page's cookie says this phone trusts the authority in use now. */
export function trustedBy(facts: AuthorityFacts, cookie: string | undefined): boolean {
  if (!cookie) return false;
  if (cookie.toUpperCase() === trustCookieValue(facts)) return true;
  // Pages before the authority was limited set "1", when only an older, unlimited one existed.
  return cookie === '1' && !facts.limited;
}

/** The value the guided page sets once the phone trusts this authority: its fingerprint, without the colons. */
export function trustCookieValue(facts: AuthorityFacts): string {
  return facts.fingerprintSha256.replaceAll(':', '').toUpperCase();
}

/** Every name and address of `names` the authority may vouch for. */
export function coversAll(facts: AuthorityFacts, names: { dns: string[]; ips: string[] }): boolean {
  return [...names.dns, ...names.ips].every((name) => scopeCovers(facts.scope, name));
}
