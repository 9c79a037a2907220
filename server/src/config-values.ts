/*
 * Settings given as text (environment variables), read into values: each parser refuses what it
 * cannot read at startup, naming the variable, rather than run on a guess. config.ts alone calls
 * them, with what it read from the environment.
 */
import type { LogLevel } from './config.ts';

export const TRUSTED_PROXY_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type TrustedProxyHeader = (typeof TRUSTED_PROXY_HEADERS)[number];

export function parseTrustedProxyHeader(raw: string): TrustedProxyHeader {
  const header = raw.trim().toLowerCase();
  if ((TRUSTED_PROXY_HEADERS as readonly string[]).includes(header)) return header as TrustedProxyHeader;
  throw new Error(`TRUSTED_PROXY_HEADER must be ${TRUSTED_PROXY_HEADERS.join(' or ')}, got "${raw}"`);
}

/** A whole number from `min` to `max`. */
export function parseMegabytes(raw: string, name: string): number {
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value < 0 || value > 1024)
    throw new Error(`${name} must be a number of megabytes from 0 to 1024, got "${raw}"`);
  return Math.round(value * 1024 * 1024);
}

export function parseWhole(raw: string, name: string, min: number, max: number): number {
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * The browsers' own push services (Chrome and Edge on Android and computers, Firefox, Safari on
 * iPhone and Mac, Windows' own): where a subscription made by a family browser points.
 */
export const DEFAULT_PUSH_SERVICES = [
  'https://fcm.googleapis.com',
  'https://*.push.services.mozilla.com',
  'https://web.push.apple.com',
  'https://*.push.apple.com',
  'https://*.notify.windows.com',
];

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * PUSH_SERVICES: where Web Push may be sent. Each is `https://host[:port]` or
 * `https://*.domain` (any host under it); `http://` only on a loopback address (a test's own
 * push service), never a path, user or query.
 */
export function parsePushServices(raw: readonly string[]): string[] {
  return raw
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '')
    .map((entry) => {
      const match = /^(https?):\/\/(\*\.)?([a-z0-9.-]+|\[::1\])(:\d{1,5})?\/?$/.exec(entry);
      if (!match) throw new Error(`PUSH_SERVICES entries are https://host or https://*.domain, got "${entry}"`);
      const [, scheme, wildcard, host] = match;
      if (scheme === 'http' && (wildcard || !LOOPBACK_HOSTS.has(host!))) {
        throw new Error(`PUSH_SERVICES takes http:// only for a loopback address (a test's push service), got "${entry}"`);
      }
      return entry.replace(/\/$/, '');
    });
}

/** Whether a push subscription's endpoint is on one of the push services (parsePushServices' form). */
export function pushServiceAllows(services: readonly string[], endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  const scheme = url.protocol.slice(0, -1);
  const host = url.hostname.toLowerCase();
  return services.some((entry) => {
    const match = /^(https?):\/\/(\*\.)?([^:/]+)(?::(\d+))?$/.exec(entry);
    if (!match || match[1] !== scheme) return false;
    const [, , wildcard, name, port] = match;
    if ((port ?? '') !== url.port) return false;
    return wildcard ? host.endsWith(`.${name}`) : host === name;
  });
}

export function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, got "${raw}"`);
  }
  return port;
}

export function parseLogLevel(raw: string): LogLevel {
  const levels: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];
  if (!levels.includes(raw as LogLevel)) {
    throw new Error(`LOG_LEVEL must be one of ${levels.join(', ')}, got "${raw}"`);
  }
  return raw as LogLevel;
}

export function parseCost(raw: string): number {
  const cost = Number(raw);
  if (!Number.isInteger(cost) || cost < 2 ** 10 || (cost & (cost - 1)) !== 0) {
    throw new Error(`PASSWORD_HASH_COST must be a power of two of at least 1024, got "${raw}"`);
  }
  return cost;
}
