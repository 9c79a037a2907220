import { desktopBridge, localOwnerTokens } from './desktop.ts';
import { errorOf, networkError, type ApiError } from './error-messages.ts';
import { withCrossTabLock } from './lock.ts';
import { readRefreshToken, writeRefreshToken } from './refresh-token-store.ts';
import type { TokenResponse, User } from './types.ts';

/**
 * Who is signed in, and their tokens. The access token lives in this tab's memory and its
 * sessionStorage, so a reload needs no refresh: a refresh cut short by a reload (pulling a page
 * down on a slow network) would spend the refresh token without keeping the one it was traded
 * for, and the next load's refresh would then read as a replay and end the session. The
 * refresh token is in IndexedDB (refresh-token-store.ts), shared by the tabs of this browser,
 * and is only ever read and spent under a cross-tab lock (see lock.ts), so no two tabs spend
 * the same one. localStorage holds who is signed in (never a token): its storage events tell
 * the other tabs. On a 401 exactly one refresh runs per tab and every request waiting on it
 * gets its result.
 */
export type SessionState =
  { kind: 'restoring' } | { kind: 'signed-in'; user: User; sessionId: string } | { kind: 'signed-out'; reason: string | null };

interface Stored {
  session_id: string;
  user: User;
  /** Only in what an earlier version stored; read once, then kept in IndexedDB. */
  refresh_token?: string;
}

const STORAGE_KEY = 'hearth.session';
/** In sessionStorage: this tab's access token, for its next load. */
const TAB_ACCESS_KEY = 'hearth.access';
const API = '/api/v1';
/** Refresh this long before the access token expires (at most a third of its life), so a request rarely meets a 401. */
const EARLY_MS = 60_000;

interface Access {
  token: string;
  expiresAt: number;
  early: number;
}

/** This tab's own storage; null where the browser refuses it (some private modes). */
function tabStorage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

function readStored(): Stored | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? (JSON.parse(raw) as Stored) : null;
  } catch {
    return null;
  }
}

/**
 * Whether a family member's session is kept in this browser, read without a request: a link's
 * page offers "Keep a copy" then, and uses the session only when it is tapped.
 */
export function sessionKeptHere(): boolean {
  return readStored() !== null;
}

class Session {
  private access: Access | null = null;
  private readonly tab = tabStorage();
  private refreshing: Promise<string | null> | null = null;
  private state: SessionState;
  private readonly listeners = new Set<() => void>();

  constructor() {
    const stored = readStored();
    // The desktop window asks its bridge first: no sign-in screen flashes by before that answer.
    this.state = stored || desktopBridge() ? { kind: 'restoring' } : { kind: 'signed-out', reason: null };
    if (typeof window !== 'undefined') window.addEventListener('storage', (event) => this.onStorage(event));
  }

  current = (): SessionState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Takes a token pair from sign-in, setup, approval or refresh. This tab uses it at once;
   * the other tabs hear of it (localStorage) only once the refresh token is committed where
   * they will read it, so none of them finds a session without its token.
   */
  adopt(tokens: TokenResponse): Promise<void> {
    const stored: Stored = { session_id: tokens.session_id, user: tokens.user };
    const persisted = writeRefreshToken(tokens.refresh_token).then(() => localStorage.setItem(STORAGE_KEY, JSON.stringify(stored)));
    // Callers that do not wait (sign-in screens) must not leave a rejection unhandled.
    persisted.catch(() => undefined);
    // A phone whose clock is off sees a token already expired, or living for days: then rely
    // on the server's 401 rather than on this clock.
    const lifetime = tokens.expires_at - Date.now();
    const expiresAt = lifetime > 0 && lifetime < 86_400_000 ? tokens.expires_at : Date.now() + 10 * 60_000;
    this.access = { token: tokens.access_token, expiresAt, early: Math.min(EARLY_MS, (expiresAt - Date.now()) / 3) };
    this.keepForReload(tokens.session_id);
    this.set({ kind: 'signed-in', user: tokens.user, sessionId: tokens.session_id });
    return persisted;
  }

  /** After the account changed (display name, password, 2FA): what the app routes on. */
  updateUser(user: Partial<User>): void {
    const stored = readStored();
    if (!stored || this.state.kind !== 'signed-in') return;
    const next = { ...stored.user, ...user } as User;
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ ...stored, user: next }));
    this.set({ ...this.state, user: next });
  }

  /** A valid access token for a request, refreshing first when it is about to expire. */
  async accessToken(): Promise<string | null> {
    if (this.fresh()) return this.access!.token;
    if (!readStored()) return this.access?.token ?? null;
    return this.refresh(this.access?.token ?? null);
  }

  /**
   * One refresh at a time in this tab; callers that saw `stale` fail together wait on it. A
   * caller whose token was already replaced gets the new one without another refresh.
   */
  refresh(stale: string | null): Promise<string | null> {
    if (this.fresh() && this.access!.token !== stale) return Promise.resolve(this.access!.token);
    this.refreshing ??= this.runRefresh().finally(() => (this.refreshing = null));
    return this.refreshing;
  }

  private keepForReload(sessionId: string): void {
    try {
      this.tab?.setItem(TAB_ACCESS_KEY, JSON.stringify({ session_id: sessionId, ...this.access }));
    } catch {
      // Storage full or refused: the next load refreshes instead.
    }
  }

  /** The access token this tab kept before a reload, if it is still fresh and of the stored session. */
  private keptAccess(sessionId: string): Access | null {
    try {
      const kept = JSON.parse(this.tab?.getItem(TAB_ACCESS_KEY) ?? 'null') as (Access & { session_id: string }) | null;
      if (!kept || kept.session_id !== sessionId || typeof kept.token !== 'string') return null;
      const access = { token: kept.token, expiresAt: kept.expiresAt, early: kept.early };
      return access.expiresAt - Date.now() > access.early ? access : null;
    } catch {
      return null;
    }
  }

  private fresh(): boolean {
    return this.access !== null && this.access.expiresAt - Date.now() > this.access.early;
  }

  /**
   * After the server refused something this token should open (a WebSocket handshake, where
   * the browser hides the status): asks plainly, and a 401 goes through the one refresh, which
   * either renews the token or ends the session here with the server's reason.
   */
  async confirm(token: string): Promise<void> {
    const response = await fetch(`${API}/me`, { headers: { Authorization: `Bearer ${token}` } }).catch(() => null);
    if (response?.status === 401) await this.refresh(token).catch(() => undefined);
  }

  /** Ends the session on this device: the server forgets it, then this browser does. */
  async signOut(): Promise<void> {
    const token = this.access?.token;
    if (token) {
      await fetch(`${API}/auth/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
    }
    this.forget(null);
  }

  /**
   * The server ended the session (revoked, refresh refused): back to the sign-in screen. Once
   * signed out, a later end without a reason keeps the first one's: a request still in flight
   * when the session ended comes back refused and, finding no token left, ended it again, and
   * the sign-in screen lost "You were signed out on this device."
   */
  forget(reason: string | null): void {
    this.access = null;
    localStorage.removeItem(STORAGE_KEY);
    this.tab?.removeItem(TAB_ACCESS_KEY);
    void writeRefreshToken(null).catch(() => undefined);
    this.set({ kind: 'signed-out', reason: reason ?? (this.state.kind === 'signed-out' ? this.state.reason : null) });
  }

  private async runRefresh(): Promise<string | null> {
    return withCrossTabLock('refresh', async () => {
      // Read inside the lock: another tab may have rotated the token while this one waited.
      const stored = readStored();
      const refreshToken = stored ? ((await readRefreshToken()) ?? stored.refresh_token ?? null) : null;
      if (!refreshToken) {
        this.forget(null);
        return null;
      }
      let response: Response;
      try {
        response = await fetch(`${API}/auth/refresh`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ refresh_token: refreshToken }),
          signal: AbortSignal.timeout(12_000),
        });
      } catch {
        // No answer: the token may or may not have been spent; keep it and let the caller retry.
        throw networkError();
      }
      if (response.ok) {
        const tokens = (await response.json()) as TokenResponse;
        // Committed before the lock is let go: the next holder must read this token, not the spent one.
        await this.adopt(tokens);
        return tokens.access_token;
      }
      const error: ApiError = await errorOf(response);
      if (response.status === 401) {
        this.forget(error.message);
        return null;
      }
      throw error;
    });
  }

  private onStorage(event: StorageEvent): void {
    if (event.key !== STORAGE_KEY && event.key !== null) return;
    const stored = readStored();
    if (!stored) {
      // Signed out in another tab.
      if (this.state.kind !== 'signed-out') this.forget(null);
      return;
    }
    if (this.state.kind === 'signed-in' && stored.user.id !== this.state.user.id) {
      // Someone else signed in in another tab: nothing of this account may stay on screen.
      window.location.reload();
    } else if (this.state.kind === 'signed-out') {
      // Signed in in another tab: join that session.
      this.access = null;
      this.set({ kind: 'signed-in', user: stored.user, sessionId: stored.session_id });
    }
  }

  private set(state: SessionState): void {
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  /**
   * The desktop window signs in as the owner at this PC, without a password or approval.
   * False where there is no such bridge, or no owner yet (first run: setup comes first).
   */
  async openAtThisPc(): Promise<boolean> {
    const tokens = await localOwnerTokens();
    if (tokens) await this.adopt(tokens).catch(() => undefined);
    return tokens !== null;
  }

  /**
   * At start: the desktop window's own session; else a stored one, with the access token this
   * tab kept while it is fresh, or made live with a first refresh.
   */
  async restore(): Promise<void> {
    if (await this.openAtThisPc()) return;
    const stored = readStored();
    if (!stored) {
      if (this.state.kind === 'restoring') this.set({ kind: 'signed-out', reason: null });
      return;
    }
    const kept = this.keptAccess(stored.session_id);
    if (kept) {
      this.access = kept;
      this.set({ kind: 'signed-in', user: stored.user, sessionId: stored.session_id });
      return;
    }
    // The stored account shows at once, so its first screen is drawn while the session is renewed
    // rather than after: every request waits for this one refresh, which either renews the
    // session or ends it with the server's reason (back to sign-in). Offline or with the server
    // away, the account stays shown and its requests say they cannot reach it.
    this.set({ kind: 'signed-in', user: stored.user, sessionId: stored.session_id });
    await this.refresh(null).catch(() => undefined);
  }
}

export const session = new Session();
