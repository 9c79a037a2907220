import type { DeviceStatusResponse, PendingDevice } from '../../contract/identity-responses.ts';
import { AppError } from '../../app-error.ts';
import type { PendingDeviceRow, SessionRow } from '../../store/database/sessions.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import type { SessionService } from './sessions.ts';

/** Forgives scheduling jitter in a client that polls exactly on the interval. */
const POLL_JITTER_MS = 250;

/** Device approval: a new sign-in waits until an admin or the account itself lets it in. */
export class DeviceService {
  private readonly lastPoll = new Map<string, number>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
  ) {}

  /**
   * Polled by the waiting device with its pending token; hands over the real tokens once
   * approved, and only once: a pending token that leaked (a shoulder, a log) is worth nothing
   * after the device took its pair, and can never mint a pair that kills the device's own.
   */
  pollStatus(actor: Actor, sessionId: string): DeviceStatusResponse {
    if (actor.scope !== 'pending') throw new AppError('forbidden');
    if (actor.sessionId !== sessionId) throw new AppError('not_found');
    this.throttle(sessionId);
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || session.status === 'revoked') throw new AppError('invalid_token');
    if (session.status === 'denied') throw new AppError('device_denied');
    if (session.status === 'pending') return { status: 'pending', pairing_code: this.sessions.pairingCode(session.id) };
    const user = this.deps.store.users.byId(session.user_id)!;
    // Checked and issued in one transaction: two polls at once cannot both take a pair.
    const tokens = this.deps.store.transaction(() => {
      if (this.deps.store.refreshTokens.anyForSession(session.id)) throw new AppError('tokens_already_issued');
      return this.sessions.issueTokens(session, user);
    });
    this.lastPoll.delete(sessionId);
    return { ...tokens, status: 'approved' };
  }

  listPending(actor: Actor): PendingDevice[] {
    this.requireFull(actor);
    const rows = this.deps.store.sessions.pending(actor.role === 'admin' ? null : actor.userId, this.deps.now());
    return rows.map((row) => ({ ...toPendingDevice(row), pairing_code: this.sessions.pairingCode(row.id) }));
  }

  approve(actor: Actor, sessionId: string): void {
    const session = this.decidable(actor, sessionId);
    const now = this.deps.now();
    if (!this.deps.store.sessions.approve(session.id, now, now + this.deps.config.refreshTokenTtlMs)) {
      throw new AppError('not_pending');
    }
    this.deps.bus.publish('device.approved', { session_id: session.id, user_id: session.user_id }, this.audience(session));
  }

  deny(actor: Actor, sessionId: string): void {
    const session = this.decidable(actor, sessionId);
    if (!this.sessions.end(session.id, 'device_denied', 'denied')) throw new AppError('not_pending');
    this.deps.bus.publish('device.denied', { session_id: session.id, user_id: session.user_id }, this.audience(session));
  }

  /** Admins decide for anyone; an account decides for itself from a full session. */
  private decidable(actor: Actor, sessionId: string): SessionRow {
    this.requireFull(actor);
    const session = this.deps.store.sessions.byId(sessionId);
    if (!session || (actor.role !== 'admin' && session.user_id !== actor.userId)) throw new AppError('not_found');
    if (session.status !== 'pending' || session.expires_at <= this.deps.now()) throw new AppError('not_pending');
    return session;
  }

  private throttle(sessionId: string): void {
    const now = this.deps.now();
    const last = this.lastPoll.get(sessionId);
    const interval = this.deps.config.devicePollIntervalMs;
    if (last !== undefined && now - last < interval - POLL_JITTER_MS) {
      throw new AppError('slow_down', undefined, {
        headers: { 'Retry-After': String(Math.ceil((interval - (now - last)) / 1000)) },
      });
    }
    this.lastPoll.set(sessionId, now);
    if (this.lastPoll.size > 10_000) this.forgetOldPolls(now);
  }

  private forgetOldPolls(now: number): void {
    for (const [id, at] of this.lastPoll) if (now - at > this.deps.config.devicePollIntervalMs) this.lastPoll.delete(id);
  }

  private requireFull(actor: Actor): void {
    if (actor.scope !== 'full') throw new AppError('pending_approval');
  }

  private audience(session: SessionRow) {
    return { users: [...new Set([session.user_id, ...this.deps.store.users.activeAdminIds()])] };
  }
}

function toPendingDevice(row: PendingDeviceRow): Omit<PendingDevice, 'pairing_code'> {
  return {
    id: row.id,
    user_id: row.user_id,
    username: row.username,
    display_name: row.display_name,
    device_name: row.device_name,
    platform: row.platform,
    user_agent: row.user_agent,
    ip: row.ip,
    created_at: row.created_at,
  };
}
