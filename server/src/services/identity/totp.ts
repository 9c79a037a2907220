import * as OTPAuth from 'otpauth';

/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_S = 30;
const DIGITS = 6;
/** One step either side absorbs a phone clock that is a little off. */
const WINDOW = 1;

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function otpauthUrl(secret: string, account: string, issuer: string): string {
  return totpFor(secret, account, issuer).toString();
}

/**
 * The time step a code belongs to, or null when it matches none in the window. Callers keep
 * the last accepted step so a code cannot be used twice.
 */
export function matchTotpStep(secret: string, code: string, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpFor(secret).validate({ token: code, timestamp: now, window: WINDOW });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

export function totpCodeAt(secret: string, at: number): string {
  return totpFor(secret).generate({ timestamp: at });
}

function totpFor(secret: string, label = 'account', issuer = 'Hearth'): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_S,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}
