import type { Db, Statement } from './db.ts';
import { galleryFilterWhere, type GalleryFilter } from './gallery-search.ts';
import { galleryArms, type FamilyReach, type GalleryScope } from './reach/gallery-arms.ts';

/** What a disabled account shared is suspended while it is disabled (see PermissionsRepo). */
const OWNER_ENABLED = 'n.owner_id NOT IN (SELECT id FROM users WHERE disabled = 1)';

/**
 * Counts over an account's gallery by taken time, each one range of an index. A GROUP BY month
 * over the whole gallery sorts every row into a temp b-tree: 25-90 ms for 50,000 photos here;
 * walking month by month from the newest, as GalleryService does, counts the same 50,000 in
 * about 3.5 ms. With a search the same walk visits only the months that hold a match. The
 * family timeline walks each arm alone (galleryArms) and adds the months up: an arm costs its
 * own months' steps, and one that reaches only a few months (an album) costs only those.
 */
export class GalleryRepo {
  private readonly statements = new Map<string, Statement>();
  private readonly reach;

  constructor(private readonly db: Db) {
    this.reach = {
      // Granted folders and every folder below them, on the folders-first listing index; a
      // disabled owner's grants are suspended, and a folder in the trash takes its tree with it.
      folders: db.prepare(`WITH RECURSIVE down(id, owner_id) AS (
          SELECT n.id, n.owner_id FROM permissions p JOIN nodes n ON n.id = p.node_id
            WHERE p.user_id = @user AND n.type = 'folder' AND n.in_trash = 0 AND ${OWNER_ENABLED}
          UNION SELECT c.id, c.owner_id FROM down JOIN nodes c ON c.container = down.id AND c.in_trash = 0 AND c.kind_rank = 0)
        SELECT id, owner_id FROM down`),
      files: db.prepare(`SELECT n.id FROM permissions p JOIN nodes n ON n.id = p.node_id
        WHERE p.user_id = @user AND n.type = 'file' AND n.is_media = 1 AND n.in_trash = 0 AND ${OWNER_ENABLED}`),
      albums: db.prepare(`SELECT a.id FROM albums a WHERE a.owner_id = @user
        UNION SELECT m.album_id FROM album_members m JOIN albums a ON a.id = m.album_id
          WHERE m.user_id = @user AND a.owner_id NOT IN (SELECT id FROM users WHERE disabled = 1)`),
      partners: db.prepare(`SELECT ps.owner_id, ps.taken_from FROM partner_shares ps
        WHERE ps.partner_id = @user AND ps.owner_id NOT IN (SELECT id FROM users WHERE disabled = 1) ORDER BY ps.owner_id`),
    };
  }

  /** A timeline's scope: the account's own photos, or (`family`) with everything shared with it. */
  scope(userId: string, family: boolean): GalleryScope {
    return { userId, family: family ? this.reachOf(userId) : null };
  }

  /** What others share with the account, as the family timeline reaches it. */
  reachOf(userId: string): FamilyReach {
    const partners = this.reach.partners.all({ user: userId }) as { owner_id: string; taken_from: number | null }[];
    return {
      partners: partners.map((p) => ({ ownerId: p.owner_id, takenFrom: p.taken_from === null ? null : Number(p.taken_from) })),
      folders: (this.reach.folders.all({ user: userId }) as { id: string; owner_id: string }[]).map((r) => ({
        id: r.id,
        ownerId: r.owner_id,
      })),
      files: (this.reach.files.all({ user: userId }) as { id: string }[]).map((r) => r.id),
      albums: (this.reach.albums.all({ user: userId }) as { id: string }[]).map((r) => r.id),
    };
  }

  /** How many arms the scope has: 1 for an account's own photos. */
  armCount(scope: GalleryScope): number {
    return galleryArms(scope, {}).length;
  }

  /** The taken time (ms) of the newest item of arm `arm` taken before `before`, or null when there is none. */
  newestTakenBefore(scope: GalleryScope, arm: number, before: number, filter: GalleryFilter | null = null): number | null {
    const params: Record<string, unknown> = { before };
    const chosen = galleryArms(scope, params)[arm]!;
    const row = this.statement(`SELECT ${chosen.newest(this.also(`${chosen.taken} < @before`, filter, params))}`).get(params) as
      unknown[] | undefined;
    return numberOrNull(row?.[0]);
  }

  /** How many items of arm `arm`, and how many of them videos, were taken in [from, before). */
  countTaken(
    scope: GalleryScope,
    arm: number,
    from: number,
    before: number,
    filter: GalleryFilter | null = null,
  ): { items: number; videos: number } {
    const params: Record<string, unknown> = { from, before };
    const chosen = galleryArms(scope, params)[arm]!;
    const range = `${chosen.taken} >= @from AND ${chosen.taken} < @before`;
    let sql: string;
    if (arm === 0) {
      // The account's own: each count on its index, the videos written as nodes_gallery_videos' condition.
      sql = `SELECT (SELECT count(*) ${chosen.rows(this.also(range, filter, params))}),
        (SELECT count(*) ${chosen.rows(this.also(`n.mime_type LIKE 'video/%' AND ${range}`, filter, params))})`;
    } else {
      // Both counts in one read of the arm's rows; count(*) and the mime type, on its index alone
      // where the index holds them (a folder's, a partner's: never the id, which they do not).
      const counts = chosen.distinct
        ? "count(DISTINCT n.id), count(DISTINCT CASE WHEN n.mime_type LIKE 'video/%' THEN n.id END)"
        : "count(*), total(n.mime_type LIKE 'video/%')";
      sql = `SELECT ${counts} ${chosen.rows(this.also(range, filter, params))}`;
    }
    const row = this.statement(sql).get(params) as unknown[];
    return { items: numberOrNull(row[0]) ?? 0, videos: numberOrNull(row[1]) ?? 0 };
  }

  private also(condition: string, filter: GalleryFilter | null, params: Record<string, unknown>): string {
    return filter ? `${condition} AND ${galleryFilterWhere(filter, params)}` : condition;
  }

  /**
   * Prepared once per shape (the arms present, how many partners, the search's words): a few
   * dozen at most; the cap only guards against a mistake that varies SQL.
   */
  private statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      if (this.statements.size >= 256) this.statements.clear();
      statement = this.db.prepareRaw(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/** A one-row aggregate's value as a number (node:sqlite may answer a bigint). */
function numberOrNull(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
