/**
 * What a server certificate is for: the names and addresses a phone types. Its own file because
 * both the authority's scope (authority-scope.ts) and the certificates built for it (x509.ts) speak of it.
 */
export interface CertificateNames {
  dns: string[];
  ips: string[];
}
