import type { Db, Statement } from './db.ts';

/** Subtree of a node (the node itself included), for the statements that act on everything below a folder. */
const SUBTREE = `WITH RECURSIVE down(id) AS (
    SELECT id FROM nodes WHERE id = @node
    UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id)`;

/** Files of that subtree with the SHA-256 of their current content. */
function subtreeFiles(where = 'true'): string {
  return `${SUBTREE}
  SELECT n.owner_id, v.sha256 FROM down
    JOIN nodes n ON n.id = down.id AND n.type = 'file'
    JOIN node_versions v ON v.node_id = n.id AND v.version = n.version
  WHERE v.sha256 IS NOT NULL AND ${where}`;
}

/**
 * Files by content, for an account: which of a batch of SHA-256s it holds as live files, and
 * which it deleted on purpose (remembered deletes). A batch is one statement of each kind,
 * whatever its size, each hash one lookup of an index (node_versions_sha256, the table's key).
 */
export class ContentIndexRepo {
  private readonly live: Statement;
  private readonly deleted: Statement;
  private readonly rememberSubtree: Statement;
  private readonly forgetSubtree: Statement;
  private readonly forgetAll: Statement;

  constructor(db: Db) {
    // The current version only: a file whose content was replaced no longer holds the old one.
    // Hash by hash through node_versions_sha256 (CROSS JOIN fixes that order): left to itself,
    // the planner may walk every file of the account instead, 100,000 rows for a phone's 1,000.
    // The caller passes distinct hashes, so no row comes twice.
    this.live = db.prepareRaw(`SELECT v.sha256, n.id FROM json_each(@hashes) AS h
        CROSS JOIN node_versions AS v ON v.sha256 = h.value
        CROSS JOIN nodes AS n ON n.id = v.node_id AND n.version = v.version
      WHERE n.owner_id = @user AND n.in_trash = 0 AND n.type = 'file'
      ORDER BY n.created_at, n.id`);
    this.deleted = db.prepareRaw(
      'SELECT sha256 FROM remembered_deletes WHERE user_id = @user AND sha256 IN (SELECT value FROM json_each(@hashes))',
    );
    // "WHERE true" tells SQLite's parser the ON CONFLICT is the upsert's, not a join's.
    this.rememberSubtree = db.prepare(`INSERT INTO remembered_deletes (user_id, sha256, deleted_at)
      SELECT owner_id, sha256, @at FROM (${subtreeFiles()}) WHERE true
      ON CONFLICT (user_id, sha256) DO UPDATE SET deleted_at = excluded.deleted_at`);
    // Items trashed on their own below a restored folder stay in the trash, and remembered.
    this.forgetSubtree = db.prepare(`DELETE FROM remembered_deletes WHERE (user_id, sha256) IN (${subtreeFiles('n.in_trash = 0')})`);
    this.forgetAll = db.prepare('DELETE FROM remembered_deletes WHERE user_id = ?');
  }

  /** For each of these distinct hashes that an account holds as a live file: the oldest such file. */
  liveFiles(userId: string, hashes: readonly string[]): Map<string, string> {
    const found = new Map<string, string>();
    for (const row of this.live.all({ user: userId, hashes: JSON.stringify(hashes) }) as unknown[][]) {
      const [sha256, id] = row as [string, string];
      if (!found.has(sha256)) found.set(sha256, id);
    }
    return found;
  }

  rememberedDeletes(userId: string, hashes: readonly string[]): Set<string> {
    const rows = this.deleted.all({ user: userId, hashes: JSON.stringify(hashes) }) as unknown[][];
    return new Set(rows.map((row) => row[0] as string));
  }

  /** The files at and below a node are leaving their owner on purpose (the trash, or for good). */
  rememberDeletes(nodeId: string, at: number): void {
    this.rememberSubtree.run({ node: nodeId, at });
  }

  /** The files at and below a node came back from the trash: their contents are wanted again (call after the restore). */
  forgetDeletesOf(nodeId: string): void {
    this.forgetSubtree.run({ node: nodeId });
  }

  forgetAllOf(userId: string): number {
    return Number(this.forgetAll.run(userId).changes);
  }
}
