import type { ServerConfig } from '../../config.ts';
import { listLanAddresses, type LanAddress } from '../../platform/network.ts';
import { linkReach, type LinkReach } from './link-reach.ts';

/** How long a detected origin is reused before the LAN address is read again (DHCP moves it). */
const DETECTED_FOR_MS = 10_000;

/** The machine's tailnet name while Tailscale is up, and whether it answers HTTPS on it. */
export interface TailnetName {
  name: string;
  https: boolean;
}

/**
 * The origin family devices reach the server at, for the URLs the server hands out (public
 * links). Never taken from the request's Host: a page that rebinds its own name to the
 * server would otherwise get links on that name. Configured (`PUBLIC_URL`); else the tailnet
 * name while Tailscale is up (a link sent to someone away from home opens where they are, if
 * they are in the tailnet, while a LAN address opens nowhere but at home); else the `.local`
 * name the server announces; else detected: the address the server listens on, or for a
 * wildcard listen the machine's LAN address.
 */
export class PublicOrigin {
  private detected: { origin: string; at: number } | undefined;
  private port = 0;

  constructor(
    private readonly config: Pick<ServerConfig, 'host' | 'publicUrl'>,
    private readonly lanAddresses: () => LanAddress[] = () => listLanAddresses(),
    private readonly now: () => number = Date.now,
    private readonly tailnet: () => TailnetName | null = () => null,
    /** The `.local` name the server announces (LocalName.current), null when it does not. */
    private readonly localName: () => string | null = () => null,
  ) {}

  /** Called once the server listens: a configured port of 0 means "any", known only then. */
  listeningOn(port: number): void {
    this.port = port;
    this.detected = undefined;
  }

  current(): string {
    if (this.config.publicUrl !== null) return this.config.publicUrl;
    const tailnet = this.tailnet();
    if (tailnet) return `${tailnet.https ? 'https' : 'http'}://${tailnet.name}:${this.port}`;
    // The announced name outlives the address the router gives the PC: invites and links on it
    // keep opening after a router restart (the Connect page keeps the address as the fallback).
    const named = this.localName();
    if (named !== null) return `http://${named}:${this.port}`;
    const now = this.now();
    if (this.detected === undefined || now - this.detected.at > DETECTED_FOR_MS) {
      this.detected = { origin: `http://${urlHost(this.detectHost())}:${this.port}`, at: now };
    }
    return this.detected.origin;
  }

  /** Where links on the current origin open: at home only, until PUBLIC_URL names an outside address or Tailscale is up. */
  reach(): LinkReach {
    if (this.config.publicUrl === null && this.tailnet()) return 'tailnet';
    return linkReach(this.current());
  }

  private detectHost(): string {
    const { host } = this.config;
    if (host !== '' && host !== '0.0.0.0' && host !== '::') return host;
    const lan = this.lanAddresses().filter((a) => host === '::' || a.family === 'IPv4');
    return lan[0]?.address ?? '127.0.0.1';
  }
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
