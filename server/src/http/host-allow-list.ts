import net from 'node:net';
import os from 'node:os';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import { normaliseHostName } from '../config.ts';
import { AppError } from '../app-error.ts';
import { OwnAddresses, canonicalAddress } from '../platform/network.ts';
import { forwardedView, TrustedProxies } from './trusted-proxies.ts';

/**
 * DNS rebinding: a web page that someone in the family opens can point its own name at the
 * server's address, and the browser then lets that page read the server's answers (it is
 * "same origin" with itself). The only thing that tells such a request apart is its Host.
 * So the server answers only names that cannot be rebound by someone else: localhost, its
 * own addresses, `*.local` (mDNS, answered on the LAN only), the machine's name and the
 * names the owner configured (HOST_NAMES, the host of PUBLIC_URL) and the machine's tailnet name
 * while Tailscale is up. Anything else gets 421.
 */
export class HostAllowList {
  private readonly names: Set<string>;
  private readonly moreNames: (() => readonly string[])[] = [];
  private trusted = new TrustedProxies([]);

  constructor(
    configuredNames: readonly string[],
    private readonly ownAddresses: OwnAddresses = new OwnAddresses(),
    machineName: string = os.hostname(),
  ) {
    this.names = new Set(['localhost', normaliseHostName(machineName), ...configuredNames.map(normaliseHostName)]);
  }

  /** Names that come and go while the server runs (the tailnet name), read on each request. */
  alsoAllow(names: () => readonly string[]): this {
    this.moreNames.push(names);
    return this;
  }

  /** Behind a trusted proxy the name the browser used is the proxy's X-Forwarded-Host, which is checked instead. */
  believing(trusted: TrustedProxies): this {
    this.trusted = trusted;
    return this;
  }

  /** The request's name: its Host, or the one a trusted proxy forwarded. */
  allowsRequest(req: IncomingMessage): boolean {
    return this.allows(forwardedView(req, this.trusted)?.host ?? req.headers.host);
  }

  allows(hostHeader: string | undefined): boolean {
    const host = hostOf(hostHeader);
    if (host === null) return false;
    if (net.isIP(host) !== 0) return isLoopback(host) || this.ownAddresses.has(host);
    if (this.names.has(host)) return true;
    if (this.moreNames.some((names) => names().some((name) => normaliseHostName(name) === host))) return true;
    // Browsers resolve *.localhost to the loopback themselves; *.local is multicast DNS on the LAN.
    return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.(local|localhost)$/.test(host);
  }
}

/** Refuses a request whose Host is not on the list, with the error envelope (outer middleware). */
export function requireKnownHost(list: HostAllowList): Koa.Middleware {
  return async (ctx, next) => {
    if (!list.allowsRequest(ctx.req)) throw new AppError('misdirected_request');
    return next();
  };
}

/** The name or address of a Host header, without port or brackets, lower case; null if malformed. */
export function hostOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = header.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(value);
  if (bracketed) return net.isIPv6(bracketed[1]!) ? canonicalAddress(bracketed[1]!) : null;
  const plain = /^([a-z0-9.-]+?)\.?(?::\d{1,5})?$/.exec(value);
  return plain ? plain[1]! : null;
}

function isLoopback(address: string): boolean {
  return address.startsWith('127.') || canonicalAddress(address) === '::1';
}
