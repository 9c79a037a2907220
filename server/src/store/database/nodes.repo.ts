import type { Db, Statement } from './db.ts';
import { listingQuery, type Keyset, type ListQuery } from './node-listing.ts';
import { COLUMNS, listedRow, type ListedNodeRow, type NewNode, type NodeRow } from './node-rows.ts';

export type { Keyset, ListQuery, ListScope, SortField } from './node-listing.ts';
export type { ListedNodeRow, NewNode, NodeRow } from './node-rows.ts';

export class NodesRepo {
  private readonly stmts;
  private readonly listStatements = new Map<string, Statement>();

  constructor(private readonly db: Db) {
    this.stmts = {
      byId: db.prepare(`SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @viewer) AS starred,
        n.owner_id != @viewer AS shared
        FROM nodes n WHERE n.id = @id`),
      insert: db.prepare(`INSERT INTO nodes (id, owner_id, parent_id, type, name, name_key, sort_name, search_name, size,
          mime_type, version, created_by, created_at, updated_at, taken_sort, is_media, in_private)
        VALUES (@id, @owner_id, @parent_id, @type, @name, @name_key, @sort_name, @search_name, @size,
          @mime_type, @version, @created_by, @created_at, @created_at, @created_at, @is_media,
          coalesce((SELECT p.in_private FROM nodes p WHERE p.id = @parent_id), 0))`),
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

  /**
   * Trashed items (the roots of what was trashed), most recently trashed first; what was trashed
   * in Private only `withPrivate` (the session has it open).
   */
  trashPage(ownerId: string, after: Keyset | null, limit: number, withPrivate = false): NodeRow[] {
    return this.db
      .prepare(
        `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @owner) AS starred, 0 AS shared
         FROM nodes n WHERE n.owner_id = @owner AND n.trashed_at IS NOT NULL AND (n.in_private = 0 OR @with_private = 1)
           AND (@after_at IS NULL OR n.trashed_at < @after_at OR (n.trashed_at = @after_at AND n.id < @after_id))
         ORDER BY n.trashed_at DESC, n.id DESC LIMIT @limit`,
      )
      .all({
        owner: ownerId,
        after_at: after?.value ?? null,
        after_id: after?.id ?? null,
        limit,
        with_private: withPrivate ? 1 : 0,
      }) as NodeRow[];
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
    const { sql, params } = listingQuery(q);
    return (this.listStatement(sql).all(params) as unknown[][]).map(listedRow);
  }
}
