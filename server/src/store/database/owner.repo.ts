import type { Db } from './db.ts';

/** The one outstanding owner recovery code: its SHA-256 and when it stops working. */
export interface OwnerRecoveryRow {
  hash: string;
  expires_at: number;
}

const OWNER_KEY = 'owner_user_id';
const RECOVERY_KEY = 'owner_recovery';

/**
 * Who owns this PC's Hearth (the account made by first-run setup) and the owner's recovery
 * code, both rows of `meta`: a table every Hearth database has had since its first schema, so
 * `npm run owner -- reset` can write its one row into a database of any version, beside a
 * running server, without migrating anything.
 */
export class OwnerRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare('SELECT value FROM meta WHERE key = ?'),
      put: db.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      remove: db.prepare('DELETE FROM meta WHERE key = ?'),
      // Deletes the code only if it is still the one that was checked: of two requests
      // carrying the same code, exactly one gets `changes = 1`.
      take: db.prepare("DELETE FROM meta WHERE key = ? AND json_extract(value, '$.hash') = ?"),
      // Columns of the first schema only: this runs on databases of every version.
      named: db.prepare('SELECT id, username FROM users WHERE id = ?'),
      oldestAdmin: db.prepare("SELECT id, username FROM users WHERE role = 'admin' AND disabled = 0 ORDER BY id LIMIT 1"),
    };
  }

  ownerId(): string | undefined {
    return this.read<string>(OWNER_KEY);
  }

  /**
   * Who the owner is, without recording anything: the recorded account, else the oldest
   * admin still enabled (what OwnerService records on the server's first look).
   */
  findOwner(): { id: string; username: string } | undefined {
    const recorded = this.ownerId();
    const row = recorded !== undefined ? this.stmts.named.get(recorded) : this.stmts.oldestAdmin.get();
    return row as { id: string; username: string } | undefined;
  }

  recordOwner(userId: string): void {
    this.stmts.put.run(OWNER_KEY, JSON.stringify(userId));
  }

  recoveryCode(): OwnerRecoveryRow | undefined {
    return this.read<OwnerRecoveryRow>(RECOVERY_KEY);
  }

  /** Stores a new code; an earlier one that was never used stops working. */
  putRecoveryCode(row: OwnerRecoveryRow): void {
    this.stmts.put.run(RECOVERY_KEY, JSON.stringify(row));
  }

  /** Uses the code up: true for the one caller that removed it. */
  takeRecoveryCode(hash: string): boolean {
    return Number(this.stmts.take.run(RECOVERY_KEY, hash).changes) === 1;
  }

  dropRecoveryCode(): void {
    this.stmts.remove.run(RECOVERY_KEY);
  }

  private read<T>(key: string): T | undefined {
    const row = this.stmts.get.get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }
}
