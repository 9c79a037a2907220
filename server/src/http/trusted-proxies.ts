import net from 'node:net';
import type { IncomingMessage } from 'node:http';
import type Koa from 'koa';
import type { TrustedProxyHeader } from '../config.ts';

/**
 * The addresses and ranges (TRUSTED_PROXIES) whose forwarding headers the server believes, and
 * which of the two header families they write (TRUSTED_PROXY_HEADER).
 */
export class TrustedProxies {
  private readonly list = new net.BlockList();
  readonly size: number;

  constructor(
    entries: readonly string[],
    readonly header: TrustedProxyHeader = 'x-forwarded-for',
  ) {
    for (const entry of entries) {
      const [address = '', bits] = entry.split('/');
      const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
      if (bits === undefined) this.list.addAddress(address, type);
      else this.list.addSubnet(address, Number(bits), type);
    }
    this.size = entries.length;
  }

  trusts(address: string | undefined | null): boolean {
    if (!address || this.size === 0) return false;
    const bare = unmapped(address.replace(/%.*$/, ''));
    const version = net.isIP(bare);
    if (version === 0) return false;
    return this.list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
  }
}

/** What a request says about its client once forwarding headers are weighed: who sent it, over what, to which name. */
export interface ForwardedView {
  ip: string;
  protocol: 'http' | 'https' | null;
  host: string | null;
}

/**
 * The client as the nearest trusted proxy saw it, or null when the request did not come from
 * a trusted proxy (then the socket's own address and the request's Host are the truth). The
 * chain of addresses is read from the right: each hop appends the address it received from,
 * so the first address from the right that is not itself a trusted proxy is the client; what
 * lies left of it was written by the client and proves nothing.
 */
export function forwardedView(req: IncomingMessage, trusted: TrustedProxies): ForwardedView | null {
  const peer = req.socket.remoteAddress;
  if (!trusted.trusts(peer)) return null;
  const hops = trusted.header === 'forwarded' ? forwardedHops(req) : xForwardedHops(req);
  let ip = peer!;
  for (let i = hops.for.length - 1; i >= 0; i--) {
    const address = hops.for[i]!;
    if (net.isIP(address) === 0) break;
    ip = address;
    if (!trusted.trusts(address)) break;
  }
  const protocol = hops.proto === 'https' || hops.proto === 'http' ? hops.proto : null;
  return { ip, protocol, host: hops.host };
}

/**
 * Believes X-Forwarded-For/Proto/Host (or, told so, Forwarded) from TRUSTED_PROXIES only, in this
 * one place: Koa's own `app.proxy` would believe them from anyone. The attack it blocks: a phone on
 * the home Wi-Fi that sends `X-Forwarded-For: <a new address>` with each wrong password would
 * otherwise be a new client every time, and escape the per-address limit on guesses; a forged
 * `X-Forwarded-Proto: https` would make links and cookies claim a protection the connection
 * does not have. Requests from a trusted proxy get its view of the client's address, protocol
 * and name (the Host allow list then checks the name the browser used).
 */
export function believeTrustedProxies(trusted: TrustedProxies): Koa.Middleware {
  return async (ctx, next) => {
    const view = forwardedView(ctx.req, trusted);
    if (view) {
      ctx.request.ip = view.ip;
      // Koa's getters read the headers only under app.proxy; these per-request values take their place.
      if (view.protocol) Object.defineProperty(ctx.request, 'protocol', { value: view.protocol });
      if (view.host) Object.defineProperty(ctx.request, 'host', { value: view.host });
    }
    return next();
  };
}

type Hops = { for: string[]; proto: string | null; host: string | null };

/**
 * The addresses a request passed through, and the protocol and name the outermost hop received,
 * from the one header family this deployment's proxy writes. The other family is never read: a
 * proxy that appends to X-Forwarded-For passes a visitor's own `Forwarded: for=<any address>`
 * on untouched, and believing it would make each wrong password a new visitor.
 */
function xForwardedHops(req: IncomingMessage): Hops {
  // Of the protocol and the name, the value the nearest (trusted) proxy wrote is the last one.
  return {
    for: listOf(header(req, 'x-forwarded-for')).map(unbracketed),
    proto: listOf(header(req, 'x-forwarded-proto')).at(-1)?.toLowerCase() ?? null,
    host: listOf(header(req, 'x-forwarded-host')).at(-1) ?? null,
  };
}

function forwardedHops(req: IncomingMessage): Hops {
  const forwarded = header(req, 'forwarded');
  if (forwarded === null) return { for: [], proto: null, host: null };
  const elements = forwarded.split(',').map(parseForwardedElement);
  const last = elements.at(-1) ?? {};
  return {
    for: elements.map((e) => e.for ?? ''),
    proto: last.proto?.toLowerCase() ?? null,
    host: last.host ?? null,
  };
}

/** RFC 7239: `for=192.0.2.60;proto=https;host=photos.example.org`, values maybe quoted, `for` maybe `"[v6]:port"`. */
function parseForwardedElement(element: string): { for?: string; proto?: string; host?: string } {
  const pairs: Record<string, string> = {};
  for (const pair of element.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const key = pair.slice(0, at).trim().toLowerCase();
    pairs[key] = pair
      .slice(at + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
  }
  const result: { for?: string; proto?: string; host?: string } = {};
  if (pairs.for !== undefined) result.for = unbracketed(pairs.for);
  if (pairs.proto !== undefined) result.proto = pairs.proto;
  if (pairs.host !== undefined) result.host = pairs.host;
  return result;
}

function header(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(',') : value;
}

function listOf(value: string | null): string[] {
  if (value === null) return [];
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** `[2001:db8::1]:4711` and `192.0.2.1:4711` without the port; a bare address as it is. */
function unbracketed(address: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (v6) return v6[1]!;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(address);
  return v4 ? v4[1]! : address;
}

function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}
