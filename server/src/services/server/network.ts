import type { ServerConfig } from '../../config.ts';
import type { AwayAccess, NetworkResponse } from '../../contract/server-responses.ts';
import { listLanAddresses } from '../../platform/network.ts';
import { requireAdmin, type Actor } from '../common/context.ts';
import type { Tailnet } from './tailnet.ts';

/** Where phones reach this server: at home (what the owner types or scans), and away from home. */
export class NetworkService {
  constructor(
    private readonly config: Pick<ServerConfig, 'publicUrl' | 'trustedProxies'> = { publicUrl: null, trustedProxies: [] },
    private readonly tailnet: Tailnet | null = null,
    /** The `.local` name the server announces now (LocalName.current), null when it does not. */
    private readonly localName: () => string | null = () => null,
  ) {}

  /** The machine's LAN addresses (no loopback, link-local or virtual adapters) with the port requests arrive on. */
  lan(actor: Actor, port: number): NetworkResponse {
    requireAdmin(actor);
    const host = this.localName();
    return {
      port,
      addresses: listLanAddresses().map((a) => ({
        ...a,
        url: `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${port}/`,
      })),
      local_name: host === null ? null : { host, url: `http://${host}:${port}/` },
      away: this.away(port),
    };
  }

  /**
   * The console's "Check it works": looks at Tailscale again now rather than at the next
   * scheduled look (every few minutes), so an owner who just signed in to it sees the result.
   */
  async check(actor: Actor, port: number): Promise<NetworkResponse> {
    requireAdmin(actor);
    await this.tailnet?.refresh();
    return this.lan(actor, port);
  }

  private away(port: number): AwayAccess {
    const status = this.tailnet?.status() ?? { tailscale: 'off' as const, detail: null, certificateProblem: null };
    const now = this.tailnet?.current() ?? null;
    const link = this.tailnet?.linkName() ?? null;
    const certificate = this.tailnet?.certificate() ?? null;
    return {
      tailscale: status.tailscale,
      tailscale_detail: status.detail,
      tailnet:
        now && link
          ? {
              name: now.name,
              url: `${link.https ? 'https' : 'http'}://${now.name}:${port}/`,
              addresses: now.addresses,
              https: link.https,
              certificate_expires_at: certificate?.notAfter.getTime() ?? null,
              certificate_problem: status.certificateProblem,
            }
          : null,
      public_url: this.config.publicUrl,
      trusted_proxies: this.config.trustedProxies.length,
    };
  }
}
