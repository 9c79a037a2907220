import type { AdminUser, Role, TemporaryPasswordResponse } from '../../contract/identity-responses.ts';
import type { Page } from '../../contract/page.ts';
import { AppError } from '../../app-error.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { toAdminUser } from './user-dto.ts';
import { quotaUsed } from './quota-usage.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { newTypableSecret } from '../common/secrets.ts';
import type { OwnerService } from './owner.ts';
import type { SessionService } from './sessions.ts';
import { checkPassword } from './passwords.ts';

export interface UserPatch {
  role?: Role | undefined;
  quota_bytes?: number | null | undefined;
  disabled?: boolean | undefined;
}

/** The owner's user management. */
export class AdminUserService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
    private readonly owners: OwnerService,
  ) {}

  list(actor: Actor, page: PageRequest): Page<AdminUser> {
    requireAdmin(actor);
    const mainOwner = this.owners.owner()?.id;
    return keysetPage(
      page,
      (after, limit) => this.deps.store.users.page(after, limit),
      (r) => r.id,
      (row) => toAdminUser(row, quotaUsed(this.deps.store, row), mainOwner),
    );
  }

  update(actor: Actor, userId: string, patch: UserPatch): AdminUser {
    requireAdmin(actor);
    const { store } = this.deps;
    const now = this.deps.now();
    const before = store.users.byId(userId);
    if (!before) throw new AppError('not_found');
    store.transaction(() => {
      store.users.update(userId, { role: patch.role, disabled: patch.disabled }, now);
      if (patch.quota_bytes !== undefined) store.users.update(userId, { quota_bytes: patch.quota_bytes }, now);
      // Checked after the change, inside the transaction: the server never ends up without an admin.
      if (store.users.activeAdminIds().length === 0) throw new AppError('last_admin');
      // Nor without the owner of this PC (the reason given only when the one above does not apply).
      this.owners.guard(actor, userId, patch);
    });
    const after = store.users.byId(userId)!;
    if (after.disabled && !before.disabled) this.sessions.endAllOf(userId, 'account_disabled');
    const used = quotaUsed(store, after);
    if (after.quota_bytes !== before.quota_bytes) {
      this.deps.bus.publish('quota.updated', { user_id: userId, used, limit: after.quota_bytes }, { users: [userId] });
    }
    return toAdminUser(after, used, this.owners.owner()?.id);
  }

  /**
   * Issues a temporary password: the account must choose its own at next sign-in, and every
   * device signed in with the old one is signed out.
   */
  async resetPassword(actor: Actor, userId: string, newPassword: string | undefined): Promise<TemporaryPasswordResponse> {
    requireAdmin(actor);
    const user = this.deps.store.users.byId(userId);
    if (!user) throw new AppError('not_found');
    this.owners.guard(actor, userId, { password: true });
    if (newPassword !== undefined) checkPassword(newPassword, 'new_password');
    const temporary = newPassword ?? newTypableSecret();
    const hash = await this.deps.passwords.hash(temporary);
    this.deps.store.users.update(userId, { password_hash: hash, must_change_password: true }, this.deps.now());
    this.sessions.endAllOf(userId, 'password_reset');
    return { temporary_password: temporary };
  }
}
