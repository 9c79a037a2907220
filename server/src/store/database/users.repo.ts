import type { Db } from './db.ts';
import type { PhoneStart, Role } from '../../contract/identity-responses.ts';

export interface UserRow {
  id: string;
  username: string;
  display_name: string | null;
  role: Role;
  password_hash: string;
  must_change_password: boolean;
  disabled: boolean;
  avatar_seed: string;
  quota_bytes: number | null;
  used_bytes: number;
  totp_secret: string | null;
  totp_pending_secret: string | null;
  totp_last_step: number | null;
  phone_start: PhoneStart;
  created_at: number;
  updated_at: number;
}

type RawUser = Omit<UserRow, 'must_change_password' | 'disabled'> & {
  must_change_password: number;
  disabled: number;
};

export function usernameKey(username: string): string {
  return username.toLowerCase();
}

function toRow(raw: RawUser | undefined): UserRow | undefined {
  if (!raw) return undefined;
  return { ...raw, must_change_password: raw.must_change_password === 1, disabled: raw.disabled === 1 };
}

export interface NewUser {
  id: string;
  username: string;
  display_name: string | null;
  role: Role;
  password_hash: string;
  avatar_seed: string;
  quota_bytes: number | null;
  created_at: number;
}

export class UsersRepo {
  private readonly stmts;

  constructor(private readonly db: Db) {
    this.stmts = {
      count: db.prepare('SELECT count(*) AS n FROM users'),
      byId: db.prepare('SELECT * FROM users WHERE id = ?'),
      byKey: db.prepare('SELECT * FROM users WHERE username_key = ?'),
      insert: db.prepare(`INSERT INTO users
        (id, username, username_key, display_name, role, password_hash, avatar_seed, quota_bytes, created_at, updated_at)
        VALUES (@id, @username, @username_key, @display_name, @role, @password_hash, @avatar_seed, @quota_bytes, @created_at, @created_at)
        ON CONFLICT (username_key) DO NOTHING`),
      activeAdminIds: db.prepare("SELECT id FROM users WHERE role = 'admin' AND disabled = 0"),
      activeMemberIds: db.prepare("SELECT id FROM users WHERE role != 'admin' AND disabled = 0"),
      names: db.prepare('SELECT id, username, display_name FROM users'),
      totpSecrets: db.prepare(
        'SELECT id, totp_secret, totp_pending_secret FROM users WHERE totp_secret IS NOT NULL OR totp_pending_secret IS NOT NULL',
      ),
      addUsage: db.prepare('UPDATE users SET used_bytes = max(0, used_bytes + ?) WHERE id = ?'),
    };
  }

  count(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }

  byId(id: string): UserRow | undefined {
    return toRow(this.stmts.byId.get(id) as RawUser | undefined);
  }

  byUsername(username: string): UserRow | undefined {
    return toRow(this.stmts.byKey.get(usernameKey(username)) as RawUser | undefined);
  }

  /** Returns false when the username is taken (ignoring case). */
  insert(user: NewUser): boolean {
    const result = this.stmts.insert.run({ ...user, username_key: usernameKey(user.username) }) as { changes: number };
    return result.changes === 1;
  }

  /** Quota usage moves in the same transaction as the content it counts. */
  addUsage(id: string, delta: number): void {
    if (delta !== 0) this.stmts.addUsage.run(delta, id);
  }

  /** Every account's names, to keep them from reading alike (a family has a handful). */
  names(): { id: string; username: string; display_name: string | null }[] {
    return this.stmts.names.all() as { id: string; username: string; display_name: string | null }[];
  }

  /** Accounts holding a TOTP secret, enabled or pending. */
  totpSecrets(): { id: string; totp_secret: string | null; totp_pending_secret: string | null }[] {
    return this.stmts.totpSecrets.all() as { id: string; totp_secret: string | null; totp_pending_secret: string | null }[];
  }

  activeAdminIds(): string[] {
    return (this.stmts.activeAdminIds.all() as { id: string }[]).map((r) => r.id);
  }

  activeMemberIds(): string[] {
    return (this.stmts.activeMemberIds.all() as { id: string }[]).map((r) => r.id);
  }

  update(id: string, fields: Partial<Omit<UserRow, 'id' | 'username' | 'created_at'>>, now: number): void {
    const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return;
    const sets = entries.map(([k]) => `${k} = @${k}`).join(', ');
    const values: Record<string, unknown> = { id, updated_at: now };
    for (const [k, v] of entries) values[k] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
    this.db.prepare(`UPDATE users SET ${sets}, updated_at = @updated_at WHERE id = @id`).run(values);
  }

  /** Everyone, by id, for the admin page. */
  page(afterId: string | null, limit: number): UserRow[] {
    const rows = this.db
      .prepare('SELECT * FROM users WHERE (@after IS NULL OR id > @after) ORDER BY id LIMIT @limit')
      .all({ after: afterId, limit }) as RawUser[];
    return rows.map((r) => toRow(r)!);
  }

  /** Enabled accounts for the people picker, optionally matching a name fragment. */
  directoryPage(query: string | null, afterId: string | null, limit: number): UserRow[] {
    const like = query ? `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const rows = this.db
      .prepare(
        `SELECT * FROM users WHERE disabled = 0
           AND (@like IS NULL OR username LIKE @like ESCAPE '\\' OR display_name LIKE @like ESCAPE '\\')
           AND (@after IS NULL OR id > @after)
         ORDER BY id LIMIT @limit`,
      )
      .all({ like, after: afterId, limit }) as RawUser[];
    return rows.map((r) => toRow(r)!);
  }
}

export class RecoveryCodesRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      deleteForUser: db.prepare('DELETE FROM recovery_codes WHERE user_id = ?'),
      insert: db.prepare('INSERT INTO recovery_codes (code_hash, user_id) VALUES (?, ?)'),
      consume: db.prepare('UPDATE recovery_codes SET used_at = ? WHERE code_hash = ? AND user_id = ? AND used_at IS NULL'),
    };
  }

  replaceAll(userId: string, hashes: string[]): void {
    this.stmts.deleteForUser.run(userId);
    for (const hash of hashes) this.stmts.insert.run(hash, userId);
  }

  deleteAll(userId: string): void {
    this.stmts.deleteForUser.run(userId);
  }

  /** Marks the code used; true only for the one caller that found it unused. */
  consume(userId: string, hash: string, now: number): boolean {
    return (this.stmts.consume.run(now, hash, userId) as { changes: number }).changes === 1;
  }
}
