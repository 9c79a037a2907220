import crypto from 'node:crypto';
import { safeEqual } from '../common/secrets.ts';

export type TokenScope = 'full' | 'pending';

export interface AccessClaims {
  sessionId: string;
  scope: TokenScope;
  expiresAt: number;
}

const SCOPE_MARK: Record<TokenScope, string> = { full: 'f', pending: 'p' };

/**
 * How far a token's expiry may lie beyond the lifetime the server gives: the clock stepping
 * back (an NTP correction) between signing and checking. Small, so a minted token buys nothing.
 */
export const CLOCK_ALLOWANCE_MS = 2 * 60_000;

/**
 * Access tokens are HMAC-signed `session.scope.expiry`: checking one costs a hash, not a
 * write. They are not trusted alone: every request also finds the session live in the
 * database, so revoking a session kills its tokens at once.
 */
export class AccessTokens {
  constructor(
    private readonly key: Buffer,
    /** The longest a token of each scope is given (config: accessTokenTtlMs, pendingTokenTtlMs). */
    private readonly lifetimeMs: Record<TokenScope, number>,
  ) {}

  sign(claims: AccessClaims): string {
    const body = `${claims.sessionId}.${SCOPE_MARK[claims.scope]}.${claims.expiresAt}`;
    return `${body}.${this.mac(body)}`;
  }

  /**
   * Claims of a well-signed, unexpired token, else null. A token whose expiry lies further
   * ahead than its scope's lifetime was never signed by this server: someone who got hold of
   * the key (a copied data folder, an old backup) minted it to last for years.
   */
  verify(token: string, now: number): AccessClaims | null {
    const parts = token.split('.');
    if (parts.length !== 4) return null;
    const [sessionId, mark, expiry, mac] = parts as [string, string, string, string];
    if (!safeEqual(mac, this.mac(`${sessionId}.${mark}.${expiry}`))) return null;
    const scope = mark === 'f' ? 'full' : mark === 'p' ? 'pending' : null;
    const expiresAt = Number(expiry);
    if (scope === null || !withinLifetime(expiresAt, now, this.lifetimeMs[scope])) return null;
    return { sessionId, scope, expiresAt };
  }

  /** A key of its own for another kind of signed token, derived from this one (HMAC as a PRF). */
  derivedKey(use: string): Buffer {
    return crypto.createHmac('sha256', this.key).update(`hearth subkey: ${use}`).digest();
  }

  private mac(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/** Not yet expired, and expiring no later than a token made now would: `lifetimeMs` plus the clock's allowance. */
export function withinLifetime(expiresAt: number, now: number, lifetimeMs: number): boolean {
  return Number.isSafeInteger(expiresAt) && expiresAt > now && expiresAt <= now + lifetimeMs + CLOCK_ALLOWANCE_MS;
}
