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
 * Access tokens are HMAC-signed `session.scope.expiry`: checking one costs a hash, not a
 * write. They are not trusted alone: every request also finds the session live in the
 * database, so revoking a session kills its tokens at once.
 */
export class AccessTokens {
  constructor(private readonly key: Buffer) {}

  sign(claims: AccessClaims): string {
    const body = `${claims.sessionId}.${SCOPE_MARK[claims.scope]}.${claims.expiresAt}`;
    return `${body}.${this.mac(body)}`;
  }

  /** Claims of a well-signed, unexpired token, else null. */
  verify(token: string, now: number): AccessClaims | null {
    const parts = token.split('.');
    if (parts.length !== 4) return null;
    const [sessionId, mark, expiry, mac] = parts as [string, string, string, string];
    if (!safeEqual(mac, this.mac(`${sessionId}.${mark}.${expiry}`))) return null;
    const expiresAt = Number(expiry);
    if (!Number.isSafeInteger(expiresAt) || expiresAt <= now) return null;
    const scope = mark === 'f' ? 'full' : mark === 'p' ? 'pending' : null;
    return scope ? { sessionId, scope, expiresAt } : null;
  }

  /** A key of its own for another kind of signed token, derived from this one (HMAC as a PRF). */
  derivedKey(use: string): Buffer {
    return crypto.createHmac('sha256', this.key).update(`hearth subkey: ${use}`).digest();
  }

  private mac(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
