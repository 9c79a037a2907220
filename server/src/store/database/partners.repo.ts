import type { Db } from './db.ts';
import { PARTNER_SHOWS } from './reach/partner-reach.ts';

/** An account showing its photos and videos in another's Photos: all of them, or those taken from a day on. */
export interface PartnerShareRow {
  owner_id: string;
  partner_id: string;
  /** Taken on or after this (ms, taken_sort's clock: the day's midnight read as UTC); null: every one. */
  taken_from: number | null;
  created_at: number;
  updated_at: number;
}

/** What a disabled account shared is suspended while it is disabled (as PermissionsRepo does for grants). */
const OWNER_ENABLED = 'ps.owner_id NOT IN (SELECT id FROM users WHERE disabled = 1)';

/** Partner shares: SQL only; the rules are PartnerService's and the timeline's (gallery.repo). */
export class PartnersRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      upsert: db.prepare(`INSERT INTO partner_shares (owner_id, partner_id, taken_from, created_at, updated_at)
        VALUES (@owner_id, @partner_id, @taken_from, @at, @at)
        ON CONFLICT (owner_id, partner_id) DO UPDATE SET taken_from = excluded.taken_from, updated_at = excluded.updated_at`),
      get: db.prepare('SELECT * FROM partner_shares WHERE owner_id = ? AND partner_id = ?'),
      remove: db.prepare('DELETE FROM partner_shares WHERE owner_id = ? AND partner_id = ?'),
      // Both directions: what the account gives and what it receives, its own first.
      involving: db.prepare(`SELECT * FROM partner_shares WHERE owner_id = @user
        UNION ALL SELECT * FROM partner_shares WHERE partner_id = @user ORDER BY created_at, owner_id, partner_id`),
      received: db.prepare(`SELECT ps.* FROM partner_shares ps WHERE ps.partner_id = ? AND ${OWNER_ENABLED}`),
      // One primary-key probe for the node, one per share of its owner (a family has a few).
      shows: db.prepare(`SELECT 1 FROM nodes n JOIN partner_shares ps ON ps.owner_id = n.owner_id AND ps.partner_id = @user
        WHERE n.id = @node AND n.in_trash = 0 AND ${PARTNER_SHOWS} AND ${OWNER_ENABLED}`),
      // Who sees the node as a partner, in the trash or not: who hears of a trashed photo is who saw it.
      viewersOf: db.prepare(`SELECT ps.partner_id FROM nodes n JOIN partner_shares ps ON ps.owner_id = n.owner_id
        WHERE n.id = @node AND ${PARTNER_SHOWS} AND ${OWNER_ENABLED}`),
    };
  }

  /** Starts sharing, or changes from when. */
  upsert(row: { owner_id: string; partner_id: string; taken_from: number | null }, at: number): void {
    this.stmts.upsert.run({ ...row, at });
  }

  get(ownerId: string, partnerId: string): PartnerShareRow | undefined {
    return this.stmts.get.get(ownerId, partnerId) as PartnerShareRow | undefined;
  }

  remove(ownerId: string, partnerId: string): boolean {
    return Number(this.stmts.remove.run(ownerId, partnerId).changes) === 1;
  }

  /** The shares the account gives and receives (a disabled owner's included: the list says so). */
  involving(userId: string): PartnerShareRow[] {
    return this.stmts.involving.all({ user: userId }) as PartnerShareRow[];
  }

  /** The shares whose photos the account sees now (their owners enabled). */
  received(userId: string): PartnerShareRow[] {
    return this.stmts.received.all(userId) as PartnerShareRow[];
  }

  /** Whether the account sees the node through a partner share. */
  shows(nodeId: string, userId: string): boolean {
    return this.stmts.shows.get({ node: nodeId, user: userId }) !== undefined;
  }

  /** The accounts that see the node through a partner share. */
  viewersOf(nodeId: string): string[] {
    return (this.stmts.viewersOf.all({ node: nodeId }) as { partner_id: string }[]).map((r) => r.partner_id);
  }
}
