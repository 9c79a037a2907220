import { galleryFilterWhere, type GalleryFilter } from './gallery-search.ts';
import { SHOWN_BY_ALBUM_TO_USER } from './reach/album-reach.ts';
import { galleryArms, type GalleryScope } from './reach/gallery-arms.ts';
import { PARTNER_SHOWS } from './reach/partner-reach.ts';
import { COLUMNS } from './node-rows.ts';

export type SortField = 'name' | 'updated' | 'created' | 'size' | 'taken';

/** Column behind each sort, and the index that serves it (see migration 2). */
export const SORT_COLUMN: Record<SortField, 'sort_name' | 'updated_at' | 'created_at' | 'size' | 'taken_sort'> = {
  name: 'sort_name',
  updated: 'updated_at',
  created: 'created_at',
  size: 'size',
  taken: 'taken_sort',
};

/** Where a keyset page continues from: the last row's sort values. */
export interface Keyset {
  kind: number;
  value: string | number;
  id: string;
}

/** Which rows a listing considers. Sharing adds scopes; each maps to an index. */
export type ListScope =
  | { kind: 'children'; container: string }
  /** The account's top level blended with what was shared with it directly. */
  | { kind: 'root'; userId: string }
  | { kind: 'shared'; userId: string }
  | { kind: 'starred'; userId: string }
  | { kind: 'recent'; ownerId: string }
  /** Photos and videos: the account's own, or its family timeline (reach/gallery-arms.ts). */
  | { kind: 'gallery'; scope: GalleryScope }
  | { kind: 'search'; ownerId: string };

export interface ListQuery {
  scope: ListScope;
  /** Accent- and case-folded text the name must contain. */
  search: string | null;
  sort: SortField;
  desc: boolean;
  /** Folders above files (always for folder listings; flat views of files only skip it). */
  foldersFirst: boolean;
  after: Keyset | null;
  limit: number;
  viewerId: string;
  /** Only folders (0) or only files (1). */
  onlyKind?: 0 | 1;
  /** Only what was taken in [from, before) (ms): one month of the gallery. */
  taken?: { from: number; before: number };
  /** A search in the gallery: dates, places, cameras, names. */
  gallerySearch?: GalleryFilter;
}

/**
 * A listing page's SQL and its parameters: one query whose ORDER BY matches an index, continuing
 * after the last row's sort values (keyset). Its columns are listedRow's (node-rows.ts).
 */
export function listingQuery(q: ListQuery): { sql: string; params: Record<string, unknown> } {
  const column = SORT_COLUMN[q.sort];
  const dir = q.desc ? 'DESC' : 'ASC';
  const cmp = q.desc ? '<' : '>';
  const order = [...(q.foldersFirst ? ['n.kind_rank ASC'] : []), `n.${column} ${dir}`, `n.id ${dir}`].join(', ');
  const params: Record<string, unknown> = { viewer: q.viewerId, limit: q.limit };
  // Conditions besides the scope; `taken` is the column a gallery arm's index ranges over.
  const also = (taken: string): string => {
    const where: string[] = [];
    if (q.onlyKind !== undefined) {
      params.only_kind = q.onlyKind;
      where.push('n.kind_rank = @only_kind');
    }
    if (q.taken) {
      params.taken_from = q.taken.from;
      params.taken_before = q.taken.before;
      where.push(`${taken} >= @taken_from AND ${taken} < @taken_before`);
    }
    if (q.gallerySearch) where.push(galleryFilterWhere(q.gallerySearch, params));
    if (q.search !== null) {
      params.search = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push("n.search_name LIKE @search ESCAPE '\\'");
    }
    if (q.after) {
      params.after_kind = q.after.kind;
      params.after_value = q.after.value;
      params.after_id = q.after.id;
      const within = `(n.${column} ${cmp} @after_value OR (n.${column} = @after_value AND n.id ${cmp} @after_id))`;
      where.push(q.foldersFirst ? `(n.kind_rank > @after_kind OR (n.kind_rank = @after_kind AND ${within}))` : within);
    }
    return where.length > 0 ? where.join(' AND ') : '1';
  };
  // The column order is listedRow's.
  const select = (distinct: boolean) => `SELECT ${distinct ? 'DISTINCT ' : ''}${COLUMNS},
        EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @viewer) AS starred,
        n.owner_id != @viewer AS shared, n.${column} AS sort_value`;
  let sql: string;
  if (q.scope.kind !== 'gallery') {
    sql = `${select(false)} FROM nodes n WHERE ${scopeWhere(q.scope, params)} AND ${also('n.taken_sort')} ORDER BY ${order} LIMIT @limit`;
  } else {
    const arms = galleryArms(q.scope.scope, params);
    const pageOf = (arm: (typeof arms)[number]) => `${select(arm.distinct)} ${arm.rows(also(arm.taken))} ORDER BY ${order} LIMIT @limit`;
    // The family timeline: each arm's page (each one index range), merged. Arms never overlap.
    sql =
      arms.length === 1
        ? pageOf(arms[0]!)
        : `SELECT * FROM (${arms.map((arm) => `SELECT * FROM (${pageOf(arm)})`).join(' UNION ALL ')})
            ORDER BY sort_value ${dir}, id ${dir} LIMIT @limit`;
  }
  return { sql, params };
}

/** What a disabled account shared is suspended while it is disabled (see PermissionsRepo). */
const OWNER_ENABLED = 'n.owner_id NOT IN (SELECT id FROM users WHERE disabled = 1)';

function scopeWhere(scope: Exclude<ListScope, { kind: 'gallery' }>, params: Record<string, unknown>): string {
  switch (scope.kind) {
    case 'children':
      params.container = scope.container;
      return 'n.container = @container AND n.in_trash = 0';
    case 'root':
      params.container = `root:${scope.userId}`;
      params.scope_user = scope.userId;
      // The Private folder has a page of its own: My files never lists it.
      return `(n.container = @container OR (n.id IN (SELECT node_id FROM permissions WHERE user_id = @scope_user) AND ${OWNER_ENABLED}))
        AND n.in_trash = 0 AND n.in_private = 0`;
    case 'shared':
      params.scope_user = scope.userId;
      return `n.id IN (SELECT node_id FROM permissions WHERE user_id = @scope_user) AND ${OWNER_ENABLED} AND n.in_trash = 0 AND n.in_private = 0`;
    case 'starred':
      params.scope_user = scope.userId;
      params.user = scope.userId;
      // A bookmark on what the account can no longer open (moved out of a shared folder, taken
      // out of an album) is not listed; a favourite of a photo an album or a partner shows it is.
      return `n.id IN (SELECT node_id FROM stars WHERE user_id = @scope_user) AND n.in_trash = 0 AND n.in_private = 0
        AND (n.owner_id = @scope_user OR ${OWNER_ENABLED} AND EXISTS (WITH RECURSIVE up(id, parent_id) AS (
          SELECT n.id, n.parent_id UNION ALL SELECT p.id, p.parent_id FROM nodes p JOIN up ON p.id = up.parent_id)
          SELECT 1 FROM up JOIN permissions g ON g.node_id = up.id AND g.user_id = @scope_user)
          OR ${SHOWN_BY_ALBUM_TO_USER}
          OR (${OWNER_ENABLED} AND EXISTS (SELECT 1 FROM partner_shares ps WHERE ps.partner_id = @scope_user AND ${PARTNER_SHOWS})))`;
    case 'recent':
      params.owner = scope.ownerId;
      return "n.owner_id = @owner AND n.type = 'file' AND n.in_trash = 0 AND n.in_private = 0";
    case 'search':
      params.owner = scope.ownerId;
      return 'n.owner_id = @owner AND n.in_trash = 0 AND n.in_private = 0';
  }
}
