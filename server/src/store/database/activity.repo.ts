import type { Db } from './db.ts';

export interface ActivityRow {
  id: string;
  user_id: string;
  actor_id: string | null;
  type: string;
  node_id: string | null;
  at: number;
  details: string;
}

export class ActivityRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO activity (id, user_id, actor_id, type, node_id, at, details)
        VALUES (@id, @user_id, @actor_id, @type, @node_id, @at, @details)`),
      // What happened in Private is not listed: a list that names files is seen locked or not.
      page: db.prepare(`SELECT * FROM activity WHERE user_id = @user AND (@before IS NULL OR id < @before)
        AND (node_id IS NULL OR node_id NOT IN (SELECT id FROM nodes WHERE in_private = 1)) ORDER BY id DESC LIMIT @limit`),
    };
  }

  add(row: ActivityRow): void {
    this.stmts.insert.run(row);
  }

  /** Newest first. */
  page(userId: string, beforeId: string | null, limit: number): ActivityRow[] {
    return this.stmts.page.all({ user: userId, before: beforeId, limit }) as ActivityRow[];
  }
}

export class IdempotencyRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare('SELECT request_hash, status, body FROM idempotency WHERE user_id = ? AND scope = ? AND key = ?'),
      put: db.prepare(`INSERT INTO idempotency (user_id, scope, key, request_hash, status, body, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
      prune: db.prepare('DELETE FROM idempotency WHERE created_at < ?'),
    };
  }

  get(userId: string, scope: string, key: string): { request_hash: string; status: number; body: string } | undefined {
    return this.stmts.get.get(userId, scope, key) as { request_hash: string; status: number; body: string } | undefined;
  }

  put(userId: string, scope: string, key: string, requestHash: string, status: number, body: string, at: number): void {
    this.stmts.put.run(userId, scope, key, requestHash, status, body, at);
  }

  pruneBefore(cutoff: number): void {
    this.stmts.prune.run(cutoff);
  }
}
