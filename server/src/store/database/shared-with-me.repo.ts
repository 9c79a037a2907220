import type { Db } from './db.ts';
import { DISABLED } from './reach/album-reach.ts';

export type SharedWayKind = 'grant' | 'album' | 'partner';

/** One way something reaches an account: a grant on a node, an album it is in, or a partner's photos. */
export interface SharedWayRow {
  kind: SharedWayKind;
  /** The node, the album, or (partner) the account whose photos these are. */
  id: string;
  by_id: string;
  role: string;
  shared_at: number;
  /** Partner only: the first day shown (taken_sort's clock), or null for all of them. */
  taken_from: number | null;
}

/** Where a page ends: the shared time and a key that orders rows of the same moment. */
export interface SharedWayKeyset {
  at: number;
  key: string;
}

/**
 * Everything shared with an account, in one order: grants on files and folders, albums it is a
 * member of (someone else's), and partners whose photos it sees, newest first by when each was
 * shared with it. What a disabled account shared is suspended while it is disabled, as each way
 * is elsewhere; a node in the trash opens nothing, so it is not listed.
 */
export class SharedWithMeRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      page: db.prepare(`SELECT * FROM (
          SELECT 'grant' AS kind, p.node_id AS id, p.granted_by AS by_id, p.role AS role, p.created_at AS shared_at,
            NULL AS taken_from, 'g:' || p.node_id AS sort_key
          FROM permissions p JOIN nodes n ON n.id = p.node_id
          WHERE p.user_id = @user AND n.in_trash = 0 AND n.owner_id NOT IN (${DISABLED})
          UNION ALL
          SELECT 'album', m.album_id, a.owner_id, m.role, m.created_at, NULL, 'a:' || m.album_id
          FROM album_members m JOIN albums a ON a.id = m.album_id
          WHERE m.user_id = @user AND a.owner_id != @user AND a.owner_id NOT IN (${DISABLED})
          UNION ALL
          SELECT 'partner', ps.owner_id, ps.owner_id, 'viewer', ps.created_at, ps.taken_from, 'p:' || ps.owner_id
          FROM partner_shares ps WHERE ps.partner_id = @user AND ps.owner_id NOT IN (${DISABLED}))
        WHERE @after_at IS NULL OR shared_at < @after_at OR (shared_at = @after_at AND sort_key < @after_key)
        ORDER BY shared_at DESC, sort_key DESC LIMIT @limit`),
    };
  }

  /** A page of the ways, newest first, after `after` when given. */
  page(userId: string, after: SharedWayKeyset | null, limit: number): (SharedWayRow & { sort_key: string })[] {
    return this.stmts.page.all({ user: userId, after_at: after?.at ?? null, after_key: after?.key ?? null, limit }) as (SharedWayRow & {
      sort_key: string;
    })[];
  }
}
