import type { Db } from './db.ts';

export interface DownloadTicketRow {
  ticket_hash: string;
  session_id: string;
  /** JSON array of node ids, in the order asked. */
  node_ids: string;
  name: string;
  created_at: number;
  expires_at: number;
}

/** A node below a folder being zipped, with its current content when it is a file. */
export interface SubtreeRow {
  id: string;
  parent_id: string;
  owner_id: string;
  type: 'file' | 'folder';
  name: string;
  updated_at: number;
  /** Files only: the current version's size, content file, library and time. */
  size: number | null;
  blob: string | null;
  library_id: string | null;
  content_at: number | null;
}

/** Zip downloads: their one-use tickets, and what a folder holds, read in one query. */
export class DownloadsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO download_tickets (ticket_hash, session_id, node_ids, name, created_at, expires_at)
        VALUES (@ticket_hash, @session_id, @node_ids, @name, @created_at, @expires_at)`),
      // One statement finds and removes it: two requests with the same ticket cannot both have it.
      take: db.prepare('DELETE FROM download_tickets WHERE ticket_hash = ? RETURNING *'),
      sessionOf: db.prepare('SELECT session_id FROM download_tickets WHERE ticket_hash = ?'),
      purgeExpired: db.prepare('DELETE FROM download_tickets WHERE expires_at <= ?'),
      // What is below a folder and not in the trash (a trashed folder hides what it holds), each
      // file with its current version: the highest, as VersionsRepo.current reads it. Nothing
      // private comes in the zip of a folder that is not.
      subtree: db.prepare(`WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE parent_id = @id AND in_trash = 0 AND in_private <= (SELECT top.in_private FROM nodes top WHERE top.id = @id)
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id WHERE n.in_trash = 0 AND n.in_private <= (SELECT top.in_private FROM nodes top WHERE top.id = @id))
        SELECT n.id, n.parent_id, n.owner_id, n.type, n.name, n.updated_at,
          v.size AS size, v.blob AS blob, v.library_id AS library_id, v.created_at AS content_at
        FROM down JOIN nodes n ON n.id = down.id
        LEFT JOIN node_versions v ON n.type = 'file' AND v.node_id = n.id
          AND v.version = (SELECT max(version) FROM node_versions WHERE node_id = n.id)
        LIMIT @limit`),
    };
  }

  insert(row: DownloadTicketRow): void {
    this.stmts.insert.run(row);
  }

  sessionOf(ticketHash: string): string | null {
    return (this.stmts.sessionOf.get(ticketHash) as { session_id: string } | undefined)?.session_id ?? null;
  }

  /** The ticket, removed as it is read: it opens one download. */
  take(ticketHash: string): DownloadTicketRow | undefined {
    return this.stmts.take.get(ticketHash) as DownloadTicketRow | undefined;
  }

  purgeExpired(now: number): void {
    this.stmts.purgeExpired.run(now);
  }

  /** Everything below folder `id` that is not in the trash, at most `limit` rows. */
  subtree(id: string, limit: number): SubtreeRow[] {
    return this.stmts.subtree.all({ id, limit }) as SubtreeRow[];
  }
}
