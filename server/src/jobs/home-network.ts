import type { HttpsCertificates } from '../services/server/https-certificates.ts';
import type { LocalName } from '../services/server/local-name.ts';
import type { Tailnet } from '../services/server/tailnet.ts';
import type { Job } from './job.ts';

/** How often the home network's certificate is checked against its names and its end date. */
export const CERTIFICATE_CHECK_EVERY_MS = 5 * 60_000;
/** How often the home network's adapters are looked at again for the `.local` name. */
export const LOCAL_NAME_RECHECK_EVERY_MS = 30_000;

/** What the home network (home-network/) keeps current on its own. */
export interface HomeNetworkUpkeep {
  tailnet: Tailnet;
  localName: LocalName;
  /** Null when HTTPS is off: there is no certificate to keep. */
  certificates: HttpsCertificates | null;
}

/**
 * The home network's upkeep. Each first look is made when the home network opens (the server
 * listens), so these start one interval after it; each run is one that never throws (its
 * failures are logged and shown where the owner looks) and does nothing when what it looks
 * after is off: Tailscale turned off, the `.local` name not announced (yet).
 */
export function homeNetworkJobs({ tailnet, localName, certificates }: HomeNetworkUpkeep, tailnetEveryMs: number): Job[] {
  return [
    // The owner may sign in, sign out or stop Tailscale at any time.
    { name: 'tailnet', schedule: { everyMs: tailnetEveryMs }, run: () => tailnet.refresh() },
    // Wi-Fi that joins after the start gets the name too.
    { name: 'local name', schedule: { everyMs: LOCAL_NAME_RECHECK_EVERY_MS }, run: () => localName.recheckAdapters() },
    ...(certificates
      ? [{ name: 'https certificates', schedule: { everyMs: CERTIFICATE_CHECK_EVERY_MS }, run: () => certificates.check() }]
      : []),
  ];
}
