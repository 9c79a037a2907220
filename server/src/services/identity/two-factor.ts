import { AppError } from '../../app-error.ts';
import type { RecoveryCodesResponse, TotpBeginResponse } from '../../contract/identity-responses.ts';
import type { UserRow } from '../../store/database/users.repo.ts';
import type { Actor, ClientInfo, ServiceDeps } from '../common/context.ts';
import { hashSecret, newTypableSecret, normaliseTypableSecret } from '../common/secrets.ts';
import { matchTotpStep, newTotpSecret, otpauthUrl } from './totp.ts';
import { passwordCheckBuckets } from './accounts.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { SecretBox } from '../common/secret-box.ts';
import type { SettingsService } from '../server/settings.ts';

const RECOVERY_CODE_COUNT = 10;

/**
 * TOTP enrollment, sign-in codes and single-use recovery codes. TOTP secrets are stored
 * sealed (see SecretBox): a copy of the database alone cannot generate anyone's codes.
 */
export class TwoFactorService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: SettingsService,
    private readonly box: SecretBox,
  ) {}

  /**
   * Seals the secrets a version before this one stored in clear; runs at startup, before the
   * server answers. Returns how many accounts it sealed.
   */
  sealStoredSecrets(): number {
    const { store } = this.deps;
    return store.transaction(() => {
      let sealed = 0;
      for (const row of store.users.totpSecrets()) {
        const fields: Partial<Pick<UserRow, 'totp_secret' | 'totp_pending_secret'>> = {};
        if (row.totp_secret !== null && !SecretBox.isSealed(row.totp_secret)) fields.totp_secret = this.seal(row.id, row.totp_secret);
        if (row.totp_pending_secret !== null && !SecretBox.isSealed(row.totp_pending_secret)) {
          fields.totp_pending_secret = this.seal(row.id, row.totp_pending_secret);
        }
        if (Object.keys(fields).length === 0) continue;
        store.users.update(row.id, fields, this.deps.now());
        sealed++;
      }
      return sealed;
    });
  }

  /** Starts (or restarts) enrollment: the secret only counts once a code confirms it. */
  begin(actor: Actor): TotpBeginResponse {
    const user = this.user(actor);
    if (user.totp_secret !== null) throw new AppError('totp_already_enabled');
    const secret = newTotpSecret();
    this.deps.store.users.update(user.id, { totp_pending_secret: this.seal(user.id, secret) }, this.deps.now());
    return { secret, otpauth_url: otpauthUrl(secret, user.username, this.settings.current().server_name) };
  }

  /** Confirms enrollment with a code and hands out the recovery codes, once. */
  verify(actor: Actor, code: string, client: ClientInfo): RecoveryCodesResponse {
    const user = this.user(actor);
    if (user.totp_secret !== null) throw new AppError('totp_already_enabled');
    if (user.totp_pending_secret === null) throw new AppError('totp_not_started');
    const buckets = this.buckets(user, client);
    this.deps.rateLimiter.check(buckets);
    const step = this.match(user, user.totp_pending_secret, code.trim());
    if (step === null) {
      this.deps.rateLimiter.fail(buckets);
      throw new AppError('invalid_totp_code', undefined, { field: 'code' });
    }
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newTypableSecret);
    this.deps.store.transaction(() => {
      this.deps.store.users.update(
        user.id,
        { totp_secret: user.totp_pending_secret, totp_pending_secret: null, totp_last_step: step },
        this.deps.now(),
      );
      this.deps.store.recoveryCodes.replaceAll(
        user.id,
        codes.map((c) => hashSecret(normaliseTypableSecret(c))),
      );
    });
    return { recovery_codes: codes };
  }

  async disable(actor: Actor, password: string, client: ClientInfo): Promise<void> {
    const user = this.user(actor);
    if (user.totp_secret === null) throw new AppError('totp_not_enabled');
    const address = addressKey(client.ip);
    const buckets = passwordCheckBuckets(user.id, address);
    const right = await this.deps.rateLimiter.guess(buckets, (signal) =>
      this.deps.passwords.verify(password, this.user(actor).password_hash, address, signal),
    );
    if (!right) throw new AppError('wrong_password', undefined, { field: 'password' });
    this.deps.rateLimiter.reset(buckets.slowed);
    this.deps.store.transaction(() => {
      this.deps.store.users.update(user.id, { totp_secret: null, totp_pending_secret: null, totp_last_step: null }, this.deps.now());
      this.deps.store.recoveryCodes.deleteAll(user.id);
    });
  }

  /**
   * The second factor at sign-in: an authenticator code not used before (its step must be
   * newer than the last accepted one, so a code seen over a shoulder is already spent), or
   * an unused recovery code, which is consumed.
   */
  checkSignInCode(user: UserRow, code: string | undefined, client: ClientInfo): void {
    if (code === undefined || code.trim() === '') throw new AppError('totp_required');
    const buckets = this.buckets(user, client);
    this.deps.rateLimiter.check(buckets);
    if (!this.consumeCode(user, code.trim())) {
      this.deps.rateLimiter.fail(buckets);
      throw new AppError('totp_required', 'That code is not right. Enter a current code or a recovery code.', {
        field: 'totp_code',
      });
    }
    this.deps.rateLimiter.reset(buckets[0]!);
  }

  private consumeCode(user: UserRow, code: string): boolean {
    const now = this.deps.now();
    const { store } = this.deps;
    if (/^\d{6}$/.test(code)) {
      const step = this.match(user, user.totp_secret!, code);
      if (step === null) return false;
      return store.transaction(() => {
        const fresh = store.users.byId(user.id)!;
        if (fresh.totp_last_step !== null && step <= fresh.totp_last_step) return false;
        store.users.update(user.id, { totp_last_step: step }, now);
        return true;
      });
    }
    return store.recoveryCodes.consume(user.id, hashSecret(normaliseTypableSecret(code)), now);
  }

  /** The step a code matches under a sealed secret; a secret that does not open matches nothing. */
  private match(user: UserRow, sealed: string, code: string): number | null {
    const secret = this.box.open(sealed, secretContext(user.id));
    if (secret === null) {
      // keys.json was replaced or the row was tampered with: recovery codes still work.
      this.deps.log.error("a TOTP secret does not open with this server's key", { user_id: user.id });
      return null;
    }
    return matchTotpStep(secret, code, this.deps.now());
  }

  private seal(userId: string, secret: string): string {
    return this.box.seal(secret, secretContext(userId));
  }

  private buckets(user: UserRow, client: ClientInfo): [string, string] {
    return [`totp:acct:${user.id}`, `totp:ip:${addressKey(client.ip)}`];
  }

  private user(actor: Actor): UserRow {
    const user = this.deps.store.users.byId(actor.userId);
    if (!user) throw new AppError('invalid_token');
    return user;
  }
}

/** Binds a sealed secret to its account: copied onto another row, it does not open. */
function secretContext(userId: string): string {
  return `totp:${userId}`;
}
