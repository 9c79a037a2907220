import type { ListenPlan } from '../http/listening.ts';
import type { ServerCertificateFacts } from '../services/server/https-certificates.ts';
import type { TailnetStatus } from '../services/server/tailnet.ts';

/** The home network as it stands (HomeNetwork.report): for the process that hosts the server, logs and tests. */
export interface HomeNetworkReport {
  /** Null until the front door listens. */
  listening: { port: number; plan: ListenPlan } | null;
  /** The `.local` name announced now, or null when not announcing. */
  localName: string | null;
  tailnet: TailnetStatus & { name: string | null; addresses: string[] };
  /** Null when HTTPS is off; `ready` once the first certificate is in use. */
  https: { ready: boolean; certificate: ServerCertificateFacts | null; uncovered: string[] } | null;
  /** How many addresses or networks are trusted to forward the client's address (TRUSTED_PROXIES). */
  trustedProxies: number;
}
