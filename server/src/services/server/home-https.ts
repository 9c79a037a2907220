import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../../app-error.ts';
import { appleProfile } from './apple-profile.ts';
import { trustedBy } from './authority-facts.ts';
import type { HttpsCertificates } from './https-certificates.ts';
import { localLabel } from './home-names.ts';

/** What the guided "make Hearth an app" page needs to know, without signing in. */
export interface HttpsOffer {
  available: boolean;
  /** SHA-256 of the authority, colon-separated hex, for a careful owner to compare on the phone. */
  authority_fingerprint_sha256: string | null;
  authority_name: string | null;
}

/**
 * HTTPS at home, as phones see it: whether it is there, the authority to install (Android's
 * certificate, iOS's profile), and where a trusting phone is sent. Null certificates: HTTPS is
 * off (HTTPS=0), and each of these says so.
 */
export class HomeHttps {
  constructor(
    private readonly certificates: HttpsCertificates | null,
    private readonly serverName: () => string,
    private readonly webDir: string | null,
    /** The server's own `.local` name (the one announced, else the one its name gives). */
    private readonly ownName: () => string = () => `${localLabel(serverName())}.local`,
  ) {}

  offer(): HttpsOffer {
    // A phone opening the guided page is when names matter: one named at setup, or a new
    // address the periodic check has not seen yet, is issued now (the page asks again until ready).
    void this.certificates?.check();
    const authority = this.certificates?.authorityInfo() ?? null;
    return {
      available: this.certificates?.tlsOptions() != null,
      authority_fingerprint_sha256: authority?.fingerprintSha256 ?? null,
      authority_name: authority?.commonName ?? null,
    };
  }

  /**
   * The fingerprint of the authority whose certificate HTTPS answers with now: a phone whose
   * HTTPS request was answered trusts this one.
   */
  servingAuthority(): string | null {
    return this.certificates?.servingAuthority() ?? null;
  }

  /** The authority as Android installs it: one DER certificate. */
  authorityCertificate(): { der: Buffer; fileName: string } {
    const authority = this.handOut();
    return { der: authority.certDer, fileName: `${fileSafe(this.serverName())} Hearth.crt` };
  }

  /**
   * The iOS profile: the authority, and a home-screen icon opening Hearth over HTTPS at the name
   * the phone asked for (`host`, with its port) when the certificate carries it, else at the
   * server's own `.local` name.
   */
  appleProfile(host: string): { text: string; fileName: string } {
    const authority = this.handOut();
    const port = /:(\d+)$/.exec(host)?.[1];
    const hostname = port ? host.slice(0, -port.length - 1) : host;
    const appHost = this.servesHttpsFor(hostname) ? host : `${this.ownName()}${port ? `:${port}` : ''}`;
    const text = appleProfile({
      authorityDer: authority.certDer,
      authorityName: authority.commonName,
      serverName: this.serverName(),
      appUrl: `https://${appHost}/`,
      iconPng: this.icon(),
    });
    return { text, fileName: `${fileSafe(this.serverName())} Hearth.mobileconfig` };
  }

  /**
   * Whether the cookie the guided page set (`hearth_https`) says this phone trusts the authority
   * in use now. A phone that trusted one the owner has since replaced is not sent to HTTPS,
   * where it would meet a certificate it does not trust: it keeps plain HTTP until it installs
   * the new one.
   */
  trustedBy(cookie: string | undefined): boolean {
    const authority = this.certificates?.authorityInfo();
    return authority != null && trustedBy(authority, cookie);
  }

  /** Whether a phone that asked for `host` can be sent to HTTPS there (the certificate names it). */
  servesHttpsFor(host: string): boolean {
    return this.certificates !== null && this.certificates.tlsOptions() !== null && this.certificates.covers(host);
  }

  /**
   * Whether HSTS may be sent for `host`: only for the server's own `.local` name. HSTS holds for
   * every port of a name, so on the machine's own name (`family-pc.local`) or a configured one
   * it would force the PC's other web pages (a printer's, Home Assistant's) onto HTTPS too.
   */
  hstsFor(host: string): boolean {
    return host.toLowerCase() === this.ownName() && this.servesHttpsFor(host);
  }

  /** The authority, to a phone that downloads it: recorded first, since phones may trust it from now on. */
  private handOut() {
    const authority = this.certificates?.handOutAuthority();
    if (!authority) throw new AppError('https_off');
    return authority;
  }

  private icon(): Buffer | null {
    if (this.webDir === null) return null;
    try {
      return fs.readFileSync(path.join(this.webDir, 'icon-192.png'));
    } catch {
      return null;
    }
  }
}

/** Server names already refuse control characters; these are what a phone's file name cannot hold. */
function fileSafe(name: string): string {
  return name.replace(/[\\/:*?"<>|]/g, '').trim() || 'Hearth';
}
