import os from 'node:os';
import type { ServerConfig } from '../../config.ts';
import { listLanAddresses } from '../../platform/network.ts';
import type { CertificateNames } from './certificate-names.ts';

/**
 * The names and addresses phones at home reach this server by, for its certificate: the
 * server's `.local` name, the machine's own `.local` name (which Avahi or Bonjour may already
 * announce), the names the owner configured, this PC's LAN addresses, and loopback for the
 * desktop. Names the authority may not vouch for (a public DNS name) are left out by the issuer.
 */
export function homeNetworkNames(
  config: Pick<ServerConfig, 'hostNames' | 'publicUrl'>,
  serverName: string,
  extraNames: string[] = [],
  lanAddresses: string[] = listLanAddresses().map((a) => a.address),
): CertificateNames {
  const dns = [
    ...extraNames,
    `${localLabel(serverName)}.local`,
    `${localLabel(os.hostname())}.local`,
    'localhost',
    ...config.hostNames,
    ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : []),
  ];
  return { dns: [...new Set(dns)], ips: [...lanAddresses, '127.0.0.1', '::1'] };
}

/** "Family PC" → "family-pc": one DNS label, as mDNS names are. */
export function localLabel(name: string): string {
  const label = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\.local\.?$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
  return label || 'hearth';
}
