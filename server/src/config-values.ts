/*
 * Settings given as text (environment variables), read into values: each parser refuses what it
 * cannot read at startup, naming the variable, rather than run on a guess. config.ts alone calls
 * them, with what it read from the environment.
 */

export const TRUSTED_PROXY_HEADERS = ['x-forwarded-for', 'forwarded'] as const;
export type TrustedProxyHeader = (typeof TRUSTED_PROXY_HEADERS)[number];

export function parseTrustedProxyHeader(raw: string): TrustedProxyHeader {
  const header = raw.trim().toLowerCase();
  if ((TRUSTED_PROXY_HEADERS as readonly string[]).includes(header)) return header as TrustedProxyHeader;
  throw new Error(`TRUSTED_PROXY_HEADER must be ${TRUSTED_PROXY_HEADERS.join(' or ')}, got "${raw}"`);
}

/** A whole number from `min` to `max`. */
export function parseWhole(raw: string, name: string, min: number, max: number): number {
  const value = Number(raw.trim());
  if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}
