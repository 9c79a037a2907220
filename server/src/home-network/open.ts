import type http from 'node:http';
import type { ServerConfig } from '../config.ts';
import type { EventBus } from '../events/bus.ts';
import { createFrontDoor, type FrontDoor } from '../http/front-door.ts';
import { homeNetworkListen, Listening, listenPlan, type ListenPlan } from '../http/listening.ts';
import type { Started } from '../lifecycle.ts';
import type { Logger } from '../log.ts';
import type { HttpsCertificates } from '../services/server/https-certificates.ts';
import type { LocalName } from '../services/server/local-name.ts';
import type { PublicOrigin } from '../services/server/public-origin.ts';
import type { Tailnet } from '../services/server/tailnet.ts';

/** The home network once open: where it listens, and what the process hosting the server may still ask of it. */
export interface OpenHomeNetwork extends Started {
  port: number;
  plan: ListenPlan;
  /** Where clients on this machine reach the server. */
  url: string;
  /** Listens on the home network too (after first-run setup at this PC), then announces the name there. */
  widen(): Promise<void>;
  /** Resolves once HTTPS has its first certificate (at once when HTTPS is off). */
  httpsReady: Promise<void>;
}

interface OpenOptions {
  config: ServerConfig;
  log: Logger;
  bus: EventBus;
  /** The home network's parts (HomeNetwork). */
  network: { tailnet: Tailnet; certificates: HttpsCertificates | null; localName: LocalName; origin: PublicOrigin };
  server: http.Server;
  /** The desktop app before its owner exists listens on this PC alone (setup is in its window). */
  ownerExists: boolean;
  /** Publishes the settings again (Tailscale coming up or going away moves where links open). */
  settingsChanged: () => void;
}

/** Opens the front door and listens, then starts Tailscale, the certificates and the `.local` name. */
export async function openHomeNetwork(options: OpenOptions): Promise<OpenHomeNetwork> {
  const { config, log, network, server, ownerExists } = options;
  const { tailnet } = network;
  // The tailnet name is answered with the certificate `tailscale cert` gave for it.
  const front = createFrontDoor(server, log, (servername) => (servername === tailnet.current()?.name ? tailnet.certificate() : null));
  tailnet.servesHttps(true);
  const listening = new Listening(front.server, listenPlan(config.host, config.hostedSetup ? { ownerExists } : null));
  let port: number;
  try {
    port = await listening.start(config.port);
    if (ownerExists) await listening.widen();
  } catch (error) {
    listening.close();
    front.server.close();
    throw error;
  }
  network.origin.listeningOn(port);
  const upkeep = startUpkeep(options, port, listening, front);
  return {
    port,
    plan: listening.plan,
    url: `http://${clientHost(listening.plan.first)}:${port}`,
    widen: () =>
      listening.widen().then(upkeep.announce, (error) => log.error('could not listen on the home network', { error: String(error) })),
    httpsReady: upkeep.httpsStarted,
    stop: async () => {
      await upkeep.stop();
      listening.close();
      front.server.close();
      front.close();
    },
  };
}

/** Tailscale, the certificates and the `.local` name, once the server listens on `port`; and each change heard where it matters. */
function startUpkeep(
  { config, bus, network, ownerExists, settingsChanged }: OpenOptions,
  port: number,
  listening: Listening,
  front: FrontDoor,
) {
  const { tailnet, certificates, localName } = network;
  // Tailscale coming up or going away moves where links open: the share dialogs hear it at once.
  const unwatchTailnet = tailnet.onChange(settingsChanged);
  void tailnet.start();
  // The first certificate (and on a first start, the authority) is made off the request path:
  // plain HTTP answers meanwhile, and HTTPS opens as soon as it is ready.
  const unwatchCertificates = certificates?.onChange(() => front.useCertificate(certificates.tlsOptions()));
  const httpsStarted = certificates?.start() ?? Promise.resolve();
  // The name won on the network (hearth-2.local after a clash) is in the certificate at once.
  const unwatchLocalName = localName.onChange(() => void certificates?.check());
  // A renamed server gets a certificate for its new .local name at once, not at the next check.
  const unwatchRenames = bus.subscribe((event) => {
    if (event.message.type === 'server.settings_changed') void certificates?.check();
  });
  // The name is announced once the home network can reach the server (never for this PC alone).
  const announce = () => {
    const at = homeNetworkListen(listening.plan);
    if (config.announce && at !== null) void localName.start({ port, ...at });
  };
  if (ownerExists || listening.plan.then === null) announce();
  return {
    announce,
    httpsStarted,
    stop: async () => {
      unwatchTailnet();
      await tailnet.stop();
      await httpsStarted;
      unwatchCertificates?.();
      unwatchRenames();
      unwatchLocalName();
      await localName.stop();
    },
  };
}

/** A wildcard listen address is not something a client can dial. */
function clientHost(host: string): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}
