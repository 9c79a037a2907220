import { AppError } from '../../app-error.ts';
import type { ServerConfig } from '../../config.ts';
import type { EventBus } from '../../events/bus.ts';
import type { Logger } from '../../log.ts';
import type { Store } from '../../store/index.ts';
import type { AccessTokens, TokenScope } from '../identity/access-tokens.ts';
import type { PasswordHasher } from '../identity/passwords.ts';
import type { RateLimiter } from './rate-limiter.ts';
import type { Role } from '../../contract/identity-responses.ts';

/** What every service is built from. */
export interface ServiceDeps {
  config: ServerConfig;
  store: Store;
  bus: EventBus;
  log: Logger;
  now: () => number;
  passwords: PasswordHasher;
  accessTokens: AccessTokens;
  rateLimiter: RateLimiter;
}

/** The caller of a service: an authenticated session of an account. */
export interface Actor {
  userId: string;
  sessionId: string;
  role: Role;
  scope: TokenScope;
  mustChangePassword: boolean;
}

/** Where a sign-in comes from, for the session list and per-address limits. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
  /** The request names a proxy's client (Forwarded, X-Forwarded-For, X-Real-IP): `ip` is the proxy's. */
  forwarded?: boolean;
}

/** Owner-only work (the console's): 403 `forbidden` for any other account. */
export function requireAdmin(actor: Actor): void {
  if (actor.role !== 'admin') throw new AppError('forbidden');
}
