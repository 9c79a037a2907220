import type { Db } from './db.ts';

export type GrantRole = 'viewer' | 'editor';

/** The node's owner (`nodes.owner_id` in scope) is not disabled. */
const OWNER_ENABLED = 'owner_id NOT IN (SELECT id FROM users WHERE disabled = 1)';

export interface PermissionRow {
  node_id: string;
  user_id: string;
  role: GrantRole;
  granted_by: string;
  created_at: number;
}

/** A grant on the node or one of its ancestors, with how far up it sits (0 = the node). */
export interface InheritedGrant {
  role: GrantRole;
  depth: number;
  node_id: string;
}

export class PermissionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      upsert: db.prepare(`INSERT INTO permissions (node_id, user_id, role, granted_by, created_at)
        VALUES (@node_id, @user_id, @role, @granted_by, @created_at)
        ON CONFLICT (node_id, user_id) DO UPDATE SET role = excluded.role, granted_by = excluded.granted_by`),
      get: db.prepare('SELECT * FROM permissions WHERE node_id = ? AND user_id = ?'),
      ofNode: db.prepare('SELECT * FROM permissions WHERE node_id = ? ORDER BY created_at, user_id'),
      remove: db.prepare('DELETE FROM permissions WHERE node_id = ? AND user_id = ?'),
      // Walks up from the node; each step is a primary-key lookup, each grant probe too. The
      // grants of a disabled owner are suspended (kept, and live again when re-enabled).
      inherited: db.prepare(`WITH RECURSIVE up(id, parent_id, depth) AS (
          SELECT id, parent_id, 0 FROM nodes WHERE id = @node AND ${OWNER_ENABLED}
          UNION ALL SELECT n.id, n.parent_id, up.depth + 1 FROM nodes n JOIN up ON n.id = up.parent_id)
        SELECT p.role, up.depth, p.node_id FROM up JOIN permissions p ON p.node_id = up.id AND p.user_id = @user
        ORDER BY up.depth`),
      audience: db.prepare(`WITH RECURSIVE up(id, parent_id) AS (
          SELECT id, parent_id FROM nodes WHERE id = @node AND ${OWNER_ENABLED}
          UNION ALL SELECT n.id, n.parent_id FROM nodes n JOIN up ON n.id = up.parent_id)
        SELECT DISTINCT p.user_id FROM up JOIN permissions p ON p.node_id = up.id`),
    };
  }

  upsert(row: PermissionRow): void {
    this.stmts.upsert.run(row);
  }

  get(nodeId: string, userId: string): PermissionRow | undefined {
    return this.stmts.get.get(nodeId, userId) as PermissionRow | undefined;
  }

  ofNode(nodeId: string): PermissionRow[] {
    return this.stmts.ofNode.all(nodeId) as PermissionRow[];
  }

  remove(nodeId: string, userId: string): boolean {
    return (this.stmts.remove.run(nodeId, userId) as { changes: number }).changes === 1;
  }

  /** The caller's grants on the node and above it, nearest first. */
  inherited(nodeId: string, userId: string): InheritedGrant[] {
    return this.stmts.inherited.all({ node: nodeId, user: userId }) as InheritedGrant[];
  }

  /** Every account with a grant on the node or above it. */
  grantees(nodeId: string): string[] {
    return (this.stmts.audience.all({ node: nodeId }) as { user_id: string }[]).map((r) => r.user_id);
  }
}

/** A link: to a node, or (`album_id`, node_id null) to an album. */
export interface ShareRow {
  id: string;
  node_id: string | null;
  album_id: string | null;
  created_by: string;
  token_hash: string;
  salt: string;
  password_hash: string | null;
  password_version: number;
  allow_download: number;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
}

export class SharesRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      insert:
        db.prepare(`INSERT INTO shares (id, node_id, album_id, created_by, token_hash, salt, password_hash, allow_download, expires_at, created_at)
        VALUES (@id, @node_id, @album_id, @created_by, @token_hash, @salt, @password_hash, @allow_download, @expires_at, @created_at)`),
      byId: db.prepare('SELECT * FROM shares WHERE id = ?'),
      byTokenHash: db.prepare('SELECT * FROM shares WHERE token_hash = ?'),
      ofNode: db.prepare('SELECT * FROM shares WHERE node_id = ? AND revoked_at IS NULL ORDER BY id DESC'),
      ofAlbum: db.prepare('SELECT * FROM shares WHERE album_id = ? AND revoked_at IS NULL ORDER BY id DESC'),
      byCreator: db.prepare(
        'SELECT * FROM shares WHERE created_by = @user AND revoked_at IS NULL AND (@before IS NULL OR id < @before) ORDER BY id DESC LIMIT @limit',
      ),
      revoke: db.prepare('UPDATE shares SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      liveOfAlbums: db.prepare(`SELECT album_id, count(*) AS n FROM shares
        WHERE album_id IN (SELECT value FROM json_each(@ids)) AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > @now)
        GROUP BY album_id`),
      // The links above a node that open it: its own, and its folders' (the owner's alone to make).
      liveAbove: db.prepare(`WITH RECURSIVE up(id, parent_id, depth) AS (
          SELECT id, parent_id, 0 FROM nodes WHERE id = @node
          UNION ALL SELECT n.id, n.parent_id, up.depth + 1 FROM nodes n JOIN up ON n.id = up.parent_id)
        SELECT s.* FROM up JOIN shares s ON s.node_id = up.id
        WHERE s.revoked_at IS NULL AND (s.expires_at IS NULL OR s.expires_at > @now) ORDER BY up.depth, s.id`),
    };
  }

  insert(row: Omit<ShareRow, 'password_version' | 'revoked_at'>): void {
    this.stmts.insert.run(row);
  }

  byId(id: string): ShareRow | undefined {
    return this.stmts.byId.get(id) as ShareRow | undefined;
  }

  byTokenHash(hash: string): ShareRow | undefined {
    return this.stmts.byTokenHash.get(hash) as ShareRow | undefined;
  }

  ofNode(nodeId: string): ShareRow[] {
    return this.stmts.ofNode.all(nodeId) as ShareRow[];
  }

  ofAlbum(albumId: string): ShareRow[] {
    return this.stmts.ofAlbum.all(albumId) as ShareRow[];
  }

  byCreator(userId: string, beforeId: string | null, limit: number): ShareRow[] {
    return this.stmts.byCreator.all({ user: userId, before: beforeId, limit }) as ShareRow[];
  }

  update(id: string, fields: Partial<Pick<ShareRow, 'password_hash' | 'password_version' | 'allow_download' | 'expires_at'>>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.db.prepare(`UPDATE shares SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  /** How many links to each album are live now (an album without any is left out). */
  liveOfAlbums(albumIds: readonly string[], now: number): Map<string, number> {
    const rows = this.stmts.liveOfAlbums.all({ ids: JSON.stringify(albumIds), now }) as { album_id: string; n: number }[];
    return new Map(rows.map((r) => [r.album_id, Number(r.n)]));
  }

  /** The live links that open the node: its own first, then its folders', nearest first. */
  liveAbove(nodeId: string, now: number): ShareRow[] {
    return this.stmts.liveAbove.all({ node: nodeId, now }) as ShareRow[];
  }

  revoke(id: string, at: number): boolean {
    return (this.stmts.revoke.run(at, id) as { changes: number }).changes === 1;
  }
}
