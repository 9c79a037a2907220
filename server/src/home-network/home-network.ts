import type http from 'node:http';
import type { ServerConfig } from '../config.ts';
import type { EventBus } from '../events/bus.ts';
import { HostAllowList } from '../http/host-allow-list.ts';
import { TrustedProxies } from '../http/trusted-proxies.ts';
import type { HomeNetworkUpkeep } from '../jobs/index.ts';
import type { Area } from '../lifecycle.ts';
import type { Logger } from '../log.ts';
import { openMdnsResponder } from '../platform/mdns.ts';
import { listLanAddresses } from '../platform/network.ts';
import { homeNetworkNames } from '../services/server/home-names.ts';
import { HttpsCertificates } from '../services/server/https-certificates.ts';
import { LocalName } from '../services/server/local-name.ts';
import { PublicOrigin } from '../services/server/public-origin.ts';
import { Tailnet } from '../services/server/tailnet.ts';
import { TlsFiles } from '../store/data-dir/tls-files.ts';
import { openHomeNetwork, type OpenHomeNetwork } from './open.ts';
import type { HomeNetworkReport } from './report.ts';

export interface HomeNetworkOptions {
  config: ServerConfig;
  log: Logger;
  bus: EventBus;
  serverId: string;
  /** The server's name, read wherever it is used (the services exist by then): a rename reaches the certificate. */
  serverName: () => string;
}

/**
 * How the family's devices reach the server: the front door (HTTP and HTTPS on one port), the
 * certificates HTTPS answers with, the `.local` name announced over mDNS, Tailscale's name and
 * certificate, and the proxies whose forwarded addresses are believed. Made before the
 * services (they print its names and origin), opened once the web server exists (`area`), kept
 * current by its jobs (`upkeep`, jobs/home-network.ts), closed before the web server.
 */
export class HomeNetwork {
  /** Tailscale, looked at once the server listens: its tailnet name becomes one of the server's names and its links' origin. */
  readonly tailnet: Tailnet;
  readonly origin: PublicOrigin;
  readonly localName: LocalName;
  /** Null when HTTPS is off. */
  readonly certificates: HttpsCertificates | null;
  readonly trusted: TrustedProxies;
  readonly hosts: HostAllowList;
  private opened: OpenHomeNetwork | null = null;

  constructor(private readonly options: HomeNetworkOptions) {
    const { config, log, bus, serverId, serverName } = options;
    this.tailnet = new Tailnet(config, log);
    this.origin = new PublicOrigin(
      config,
      undefined,
      undefined,
      () => this.tailnet.linkName(),
      () => this.localName.current(),
    );
    this.localName = new LocalName({
      openResponder: openMdnsResponder,
      lanAdapters: () => [...new Set(listLanAddresses().map((a) => a.interface))],
      serverName,
      txt: { id: serverId, version: config.version },
      bus,
      log,
    });
    this.certificates = config.https
      ? new HttpsCertificates({
          dataDir: config.dataDir,
          files: new TlsFiles(config.dataDir),
          // Made at the first start, before the owner names the server: one plain name phones list it under.
          authorityName: () => 'Hearth home network',
          wantedNames: () =>
            homeNetworkNames(
              config,
              serverName(),
              [this.localName.current()].filter((name) => name !== null),
            ),
          log,
          now: Date.now,
        })
      : null;
    // The configured origin's own name is one the family uses: it is allowed like HOST_NAMES.
    // So is the tailnet name while Tailscale is up; behind a trusted proxy, the name it forwards is the one checked.
    this.trusted = new TrustedProxies(config.trustedProxies, config.trustedProxyHeader);
    this.hosts = new HostAllowList([...config.hostNames, ...(config.publicUrl ? [new URL(config.publicUrl).hostname] : [])])
      .alsoAllow(() => (this.tailnet.current() ? [this.tailnet.current()!.name] : []))
      .believing(this.trusted);
  }

  /** What its jobs keep current (jobs/home-network.ts). */
  get upkeep(): HomeNetworkUpkeep {
    return { tailnet: this.tailnet, localName: this.localName, certificates: this.certificates };
  }

  /**
   * Opens the front door on `server` and listens: on this PC alone before the desktop app's
   * owner exists, on the home network too after. Then Tailscale, the certificates and the
   * `.local` name start; closing stops them and then the door.
   */
  readonly area: Area<{ server: http.Server; ownerExists: boolean; settingsChanged: () => void }, OpenHomeNetwork> = {
    name: 'home network',
    start: async (context) => {
      this.opened = await openHomeNetwork({ ...this.options, ...context, network: this });
      return this.opened;
    },
  };

  /** Where it stands now: listening where, the `.local` name, Tailscale, HTTPS, proxies. */
  report(): HomeNetworkReport {
    const tailnet = this.tailnet.current();
    return {
      listening: this.opened && { port: this.opened.port, plan: this.opened.plan },
      localName: this.localName.current(),
      tailnet: { ...this.tailnet.status(), name: tailnet?.name ?? null, addresses: tailnet?.addresses ?? [] },
      https: this.certificates && {
        ready: this.certificates.tlsOptions() !== null,
        certificate: this.certificates.certificate(),
        uncovered: this.certificates.uncovered(),
      },
      trustedProxies: this.trusted.size,
    };
  }
}
