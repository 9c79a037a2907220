import type { TokenResponse } from '../../contract/identity-responses.ts';
import { AppError } from '../../app-error.ts';
import type { OwnerRepo } from '../../store/database/owner.repo.ts';
import { usernameKey } from '../../store/database/users.repo.ts';
import type { ClientInfo, ServiceDeps } from '../common/context.ts';
import type { OwnerService } from './owner.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { hashSecret, newTypableSecret, normaliseTypableSecret, safeEqual } from '../common/secrets.ts';
import type { DeviceInfo, SessionService } from './sessions.ts';
import { checkDeviceInfo } from './device-names.ts';
import { checkPassword } from './passwords.ts';

/** How long a recovery code made at the PC works. */
export const OWNER_RECOVERY_TTL_MS = 15 * 60_000;

export interface OwnerRecoveryCode {
  code: string;
  expires_at: number;
}

export interface RecoverInput extends DeviceInfo {
  code: string;
  new_password: string;
}

/**
 * Makes the owner's one-time recovery code and stores only its hash: 130 random bits typed
 * like a two-factor recovery code, working once, for 15 minutes. A newer code replaces an
 * older one. Shared by the server (the desktop app's tray menu) and `npm run owner -- reset`,
 * which opens the database beside a running server and writes this one row.
 */
export function makeOwnerRecoveryCode(repo: OwnerRepo, now: number): OwnerRecoveryCode {
  const code = newTypableSecret();
  const expires_at = now + OWNER_RECOVERY_TTL_MS;
  repo.putRecoveryCode({ hash: recoveryHash(code), expires_at });
  return { code, expires_at };
}

function recoveryHash(code: string): string {
  return hashSecret(normaliseTypableSecret(code));
}

/**
 * The owner's way back in when nothing else is left: device approval on and no device to
 * approve from, the password forgotten, the authenticator lost. Proof is being at the PC
 * (only someone who can run a command there, or use the desktop app's tray, gets a code), so
 * the code stands in for the password, the second factor and the approval at once.
 */
export class OwnerRecoveryService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly owner: OwnerService,
    private readonly sessions: SessionService,
  ) {}

  /** For the process that hosts the server (the tray menu); null before setup. */
  issue(): OwnerRecoveryCode | null {
    if (this.owner.owner() === undefined) return null;
    const made = makeOwnerRecoveryCode(this.deps.store.owner, this.deps.now());
    this.deps.log.info('a recovery code was made');
    return made;
  }

  /**
   * Sets the owner's new password and signs the owner in here, in a session that waits for
   * no approval; every other session of the owner ends (whoever held them knew the old
   * password, or holds a device the owner no longer trusts).
   */
  async recover(input: RecoverInput, client: ClientInfo): Promise<TokenResponse> {
    const { store, rateLimiter, passwords } = this.deps;
    checkPassword(input.new_password, 'new_password');
    checkDeviceInfo(input);
    const address = addressKey(client.ip);
    const hash = recoveryHash(input.code);
    const slowed = 'recover:owner';
    let expiresAt = 0;
    // A code that matches counts as no failure even when it expired: it was no guess.
    const right = await rateLimiter.guess({ limited: [`recover:ip:${address}`], slowed }, async () => {
      const stored = store.owner.recoveryCode();
      if (stored === undefined || !safeEqual(stored.hash, hash)) return false;
      expiresAt = stored.expires_at;
      return true;
    });
    if (!right) throw new AppError('invalid_recovery_code', undefined, { field: 'code' });
    if (expiresAt <= this.deps.now()) {
      store.owner.takeRecoveryCode(hash);
      throw new AppError('recovery_code_expired', undefined, { field: 'code' });
    }
    const owner = this.owner.owner();
    if (owner === undefined) throw new AppError('invalid_recovery_code', undefined, { field: 'code' });
    const passwordHash = await passwords.hash(input.new_password, address);
    // Used up and acted on in one transaction: of two requests with the same code, one wins.
    store.transaction(() => {
      if (!store.owner.takeRecoveryCode(hash)) throw new AppError('invalid_recovery_code', undefined, { field: 'code' });
      store.users.update(owner.id, { password_hash: passwordHash, must_change_password: false }, this.deps.now());
    });
    rateLimiter.reset(slowed);
    rateLimiter.reset(`login:acct:${usernameKey(owner.username)}`);
    // Told to the owner's other devices as what it is: their password changed (not an
    // owner's temporary password, which 'password_reset' announces).
    this.sessions.endAllOf(owner.id, 'password_changed');
    this.deps.log.info('the owner signed in with a recovery code; the other sessions ended');
    const fresh = store.users.byId(owner.id)!;
    return this.sessions.issueTokens(this.sessions.open(fresh, client, input, 'active'), fresh);
  }
}
