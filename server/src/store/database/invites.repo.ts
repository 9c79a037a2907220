import type { Db } from './db.ts';
import type { Role } from '../../contract/identity-responses.ts';

export interface InviteRow {
  id: string;
  code_hash: string;
  role: Role;
  max_uses: number | null;
  uses: number;
  expires_at: number | null;
  label: string | null;
  created_by: string;
  created_at: number;
}

export class InvitesRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO invites (id, code_hash, role, max_uses, expires_at, label, created_by, created_at)
        VALUES (@id, @code_hash, @role, @max_uses, @expires_at, @label, @created_by, @created_at)`),
      byHash: db.prepare('SELECT * FROM invites WHERE code_hash = ?'),
      page: db.prepare('SELECT * FROM invites WHERE (@after IS NULL OR id > @after) ORDER BY id LIMIT @limit'),
      remove: db.prepare('DELETE FROM invites WHERE id = ?'),
      redeem: db.prepare(`UPDATE invites SET uses = uses + 1
        WHERE code_hash = @hash AND (max_uses IS NULL OR uses < max_uses) AND (expires_at IS NULL OR expires_at > @now)`),
    };
  }

  insert(row: Omit<InviteRow, 'uses'>): void {
    this.stmts.insert.run(row);
  }

  byHash(hash: string): InviteRow | undefined {
    return this.stmts.byHash.get(hash) as InviteRow | undefined;
  }

  page(afterId: string | null, limit: number): InviteRow[] {
    return this.stmts.page.all({ after: afterId, limit }) as InviteRow[];
  }

  remove(id: string): boolean {
    return (this.stmts.remove.run(id) as { changes: number }).changes === 1;
  }

  /** Takes one use of a still-valid invite; false when it is unknown, used up or expired. */
  redeem(hash: string, now: number): boolean {
    return (this.stmts.redeem.run({ hash, now }) as { changes: number }).changes === 1;
  }
}
