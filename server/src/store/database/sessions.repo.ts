import type { Db } from './db.ts';
import type { SessionStatus } from '../../contract/identity-responses.ts';

export interface SessionRow {
  id: string;
  user_id: string;
  status: SessionStatus;
  device_name: string | null;
  platform: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_seen_at: number;
  approved_at: number | null;
  expires_at: number;
  ended_at: number | null;
  ended_reason: string | null;
}

export interface PendingDeviceRow extends SessionRow {
  username: string;
  display_name: string | null;
}

export class SessionsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO sessions
        (id, user_id, status, device_name, platform, user_agent, ip, created_at, last_seen_at, approved_at, expires_at)
        VALUES (@id, @user_id, @status, @device_name, @platform, @user_agent, @ip, @created_at, @last_seen_at, @approved_at, @expires_at)`),
      byId: db.prepare('SELECT * FROM sessions WHERE id = ?'),
      listLive: db.prepare(
        "SELECT * FROM sessions WHERE user_id = ? AND status IN ('active', 'pending') ORDER BY created_at DESC, id DESC",
      ),
      listLiveAll: db.prepare(`SELECT s.*, u.username, u.display_name FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.status IN ('active', 'pending') ORDER BY u.username_key, s.created_at DESC, s.id DESC`),
      liveIdsOfUser: db.prepare("SELECT id FROM sessions WHERE user_id = ? AND status IN ('active', 'pending')"),
      end: db.prepare(
        "UPDATE sessions SET status = @status, ended_at = @now, ended_reason = @reason WHERE id = @id AND status IN ('active', 'pending')",
      ),
      approve: db.prepare(
        "UPDATE sessions SET status = 'active', approved_at = @now, expires_at = @expires_at WHERE id = @id AND status = 'pending'",
      ),
      touch: db.prepare('UPDATE sessions SET last_seen_at = @now, expires_at = @expires_at WHERE id = @id'),
      touchSeen: db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?'),
      rename: db.prepare("UPDATE sessions SET device_name = ? WHERE id = ? AND status IN ('active', 'pending')"),
      pendingAll: db.prepare(`SELECT s.*, u.username, u.display_name FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.status = 'pending' AND s.expires_at > ? ORDER BY s.created_at`),
      pendingOfUser: db.prepare(`SELECT s.*, u.username, u.display_name FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.status = 'pending' AND s.user_id = ? AND s.expires_at > ? ORDER BY s.created_at`),
      expireStale: db.prepare(
        "UPDATE sessions SET status = 'revoked', ended_at = @now, ended_reason = 'expired' WHERE status IN ('active', 'pending') AND expires_at <= @now",
      ),
      endAllLive: db.prepare(
        "UPDATE sessions SET status = 'revoked', ended_at = @now, ended_reason = @reason WHERE status IN ('active', 'pending')",
      ),
      purgeEnded: db.prepare("DELETE FROM sessions WHERE status IN ('revoked', 'denied') AND ended_at < ?"),
    };
  }

  insert(row: Omit<SessionRow, 'ended_at' | 'ended_reason'>): void {
    this.stmts.insert.run(row);
  }

  byId(id: string): SessionRow | undefined {
    return this.stmts.byId.get(id) as SessionRow | undefined;
  }

  listLive(userId: string): SessionRow[] {
    return this.stmts.listLive.all(userId) as SessionRow[];
  }

  /** Every account's live sessions, account by account, newest first within each. */
  listLiveAll(): PendingDeviceRow[] {
    return this.stmts.listLiveAll.all() as PendingDeviceRow[];
  }

  liveIdsOfUser(userId: string): string[] {
    return (this.stmts.liveIdsOfUser.all(userId) as { id: string }[]).map((r) => r.id);
  }

  /** Ends a live session; false when it had already ended. */
  end(id: string, status: 'revoked' | 'denied', reason: string, now: number): boolean {
    return (this.stmts.end.run({ id, status, reason, now }) as { changes: number }).changes === 1;
  }

  /** Ends every live session at once (the token key was replaced); answers how many. */
  endAllLive(reason: string, now: number): number {
    return (this.stmts.endAllLive.run({ reason, now }) as { changes: number }).changes;
  }

  approve(id: string, now: number, expiresAt: number): boolean {
    return (this.stmts.approve.run({ id, now, expires_at: expiresAt }) as { changes: number }).changes === 1;
  }

  touch(id: string, now: number, expiresAt: number): void {
    this.stmts.touch.run({ id, now, expires_at: expiresAt });
  }

  markSeen(id: string, now: number): void {
    this.stmts.touchSeen.run(now, id);
  }

  /** Names a live session's device; false when it has ended. */
  rename(id: string, deviceName: string): boolean {
    return (this.stmts.rename.run(deviceName, id) as { changes: number }).changes === 1;
  }

  pending(userId: string | null, now: number): PendingDeviceRow[] {
    return (userId === null ? this.stmts.pendingAll.all(now) : this.stmts.pendingOfUser.all(userId, now)) as PendingDeviceRow[];
  }

  expireStale(now: number): number {
    return (this.stmts.expireStale.run({ now }) as { changes: number }).changes;
  }

  purgeEndedBefore(cutoff: number): number {
    return (this.stmts.purgeEnded.run(cutoff) as { changes: number }).changes;
  }
}

export interface RefreshTokenRow {
  token_hash: string;
  session_id: string;
  created_at: number;
  used_at: number | null;
}

export class RefreshTokensRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare('INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?, ?, ?)'),
      byHash: db.prepare('SELECT * FROM refresh_tokens WHERE token_hash = ?'),
      markUsed: db.prepare('UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL'),
      anyForSession: db.prepare('SELECT 1 FROM refresh_tokens WHERE session_id = ? LIMIT 1'),
    };
  }

  insert(hash: string, sessionId: string, now: number): void {
    this.stmts.insert.run(hash, sessionId, now);
  }

  byHash(hash: string): RefreshTokenRow | undefined {
    return this.stmts.byHash.get(hash) as RefreshTokenRow | undefined;
  }

  /** True only for the one caller that found the token unused. */
  markUsed(hash: string, now: number): boolean {
    return (this.stmts.markUsed.run(now, hash) as { changes: number }).changes === 1;
  }

  /** Whether the session was ever given a refresh token. */
  anyForSession(sessionId: string): boolean {
    return this.stmts.anyForSession.get(sessionId) !== undefined;
  }
}
