import type { Db, Statement } from './db.ts';
import type { MediaFacts } from './media.repo.ts';
import type { NodeColor, NodeType } from '../../contract/files-responses.ts';
import { galleryFilterWhere, type GalleryFilter } from './gallery-search.ts';
import { SHOWN_BY_ALBUM_TO_USER } from './reach/album-reach.ts';
import { PARTNER_SHOWS } from './partners.repo.ts';
import { galleryArms, type GalleryScope } from './gallery.repo.ts';

type NodeDetails = Pick<
  MediaFacts,
  | 'taken_offset'
  | 'duration_ms'
  | 'latitude'
  | 'longitude'
  | 'place_town'
  | 'place_country'
  | 'camera_make'
  | 'camera_model'
  | 'lens'
  | 'f_number'
  | 'exposure_time'
  | 'iso'
  | 'focal_length'
>;

/** A node as listed; its media details are the columns MediaFacts names (media.repo). */
export interface NodeRow extends NodeDetails {
  id: string;
  owner_id: string;
  parent_id: string | null;
  type: NodeType;
  name: string;
  size: number;
  mime_type: string | null;
  color: NodeColor | null;
  version: number;
  created_by: string;
  created_at: number;
  updated_at: number;
  trashed_at: number | null;
  in_trash: number;
  is_media: number;
  image_width: number | null;
  image_height: number | null;
  taken_at: number | null;
  taken_sort: number;
  has_thumbnail: number;
  /** Per caller: whether the reading account starred it. */
  starred: number;
  /** Per caller: whether it belongs to someone else (shared with the reader). */
  shared: number;
}

export interface NewNode {
  id: string;
  owner_id: string;
  parent_id: string | null;
  type: NodeType;
  name: string;
  name_key: string;
  sort_name: string;
  search_name: string;
  size: number;
  mime_type: string | null;
  version: number;
  created_by: string;
  created_at: number;
  is_media: number;
}

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
  /** Photos and videos: the account's own, or its family timeline (gallery.repo's arms). */
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

export const COLUMNS = `n.id, n.owner_id, n.parent_id, n.type, n.name, n.size, n.mime_type, n.color, n.version,
  n.created_by, n.created_at, n.updated_at, n.trashed_at, n.in_trash, n.is_media, n.image_width, n.image_height,
  n.taken_at, n.taken_sort, n.has_thumbnail, n.taken_offset, n.duration_ms, n.latitude, n.longitude, n.place_town,
  n.place_country, n.camera_make, n.camera_model, n.lens, n.f_number, n.exposure_time, n.iso, n.focal_length`;

/** A listed node, with the value it was sorted on (what a page's cursor continues from). */
export interface ListedNodeRow extends NodeRow {
  sort_value: string | number;
}

/**
 * A listing row from the raw array of `list`'s SELECT (COLUMNS, then starred, shared,
 * sort_value), by position. better-sqlite3 builds a row object through V8's API one property
 * at a time; one object literal (a single hidden class) costs half as much, measured on a
 * 100-row page: 1.7-1.9 ms of the query's time down to 0.8-1.0 ms.
 */
function listedRow(r: unknown[]): ListedNodeRow {
  return {
    id: r[0] as string,
    owner_id: r[1] as string,
    parent_id: r[2] as string | null,
    type: r[3] as NodeType,
    name: r[4] as string,
    size: r[5] as number,
    mime_type: r[6] as string | null,
    color: r[7] as NodeColor | null,
    version: r[8] as number,
    created_by: r[9] as string,
    created_at: r[10] as number,
    updated_at: r[11] as number,
    trashed_at: r[12] as number | null,
    in_trash: r[13] as number,
    is_media: r[14] as number,
    image_width: r[15] as number | null,
    image_height: r[16] as number | null,
    taken_at: r[17] as number | null,
    taken_sort: r[18] as number,
    has_thumbnail: r[19] as number,
    taken_offset: r[20] as number | null,
    duration_ms: r[21] as number | null,
    latitude: r[22] as number | null,
    longitude: r[23] as number | null,
    place_town: r[24] as string | null,
    place_country: r[25] as string | null,
    camera_make: r[26] as string | null,
    camera_model: r[27] as string | null,
    lens: r[28] as string | null,
    f_number: r[29] as number | null,
    exposure_time: r[30] as number | null,
    iso: r[31] as number | null,
    focal_length: r[32] as number | null,
    starred: r[33] as number,
    shared: r[34] as number,
    sort_value: r[35] as string | number,
  };
}

export class NodesRepo {
  private readonly stmts;
  private readonly listStatements = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    this.stmts = {
      byId: db.prepare(`SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @viewer) AS starred,
        n.owner_id != @viewer AS shared
        FROM nodes n WHERE n.id = @id`),
      insert: db.prepare(`INSERT INTO nodes (id, owner_id, parent_id, type, name, name_key, sort_name, search_name, size,
          mime_type, version, created_by, created_at, updated_at, taken_sort, is_media)
        VALUES (@id, @owner_id, @parent_id, @type, @name, @name_key, @sort_name, @search_name, @size,
          @mime_type, @version, @created_by, @created_at, @created_at, @created_at, @is_media)`),
      activeSibling: db.prepare('SELECT id FROM nodes WHERE container = @container AND name_key = @name_key AND in_trash = 0'),
      siblingKeysLike: db.prepare(
        "SELECT name_key FROM nodes WHERE container = @container AND in_trash = 0 AND name_key LIKE @pattern ESCAPE '\\'",
      ),
      ancestors: db.prepare(`WITH RECURSIVE up(id, parent_id, depth) AS (
          SELECT id, parent_id, 0 FROM nodes WHERE id = @id
          UNION ALL SELECT n.id, n.parent_id, up.depth + 1 FROM nodes n JOIN up ON n.id = up.parent_id)
        SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @viewer) AS starred,
        n.owner_id != @viewer AS shared
        FROM up JOIN nodes n ON n.id = up.id ORDER BY up.depth DESC`),
      isDescendant: db.prepare(`WITH RECURSIVE up(id, parent_id) AS (
          SELECT id, parent_id FROM nodes WHERE id = @start
          UNION ALL SELECT n.id, n.parent_id FROM nodes n JOIN up ON n.id = up.parent_id)
        SELECT 1 FROM up WHERE id = @ancestor LIMIT 1`),
      subtreeIds: db.prepare(`WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE id = @id
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id)
        SELECT id FROM down`),
      markTrashed: db.prepare(`WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE id = @id
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id WHERE n.trashed_at IS NULL)
        UPDATE nodes SET in_trash = 1 WHERE id IN (SELECT id FROM down)`),
      // Restoring stops at descendants trashed on their own: they stay in the trash.
      markRestored: db.prepare(`WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE id = @id
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id WHERE n.trashed_at IS NULL)
        UPDATE nodes SET in_trash = 0 WHERE id IN (SELECT id FROM down)`),
      setTrashedAt: db.prepare('UPDATE nodes SET trashed_at = @at WHERE id = @id'),
      star: db.prepare('INSERT INTO stars (user_id, node_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING'),
      unstar: db.prepare('DELETE FROM stars WHERE user_id = ? AND node_id = ?'),
      remove: db.prepare('DELETE FROM nodes WHERE id = ?'),
      anyFile: db.prepare("SELECT 1 FROM nodes WHERE type = 'file' LIMIT 1"),
      expiredTrash: db.prepare('SELECT id FROM nodes WHERE trashed_at IS NOT NULL AND trashed_at < ? LIMIT 500'),
    };
  }

  /** Whether anyone has stored a file yet (in the trash or not). */
  hasAnyFile(): boolean {
    return this.stmts.anyFile.get() !== undefined;
  }

  byId(id: string, viewerId: string): NodeRow | undefined {
    return this.stmts.byId.get({ id, viewer: viewerId }) as NodeRow | undefined;
  }

  insert(node: NewNode): void {
    this.stmts.insert.run(node);
  }

  activeSiblingId(container: string, key: string): string | undefined {
    return (this.stmts.activeSibling.get({ container, name_key: key }) as { id: string } | undefined)?.id;
  }

  siblingKeysStartingWith(container: string, prefix: string): Set<string> {
    const pattern = prefix.replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
    return new Set((this.stmts.siblingKeysLike.all({ container, pattern }) as { name_key: string }[]).map((r) => r.name_key));
  }

  /** The node and its ancestors, top-level first. */
  pathOf(id: string, viewerId: string): NodeRow[] {
    return this.stmts.ancestors.all({ id, viewer: viewerId }) as NodeRow[];
  }

  /** True when `ancestor` is `start` or one of its ancestors. */
  isSelfOrAncestor(ancestor: string, start: string): boolean {
    return this.stmts.isDescendant.get({ start, ancestor }) !== undefined;
  }

  subtreeIds(id: string): string[] {
    return (this.stmts.subtreeIds.all({ id }) as { id: string }[]).map((r) => r.id);
  }

  update(id: string, fields: Record<string, string | number | null>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.db.prepare(`UPDATE nodes SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  trash(id: string, at: number): void {
    this.stmts.setTrashedAt.run({ id, at });
    this.stmts.markTrashed.run({ id });
  }

  restore(id: string): void {
    this.stmts.setTrashedAt.run({ id, at: null });
    this.stmts.markRestored.run({ id });
  }

  star(userId: string, nodeId: string, at: number): void {
    this.stmts.star.run(userId, nodeId, at);
  }

  unstar(userId: string, nodeId: string): void {
    this.stmts.unstar.run(userId, nodeId);
  }

  unstarSubtree(userId: string, nodeId: string): void {
    this.db
      .prepare(
        `WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE id = @node
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id)
        DELETE FROM stars WHERE user_id = @user AND node_id IN (SELECT id FROM down)`,
      )
      .run({ node: nodeId, user: userId });
  }

  remove(id: string): void {
    this.stmts.remove.run(id);
  }

  /**
   * A listing's statement, prepared once per shape of query (scope, sort, direction, page):
   * preparing cost 0.15-0.25 ms, and a folder listing runs two (folders, then files). The
   * shapes are a few hundred at most; the cap only guards against a mistake that varies SQL.
   */
  private listStatement(sql: string): Statement {
    let statement = this.listStatements.get(sql);
    if (!statement) {
      if (this.listStatements.size >= 512) this.listStatements.clear();
      statement = this.db.prepareRaw(sql);
      this.listStatements.set(sql, statement);
    }
    return statement;
  }

  /** Trashed items (the roots of what was trashed), most recently trashed first. */
  trashPage(ownerId: string, after: Keyset | null, limit: number): NodeRow[] {
    return this.db
      .prepare(
        `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @owner) AS starred, 0 AS shared
         FROM nodes n WHERE n.owner_id = @owner AND n.trashed_at IS NOT NULL
           AND (@after_at IS NULL OR n.trashed_at < @after_at OR (n.trashed_at = @after_at AND n.id < @after_id))
         ORDER BY n.trashed_at DESC, n.id DESC LIMIT @limit`,
      )
      .all({ owner: ownerId, after_at: after?.value ?? null, after_id: after?.id ?? null, limit }) as NodeRow[];
  }

  /** Up to `limit` children of a folder that have a thumbnail, newest first (folder previews). */
  childrenWithThumbnails(folderId: string, viewerId: string, limit: number): NodeRow[] {
    return this.db
      .prepare(
        `SELECT ${COLUMNS}, 0 AS starred, n.owner_id != @viewer AS shared FROM nodes n
         WHERE n.parent_id = @folder AND n.in_trash = 0 AND n.has_thumbnail = 1
         ORDER BY n.updated_at DESC, n.id DESC LIMIT @limit`,
      )
      .all({ folder: folderId, viewer: viewerId, limit }) as NodeRow[];
  }

  trashedBefore(cutoff: number): string[] {
    return (this.stmts.expiredTrash.all(cutoff) as { id: string }[]).map((r) => r.id);
  }

  /**
   * One page of a listing as a single query: the ORDER BY matches an index, and the page
   * continues after the last row's sort values (keyset), so page 100 costs what page 1 does.
   */
  list(q: ListQuery): ListedNodeRow[] {
    if (q.foldersFirst) {
      // Folders, then files, each one range of the sort's index scanned in either direction:
      // a single ORDER BY kind ASC, column DESC would make SQLite sort the whole folder.
      const rows: ListedNodeRow[] = [];
      for (const kind of [0, 1] as const) {
        if (q.after && q.after.kind > kind) continue;
        const after = q.after && q.after.kind === kind ? q.after : null;
        rows.push(...this.list({ ...q, foldersFirst: false, onlyKind: kind, after, limit: q.limit - rows.length }));
        if (rows.length >= q.limit) break;
      }
      return rows;
    }
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
    return (this.listStatement(sql).all(params) as unknown[][]).map(listedRow);
  }
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
      return `(n.container = @container OR (n.id IN (SELECT node_id FROM permissions WHERE user_id = @scope_user) AND ${OWNER_ENABLED}))
        AND n.in_trash = 0`;
    case 'shared':
      params.scope_user = scope.userId;
      return `n.id IN (SELECT node_id FROM permissions WHERE user_id = @scope_user) AND ${OWNER_ENABLED} AND n.in_trash = 0`;
    case 'starred':
      params.scope_user = scope.userId;
      params.user = scope.userId;
      // A bookmark on what the account can no longer open (moved out of a shared folder, taken
      // out of an album) is not listed; a favourite of a photo an album or a partner shows it is.
      return `n.id IN (SELECT node_id FROM stars WHERE user_id = @scope_user) AND n.in_trash = 0
        AND (n.owner_id = @scope_user OR ${OWNER_ENABLED} AND EXISTS (WITH RECURSIVE up(id, parent_id) AS (
          SELECT n.id, n.parent_id UNION ALL SELECT p.id, p.parent_id FROM nodes p JOIN up ON p.id = up.parent_id)
          SELECT 1 FROM up JOIN permissions g ON g.node_id = up.id AND g.user_id = @scope_user)
          OR ${SHOWN_BY_ALBUM_TO_USER}
          OR (${OWNER_ENABLED} AND EXISTS (SELECT 1 FROM partner_shares ps WHERE ps.partner_id = @scope_user AND ${PARTNER_SHOWS})))`;
    case 'recent':
      params.owner = scope.ownerId;
      return "n.owner_id = @owner AND n.type = 'file' AND n.in_trash = 0";
    case 'search':
      params.owner = scope.ownerId;
      return 'n.owner_id = @owner AND n.in_trash = 0';
  }
}
