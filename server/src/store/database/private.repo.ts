import type { Db } from './db.ts';

export interface PrivateFolderRow {
  user_id: string;
  node_id: string;
  pin_hash: string | null;
  created_at: number;
}

/** A subtree's node ids, from `@id` down (the trash included). */
const SUBTREE = `WITH RECURSIVE down(id) AS (
  SELECT id FROM nodes WHERE id = @id
  UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id)`;

/**
 * Each account's Private folder and its unlocks. What is in it is marked on the node rows
 * (`in_private`), so every list leaves it out by a condition on the row itself; this room keeps
 * that mark true as nodes move, and takes away what would show a node to others once it is private.
 */
export class PrivateRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      folderOf: db.prepare('SELECT * FROM private_folders WHERE user_id = ?'),
      insertFolder: db.prepare('INSERT INTO private_folders (user_id, node_id, created_at) VALUES (?, ?, ?)'),
      markFolder: db.prepare('UPDATE nodes SET in_private = 1 WHERE id = ?'),
      setPin: db.prepare('UPDATE private_folders SET pin_hash = ? WHERE user_id = ?'),
      inPrivate: db.prepare('SELECT in_private FROM nodes WHERE id = ?'),
      mark: db.prepare(`${SUBTREE} UPDATE nodes SET in_private = @mark WHERE id IN (SELECT id FROM down)`),
      dropGrants: db.prepare(`${SUBTREE} DELETE FROM permissions WHERE node_id IN (SELECT id FROM down)`),
      dropLinks: db.prepare(`${SUBTREE} DELETE FROM shares WHERE node_id IN (SELECT id FROM down)`),
      dropAlbumItems: db.prepare(`${SUBTREE} DELETE FROM album_items WHERE node_id IN (SELECT id FROM down)`),
      dropUploadFolders: db.prepare(`${SUBTREE} DELETE FROM album_upload_folders WHERE folder_id IN (SELECT id FROM down)`),
      // Others' bookmarks would name the node in their Starred: the owner's own stay.
      dropOthersStars: db.prepare(`${SUBTREE} DELETE FROM stars WHERE node_id IN (SELECT id FROM down) AND user_id != @owner`),
      unlockedUntil: db.prepare('SELECT private_until FROM sessions WHERE id = ?'),
      setUnlockedUntil: db.prepare('UPDATE sessions SET private_until = ? WHERE id = ?'),
      rememberOrigin: db.prepare(
        'INSERT INTO private_origins (node_id, from_parent_id, moved_at) VALUES (?, ?, ?) ON CONFLICT (node_id) DO UPDATE SET from_parent_id = excluded.from_parent_id, moved_at = excluded.moved_at',
      ),
      originOf: db.prepare('SELECT from_parent_id FROM private_origins WHERE node_id = ?'),
      forgetOrigin: db.prepare('DELETE FROM private_origins WHERE node_id = ?'),
    };
  }

  folderOf(userId: string): PrivateFolderRow | undefined {
    return this.stmts.folderOf.get(userId) as PrivateFolderRow | undefined;
  }

  /** Names an existing top-level folder the account's Private folder. */
  addFolder(userId: string, nodeId: string, at: number): void {
    this.stmts.insertFolder.run(userId, nodeId, at);
    this.stmts.markFolder.run(nodeId);
  }

  setPin(userId: string, pinHash: string | null): void {
    this.stmts.setPin.run(pinHash, userId);
  }

  /** Whether a node is in someone's Private folder (or is one). False for a node that does not exist. */
  isInPrivate(nodeId: string): boolean {
    return (this.stmts.inPrivate.get(nodeId) as { in_private: number } | undefined)?.in_private === 1;
  }

  /**
   * After node `id` moved: its subtree takes the mark of where it now is. Going in, whatever
   * showed it to anyone else goes for good (grants, links, album places, others' stars, an
   * album's upload folder), so nothing reaches it from outside even if a list forgot the mark.
   */
  moved(id: string, ownerId: string, intoPrivate: boolean): void {
    this.stmts.mark.run({ id, mark: intoPrivate ? 1 : 0 });
    if (!intoPrivate) return;
    this.stmts.dropGrants.run({ id });
    this.stmts.dropLinks.run({ id });
    this.stmts.dropAlbumItems.run({ id });
    this.stmts.dropUploadFolders.run({ id });
    this.stmts.dropOthersStars.run({ id, owner: ownerId });
  }

  unlockedUntil(sessionId: string): number | null {
    return (this.stmts.unlockedUntil.get(sessionId) as { private_until: number | null } | undefined)?.private_until ?? null;
  }

  setUnlockedUntil(sessionId: string, until: number | null): void {
    this.stmts.setUnlockedUntil.run(until, sessionId);
  }

  /** Where a node moved into Private from (`null`: the top of My files). */
  rememberOrigin(nodeId: string, fromParentId: string | null, at: number): void {
    this.stmts.rememberOrigin.run(nodeId, fromParentId, at);
  }

  /** The folder a node left for Private: `undefined` when not remembered, `null` for the top of My files. */
  originOf(nodeId: string): string | null | undefined {
    return (this.stmts.originOf.get(nodeId) as { from_parent_id: string | null } | undefined)?.from_parent_id;
  }

  forgetOrigin(nodeId: string): void {
    this.stmts.forgetOrigin.run(nodeId);
  }
}
