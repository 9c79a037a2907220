import crypto from 'node:crypto';
import type { AdminSession, PendingResponse, Session, TokenResponse } from '../../contract/identity-responses.ts';
import type { SessionRevokeReason } from '../../contract/events.ts';
import type { TokenScope } from './access-tokens.ts';
import { AppError } from '../../app-error.ts';
import { storageFaultOf } from '../../store/common/storage-faults.ts';
import type { SessionRow } from '../../store/database/sessions.repo.ts';
import type { UserRow } from '../../store/database/users.repo.ts';
import { requireAdmin, type Actor, type ClientInfo, type ServiceDeps } from '../common/context.ts';
import { toUserSummary } from './user-dto.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { describeDevice } from './device-names.ts';
import { hashSecret, newId, newSecret } from '../common/secrets.ts';
import { checkReadableName, withoutSpoofingCharacters } from '../common/readable-names.ts';

export interface DeviceInfo {
  device_name?: string | null | undefined;
  platform?: string | null | undefined;
  /** The model the browser reported through Client Hints, for the name the server gives the device. */
  device_model?: string | null | undefined;
}

/** A device name a person typed: the lists show it on one line. */
const MAX_DEVICE_NAME = 64;

/** How often a session's "last seen" is written while it is only being used, not refreshed. */
const SEEN_WRITE_INTERVAL_MS = 60_000;

/**
 * Sessions and their tokens: opening, authenticating, rotating, listing and ending. Other
 * services open and end sessions through here so every end emits `session.revoked`.
 */
export class SessionService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly pairingKey: Buffer,
  ) {}

  open(user: UserRow, client: ClientInfo, device: DeviceInfo, status: 'active' | 'pending'): SessionRow {
    const now = this.deps.now();
    // Not ours to refuse, but shown beside a device waiting for approval: it may not dress up.
    const userAgent = clip(client.userAgent === null ? null : withoutSpoofingCharacters(client.userAgent), 512);
    const model = device.device_model ? withoutSpoofingCharacters(device.device_model) : null;
    const row = {
      id: newId(),
      user_id: user.id,
      status,
      // A client that gives no name gets one from its browser: four phones are not four "Chrome on Android".
      device_name: clip(device.device_name) ?? clip(describeDevice(userAgent, model)),
      platform: clip(device.platform),
      user_agent: userAgent,
      ip: client.ip,
      created_at: now,
      last_seen_at: now,
      approved_at: status === 'active' ? now : null,
      expires_at: now + (status === 'active' ? this.deps.config.refreshTokenTtlMs : this.deps.config.pendingTokenTtlMs),
    };
    this.deps.store.sessions.insert(row);
    return { ...row, ended_at: null, ended_reason: null };
  }

  /** A fresh refresh token (stored hashed) and access token for a live session. */
  issueTokens(session: SessionRow, user: UserRow): TokenResponse {
    const now = this.deps.now();
    const refreshToken = newSecret();
    this.deps.store.refreshTokens.insert(hashSecret(refreshToken), session.id, now);
    return this.tokenResponse(session, user, refreshToken, now);
  }

  pendingResponse(session: SessionRow, user: Pick<UserRow, 'role'>): PendingResponse {
    const access = this.deps.accessTokens.sign({
      sessionId: session.id,
      scope: 'pending',
      expiresAt: session.expires_at,
    });
    return {
      status: 'pending',
      session_id: session.id,
      access_token: access,
      pairing_code: this.pairingCode(session.id),
      // Only an owner with no other device has nobody to approve it: the waiting screen offers
      // "Owner locked out?" to owners alone. The password was right, so this tells no stranger.
      owner: user.role === 'admin',
    };
  }

  /**
   * Six digits derived from a pending session with a server key: the waiting phone shows
   * them and the console shows them beside the request, so the owner approves the device in
   * hand and not a look-alike request sent at the same moment. Nothing to store; not guessable
   * from the session id.
   */
  pairingCode(sessionId: string): string {
    const mac = crypto.createHmac('sha256', this.pairingKey).update(`pairing-code:${sessionId}`).digest();
    return String(mac.readUInt32BE(0) % 1_000_000).padStart(6, '0');
  }

  /** The actor behind an access token, or 401 when the token or its session is dead. */
  authenticate(token: string): Actor & { sessionStatus: SessionRow['status'] } {
    const now = this.deps.now();
    const claims = this.deps.accessTokens.verify(token, now);
    if (!claims) throw new AppError('invalid_token');
    const { session, user } = this.live(claims.sessionId, claims.scope, now);
    if (claims.scope === 'full' && now - session.last_seen_at > SEEN_WRITE_INTERVAL_MS) {
      try {
        this.deps.store.sessions.markSeen(session.id, now);
      } catch (error) {
        // "Last seen" is bookkeeping: on a full disk every request still gets through.
        if (storageFaultOf(error) === null) throw error;
      }
    }
    return {
      userId: user.id,
      sessionId: session.id,
      role: user.role,
      scope: claims.scope,
      mustChangePassword: user.must_change_password,
      sessionStatus: session.status,
    };
  }

  /**
   * The actor of a session that is signed in right now, for a token made on its behalf (a
   * node's URL token): ending the session, or disabling the account, ends that token too.
   */
  liveActor(sessionId: string): Actor {
    const { session, user } = this.live(sessionId, 'full', this.deps.now());
    return { userId: user.id, sessionId: session.id, role: user.role, scope: 'full', mustChangePassword: user.must_change_password };
  }

  private live(sessionId: string, scope: TokenScope, now: number): { session: SessionRow; user: UserRow } {
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || session.expires_at <= now) throw new AppError('invalid_token');
    const live = scope === 'full' ? session.status === 'active' : session.status !== 'revoked';
    if (!live) throw new AppError('invalid_token');
    const user = this.deps.store.users.byId(session.user_id);
    if (!user || user.disabled) throw new AppError('invalid_token');
    return { session, user };
  }

  /**
   * Rotates a refresh token. A token presented a second time means two parties hold it, so
   * the whole session ends: the thief's copy and the owner's both stop working.
   */
  refresh(refreshToken: string, client: ClientInfo): TokenResponse {
    const { store, rateLimiter } = this.deps;
    const addressBucket = `refresh:ip:${addressKey(client.ip)}`;
    rateLimiter.check([addressBucket]);
    const now = this.deps.now();
    const hash = hashSecret(refreshToken);
    type Outcome = 'invalid' | { reused: SessionRow } | { tokens: TokenResponse };
    const outcome = store.transaction((): Outcome => {
      const token = store.refreshTokens.byHash(hash);
      const session = token ? store.sessions.byId(token.session_id) : undefined;
      if (!token || !session || session.status !== 'active' || session.expires_at <= now) return 'invalid';
      if (token.used_at !== null || !store.refreshTokens.markUsed(hash, now)) {
        store.sessions.end(session.id, 'revoked', 'refresh_reuse', now);
        return { reused: session };
      }
      const user = store.users.byId(session.user_id);
      if (!user || user.disabled) return 'invalid';
      store.sessions.touch(session.id, now, now + this.deps.config.refreshTokenTtlMs);
      return { tokens: this.issueTokens(session, user) };
    });
    if (outcome === 'invalid') {
      rateLimiter.fail([addressBucket]);
      throw new AppError('invalid_refresh_token');
    }
    if ('reused' in outcome) {
      this.announceEnded(outcome.reused, 'refresh_reuse');
      this.deps.log.warn('refresh token reused; session revoked', { session_id: outcome.reused.id });
      throw new AppError('refresh_token_reused');
    }
    return outcome.tokens;
  }

  list(actor: Actor): Session[] {
    return this.deps.store.sessions.listLive(actor.userId).map((s) => toSession(s, actor));
  }

  /** Every account's live sessions, for the owner's console. */
  listAll(actor: Actor): AdminSession[] {
    requireAdmin(actor);
    return this.deps.store.sessions
      .listLiveAll()
      .map((s) => ({ ...toSession(s, actor), user_id: s.user_id, username: s.username, display_name: s.display_name }));
  }

  /** Renames one of the caller's own devices ("Grandma's tablet"); others' sessions do not exist for them. */
  rename(actor: Actor, sessionId: string, deviceName: string): Session {
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || session.user_id !== actor.userId) throw new AppError('not_found');
    this.store(session, deviceName);
    return toSession(this.deps.store.sessions.byId(sessionId)!, actor);
  }

  /** The owner names any account's device, from the console's list. */
  renameAny(actor: Actor, sessionId: string, deviceName: string): AdminSession {
    requireAdmin(actor);
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session) throw new AppError('not_found');
    this.store(session, deviceName);
    const row = this.deps.store.sessions.listLiveAll().find((s) => s.id === sessionId)!;
    return { ...toSession(row, actor), user_id: row.user_id, username: row.username, display_name: row.display_name };
  }

  private store(session: SessionRow, deviceName: string): void {
    const name = deviceName.normalize('NFC').trim();
    if (name === '') throw new AppError('invalid_name', 'A device name cannot be empty.', { field: 'device_name' });
    if ([...name].length > MAX_DEVICE_NAME)
      throw new AppError('invalid_name', 'A device name is up to 64 characters.', { field: 'device_name' });
    checkReadableName(name, 'device_name');
    // An ended session is gone from every list: renaming it is renaming nothing.
    if (!this.deps.store.sessions.rename(session.id, name)) throw new AppError('not_found');
  }

  /** The owner signs out any account's device (a lost phone, a device nobody recognises). */
  revokeAny(actor: Actor, sessionId: string): void {
    requireAdmin(actor);
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || (session.status !== 'active' && session.status !== 'pending')) throw new AppError('not_found');
    this.end(session.id, 'signed_out');
  }

  /** Signs out one of the caller's own sessions; others' sessions do not exist for them. */
  revokeOwn(actor: Actor, sessionId: string): void {
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || session.user_id !== actor.userId || (session.status !== 'active' && session.status !== 'pending')) {
      throw new AppError('not_found');
    }
    this.end(session.id, 'signed_out');
  }

  logout(actor: Actor): void {
    this.end(actor.sessionId, 'logout');
  }

  /** Ends a live session and tells its sockets; false when it had already ended. */
  end(sessionId: string, reason: SessionRevokeReason, status: 'revoked' | 'denied' = 'revoked'): boolean {
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || !this.deps.store.sessions.end(sessionId, status, reason, this.deps.now())) return false;
    this.announceEnded(session, reason);
    return true;
  }

  /**
   * Signs the account out everywhere but `keepSessionId`: a password changed or reset, the
   * account switched off. Its drive passwords go too (a drive is a device signed in as the
   * account, and one made by whoever knew the old password must not outlive it); the session
   * kept makes new ones.
   */
  endAllOf(userId: string, reason: SessionRevokeReason, keepSessionId?: string): void {
    for (const id of this.deps.store.sessions.liveIdsOfUser(userId)) {
      if (id !== keepSessionId) this.end(id, reason);
    }
    const drives = this.deps.store.davPasswords.removeAllOf(userId);
    if (drives > 0) this.deps.log.info('drive passwords revoked', { user_id: userId, reason, count: drives });
  }

  /** Periodic upkeep: end idle sessions, forget long-ended ones. */
  expireStale(): void {
    const now = this.deps.now();
    this.deps.store.sessions.expireStale(now);
    this.deps.store.sessions.purgeEndedBefore(now - this.deps.config.refreshTokenTtlMs);
  }

  private announceEnded(session: SessionRow, reason: SessionRevokeReason): void {
    this.deps.bus.publish('session.revoked', { session_id: session.id, reason }, { users: [session.user_id] });
  }

  private tokenResponse(session: SessionRow, user: UserRow, refreshToken: string, now: number): TokenResponse {
    const expiresAt = now + this.deps.config.accessTokenTtlMs;
    return {
      access_token: this.deps.accessTokens.sign({ sessionId: session.id, scope: 'full', expiresAt }),
      refresh_token: refreshToken,
      expires_at: expiresAt,
      session_id: session.id,
      user: toUserSummary(user),
    };
  }
}

function clip(value: string | null | undefined, max = 100): string | null {
  if (value === null || value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : [...trimmed].slice(0, max).join('');
}

function toSession(s: SessionRow, actor: Actor): Session {
  return {
    id: s.id,
    device_name: s.device_name,
    platform: s.platform,
    user_agent: s.user_agent,
    ip: s.ip,
    created_at: s.created_at,
    last_seen_at: s.last_seen_at,
    approved_at: s.approved_at,
    status: s.status,
    current: s.id === actor.sessionId,
  };
}
