import type { EventType } from '../../contract/events.ts';
import type { PartnerShare } from '../../contract/partners-responses.ts';
import { AppError } from '../../app-error.ts';
import type { PartnerShareRow } from '../../store/database/partners.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { toPublicUser } from '../identity/user-dto.ts';

/** A folder's changes that change at once what a partner share shows: its photos went to the trash, came back, or went for good. */
const FOLDER_CHANGES: ReadonlySet<EventType> = new Set(['node.deleted', 'node.restored']);

/**
 * Partner sharing: an account shows all its photos and videos, or those taken from a day on, in
 * another account's Photos (Everyone's), as both parents do for each other. The partner looks,
 * read only (AccessService), and sees them once the server has read when each was taken
 * (PartnersRepo's PARTNER_SHOWS); nothing else of the owner's (no folders, no documents). Only
 * the owner starts, changes or stops it, and it takes effect at the next request: the partner's
 * open timeline hears of it at once.
 */
export class PartnerService {
  constructor(private readonly deps: ServiceDeps) {
    // A folder of the owner's trashed or restored takes many photos out of (or back into) the
    // partner's timeline. The partner hears that something changed, never the folder itself:
    // its name is not among what was shared.
    deps.bus.subscribe(({ message }) => {
      if (!FOLDER_CHANGES.has(message.type)) return;
      const node = (message.payload as { node?: { type?: unknown; owner_id?: unknown } }).node;
      if (node?.type !== 'folder' || typeof node.owner_id !== 'string') return;
      const owner = deps.store.users.byId(node.owner_id);
      if (!owner || owner.disabled) return;
      for (const share of deps.store.partners.involving(owner.id)) {
        if (share.owner_id === owner.id) this.announce(share);
      }
    });
  }

  /** The shares the account gives (its own photos) and receives, first started first. */
  list(actor: Actor): PartnerShare[] {
    return this.deps.store.partners.involving(actor.userId).map((row) => this.toShare(row));
  }

  /** Shares the caller's photos with a family member from a day on (`since`, or all of them), or changes the day. */
  share(actor: Actor, input: { user_id: string; since?: string | null | undefined }): PartnerShare {
    if (input.user_id === actor.userId) throw new AppError('cannot_share_with_self', undefined, { field: 'user_id' });
    const partner = this.deps.store.users.byId(input.user_id);
    if (!partner || partner.disabled) throw new AppError('unknown_user', undefined, { field: 'user_id' });
    const takenFrom = input.since === undefined || input.since === null ? null : dayStart(input.since);
    this.deps.store.partners.upsert({ owner_id: actor.userId, partner_id: partner.id, taken_from: takenFrom }, this.deps.now());
    const row = this.deps.store.partners.get(actor.userId, partner.id)!;
    this.announce(row);
    return this.toShare(row);
  }

  /** The owner stops sharing with `partnerId`: their timeline loses the photos at once. */
  stop(actor: Actor, partnerId: string): void {
    if (!this.deps.store.partners.remove(actor.userId, partnerId)) throw new AppError('not_found');
    const payload = { owner_id: actor.userId, partner_id: partnerId };
    this.deps.bus.publish('partner_share.deleted', { ...payload, access_lost: true }, { users: [partnerId] });
    this.deps.bus.publish('partner_share.deleted', payload, { users: [actor.userId] });
  }

  private announce(row: Pick<PartnerShareRow, 'owner_id' | 'partner_id'>): void {
    this.deps.bus.publish(
      'partner_share.changed',
      { owner_id: row.owner_id, partner_id: row.partner_id },
      { users: [row.owner_id, row.partner_id] },
    );
  }

  private toShare(row: PartnerShareRow): PartnerShare {
    const person = (id: string) => {
      const user = this.deps.store.users.byId(id);
      return user ? toPublicUser(user) : { id, name: 'Someone', avatar_seed: '' };
    };
    return {
      owner: person(row.owner_id),
      partner: person(row.partner_id),
      since: row.taken_from === null ? null : new Date(Number(row.taken_from)).toISOString().slice(0, 10),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

/** The first moment of a day (YYYY-MM-DD) on taken_sort's clock (the wall clock where a photo was taken, read as UTC); 400 for a day that is none. */
function dayStart(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, date);
  if (year < 1 || at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== date) {
    throw new AppError('invalid_input', 'since is a day that exists, as YYYY-MM-DD.', { field: 'since' });
  }
  return at.getTime();
}
