import type { NetworkResponse } from '../../contract/server-responses.ts';
import { listLanAddresses } from '../../platform/network.ts';
import { requireAdmin, type Actor } from '../common/context.ts';

/** Where phones on the home network reach this server: what the owner types or scans. */
export class NetworkService {
  constructor(
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
    };
  }
}
