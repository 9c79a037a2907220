import type { Db } from './db.ts';

export interface DavPasswordRow {
  id: string;
  user_id: string;
  name: string;
  password_hash: string;
  created_at: number;
  last_used_at: number | null;
}

/** Drive passwords (WebDAV sign-in), kept as their hash. */
export class DavPasswordsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO dav_passwords (id, user_id, name, password_hash, created_at)
        VALUES (@id, @user_id, @name, @password_hash, @created_at)`),
      listFor: db.prepare('SELECT * FROM dav_passwords WHERE user_id = ? ORDER BY id'),
      countFor: db.prepare('SELECT count(*) AS n FROM dav_passwords WHERE user_id = ?'),
      remove: db.prepare('DELETE FROM dav_passwords WHERE id = ? AND user_id = ?'),
      markUsed: db.prepare('UPDATE dav_passwords SET last_used_at = ? WHERE id = ?'),
      removeAllOf: db.prepare('DELETE FROM dav_passwords WHERE user_id = ?'),
    };
  }

  insert(row: Omit<DavPasswordRow, 'last_used_at'>): void {
    this.stmts.insert.run(row);
  }

  listFor(userId: string): DavPasswordRow[] {
    return this.stmts.listFor.all(userId) as DavPasswordRow[];
  }

  countFor(userId: string): number {
    return (this.stmts.countFor.get(userId) as { n: number }).n;
  }

  /** False when the account has no such password (never made, already revoked, or another's). */
  remove(id: string, userId: string): boolean {
    return (this.stmts.remove.run(id, userId) as { changes: number }).changes === 1;
  }

  /** Every drive password of the account; how many there were. */
  removeAllOf(userId: string): number {
    return (this.stmts.removeAllOf.run(userId) as { changes: number }).changes;
  }

  markUsed(id: string, now: number): void {
    this.stmts.markUsed.run(now, id);
  }
}
