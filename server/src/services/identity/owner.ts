import { AppError } from '../../app-error.ts';
import type { UserRow } from '../../store/database/users.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/**
 * The owner of this PC's Hearth: the account that first-run setup made, recorded then. The
 * desktop window signs in as it, a recovery code made at the PC resets its password, and no
 * other admin can switch it off, make it a member or hand it a temporary password (any of
 * which would let a co-admin lock the PC's owner out, or take the account over).
 */
export class OwnerService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * The owner's account, or undefined before setup. A database from before owners were
   * recorded gets the oldest admin still enabled (ids are time-ordered: the first admin made
   * is the one setup made, unless it was switched off since), and that choice is recorded so
   * it never moves to another account later.
   */
  owner(): UserRow | undefined {
    const { store } = this.deps;
    const recorded = store.owner.ownerId();
    if (recorded !== undefined) return store.users.byId(recorded);
    return store.transaction(() => {
      const again = store.owner.ownerId();
      if (again !== undefined) return store.users.byId(again);
      const oldest = store.users.activeAdminIds().sort()[0];
      if (oldest === undefined) return undefined;
      store.owner.recordOwner(oldest);
      return store.users.byId(oldest);
    });
  }

  isOwner(userId: string): boolean {
    return this.owner()?.id === userId;
  }

  /** Refuses what another admin may do to others but not to the owner. */
  guard(actor: Actor, userId: string, change: { role?: string | undefined; disabled?: boolean | undefined; password?: boolean }): void {
    if (!this.isOwner(userId)) return;
    const demoted = change.role !== undefined && change.role !== 'admin';
    const reset = change.password === true && actor.userId !== userId;
    if (demoted || change.disabled === true || reset) throw new AppError('owner_account');
  }
}
