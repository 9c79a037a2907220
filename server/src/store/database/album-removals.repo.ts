import type { Db } from './db.ts';
import type { AlbumMemberRole } from './albums.repo.ts';

/** A member the album's owner took out, kept for the undo window (migration 24). */
export interface AlbumRemovalRow {
  album_id: string;
  user_id: string;
  role: AlbumMemberRole;
  added_by: string;
  member_since: number;
  removed_at: number;
}

/** The photos that went with them; the links' answer is kept as it was. */
export interface AlbumRemovedItemRow {
  node_id: string;
  added_at: number;
  on_links: number;
}

/** What a removal took, kept until it is undone or too old to be (SQL only). */
export class AlbumRemovalsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      addedCounts: db.prepare(`SELECT added_by, count(*) AS n FROM album_items WHERE album_id = ? GROUP BY added_by`),
      // A second removal of the same person replaces the first: only the last can be undone.
      keep: db.prepare(`INSERT OR REPLACE INTO album_removals (album_id, user_id, role, added_by, member_since, removed_at)
        VALUES (@album_id, @user_id, @role, @added_by, @member_since, @removed_at)`),
      keepItems: db.prepare(`INSERT INTO album_removed_items (album_id, user_id, node_id, added_at, on_links)
        SELECT album_id, added_by, node_id, added_at, on_links FROM album_items WHERE album_id = ? AND added_by = ?`),
      get: db.prepare('SELECT * FROM album_removals WHERE album_id = ? AND user_id = ?'),
      items: db.prepare('SELECT node_id, added_at, on_links FROM album_removed_items WHERE album_id = ? AND user_id = ?'),
      // Back as they were; a photo added again meanwhile (by anyone) stays as it is now.
      putBack: db.prepare(`INSERT INTO album_items (album_id, node_id, added_by, added_at, on_links)
        SELECT r.album_id, r.node_id, r.user_id, r.added_at, r.on_links FROM album_removed_items r
        JOIN nodes n ON n.id = r.node_id AND n.in_trash = 0
        WHERE r.album_id = ? AND r.user_id = ?
        ON CONFLICT (album_id, node_id) DO NOTHING`),
      forget: db.prepare('DELETE FROM album_removals WHERE album_id = ? AND user_id = ?'),
      forgetBefore: db.prepare('DELETE FROM album_removals WHERE removed_at < ?'),
    };
  }

  /** How many items each account added to the album. */
  addedCounts(albumId: string): Map<string, number> {
    const rows = this.stmts.addedCounts.all(albumId) as { added_by: string; n: number }[];
    return new Map(rows.map((r) => [r.added_by, Number(r.n)]));
  }

  /** Keeps the member's row and what they added, before both leave the album (in the caller's transaction). */
  keep(row: AlbumRemovalRow): void {
    this.stmts.keep.run(row);
    this.stmts.keepItems.run(row.album_id, row.user_id);
  }

  get(albumId: string, userId: string): AlbumRemovalRow | undefined {
    return this.stmts.get.get(albumId, userId) as AlbumRemovalRow | undefined;
  }

  items(albumId: string, userId: string): AlbumRemovedItemRow[] {
    return this.stmts.items.all(albumId, userId) as AlbumRemovedItemRow[];
  }

  /** Puts the kept items back in the album; how many went back. */
  putBack(albumId: string, userId: string): number {
    return Number(this.stmts.putBack.run(albumId, userId).changes);
  }

  forget(albumId: string, userId: string): void {
    this.stmts.forget.run(albumId, userId);
  }

  /** Forgets removals made before `before` (their undo window is over); how many. */
  forgetBefore(before: number): number {
    return Number(this.stmts.forgetBefore.run(before).changes);
  }
}
