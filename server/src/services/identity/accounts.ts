import type { Me, PhoneStart, PublicUser } from '../../contract/identity-responses.ts';
import type { Page } from '../../contract/page.ts';
import { AppError } from '../../app-error.ts';
import type { UserRow } from '../../store/database/users.repo.ts';
import type { Actor, ClientInfo, ServiceDeps } from '../common/context.ts';
import { toMe, toPublicUser } from './user-dto.ts';
import { quotaUsed } from './quota-usage.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { addressKey, type GuessBuckets } from '../common/rate-limiter.ts';
import { checkNamesFree, cleanDisplayName } from './account-names.ts';
import type { SessionService } from './sessions.ts';
import { checkPassword } from './passwords.ts';

/** What an account does to itself: read its profile, rename, change its password. */
export class AccountService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
  ) {}

  me(actor: Actor): Me {
    const user = this.user(actor);
    return toMe(user, quotaUsed(this.deps.store, user));
  }

  updateProfile(actor: Actor, input: { display_name?: string | null | undefined }): Me {
    const user = this.user(actor);
    if (input.display_name !== undefined) {
      const displayName = cleanDisplayName(input.display_name);
      const { store } = this.deps;
      // Check and write in one transaction: two accounts cannot take the same name at once.
      store.transaction(() => {
        checkNamesFree(store.users.names(), { selfId: user.id, displayName });
        store.users.update(user.id, { display_name: displayName }, this.deps.now());
      });
    }
    return this.me(actor);
  }

  /** Where the app opens on the person's phones. */
  updatePreferences(actor: Actor, input: { phone_start?: PhoneStart | undefined }): Me {
    const user = this.user(actor);
    if (input.phone_start !== undefined) this.deps.store.users.update(user.id, { phone_start: input.phone_start }, this.deps.now());
    return this.me(actor);
  }

  /**
   * Changing the password clears a temporary one and signs out every other device: whoever
   * knew the old password keeps no session.
   */
  async changePassword(actor: Actor, input: { current_password: string; new_password: string }, client: ClientInfo): Promise<void> {
    const user = this.user(actor);
    checkPassword(input.new_password, 'new_password');
    const address = addressKey(client.ip);
    const buckets = passwordCheckBuckets(user.id, address);
    const right = await this.deps.rateLimiter.guess(buckets, (signal) =>
      this.deps.passwords.verify(input.current_password, this.user(actor).password_hash, address, signal),
    );
    if (!right) throw new AppError('wrong_password', undefined, { field: 'current_password' });
    const hash = await this.deps.passwords.hash(input.new_password, address);
    this.deps.store.users.update(user.id, { password_hash: hash, must_change_password: false }, this.deps.now());
    this.deps.rateLimiter.reset(buckets.slowed);
    this.sessions.endAllOf(user.id, 'password_changed', actor.sessionId);
  }

  /** The people picker: names and avatars of enabled accounts, nothing more. */
  directory(_actor: Actor, query: string | undefined, page: PageRequest): Page<PublicUser> {
    const q = query?.trim() || null;
    return keysetPage(
      page,
      (after, limit) => this.deps.store.users.directoryPage(q, after, limit),
      (row) => row.id,
      toPublicUser,
    );
  }

  private user(actor: Actor): UserRow {
    const user = this.deps.store.users.byId(actor.userId);
    if (!user) throw new AppError('invalid_token');
    return user;
  }
}

/**
 * Buckets for checking a signed-in account's own password (password change, turning 2FA
 * off): the address is refused after the limit, the account only slowed.
 */
export function passwordCheckBuckets(userId: string, address: string): GuessBuckets & { slowed: string } {
  return { limited: [`password:ip:${address}`], slowed: `password:acct:${userId}` };
}
