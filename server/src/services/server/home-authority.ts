import { AppError } from '../../app-error.ts';
import type { HomeHttpsView } from '../../contract/server-responses.ts';
import { requireAdmin, type Actor } from '../common/context.ts';
import type { AuthorityFacts } from './authority-facts.ts';
import { scopeWords } from './authority-scope.ts';
import type { HttpsCertificates } from './https-certificates.ts';

/**
 * Hearth's certificate authority for the owner (the Connect page): its fingerprint, to compare
 * with what a phone shows when installing it; what it may vouch for; the names phones use that
 * it does not cover; and making a new one, which every phone must then install again.
 */
export class HomeAuthorityService {
  constructor(private readonly certificates: HttpsCertificates | null) {}

  view(actor: Actor): HomeHttpsView {
    requireAdmin(actor);
    const authority = this.certificates?.authorityInfo() ?? null;
    return {
      available: this.certificates?.tlsOptions() != null,
      authority: authority && describe(authority),
      uncovered: this.certificates?.uncovered() ?? [],
    };
  }

  async replace(actor: Actor): Promise<HomeHttpsView> {
    requireAdmin(actor);
    if (this.certificates === null) throw new AppError('https_off');
    await this.certificates.replaceAuthority();
    return this.view(actor);
  }
}

function describe(authority: AuthorityFacts): NonNullable<HomeHttpsView['authority']> {
  const { names, addresses } = scopeWords(authority.scope);
  return {
    name: authority.commonName,
    fingerprint_sha256: authority.fingerprintSha256,
    limited: authority.limited,
    names,
    addresses,
    given_to_phones: authority.handedOut,
    expires_at: authority.notAfter.getTime(),
  };
}
