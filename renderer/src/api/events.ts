import type { EventMessage, EventType } from '../../../server/src/contract/events.ts';
import { session } from './session.ts';

type Listener = (message: EventMessage) => void;

/** The server closes a revoked session's sockets with this code (see the gateway). */
const CLOSE_SESSION_REVOKED = 4001;
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 20_000, 30_000];

export type Connection = 'connecting' | 'open' | 'closed';

/**
 * The event channel: one WebSocket per tab while signed in, reconnecting with backoff. After a
 * reconnect the listeners hear `reconnected`, so every open view reloads what it may have
 * missed while the socket was down.
 */
class Events {
  private socket: WebSocket | null = null;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private wanted = false;
  private everOpened = false;
  private readonly listeners = new Set<Listener>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly firstOpenListeners = new Set<(openedAt: number) => void>();
  private readonly statusListeners = new Set<() => void>();
  private status: Connection = 'closed';

  start(): void {
    if (this.wanted) return;
    this.wanted = true;
    void this.connect();
  }

  stop(): void {
    this.wanted = false;
    this.everOpened = false;
    if (this.timer) clearTimeout(this.timer);
    this.socket?.close(1000);
    this.socket = null;
    this.setStatus('closed');
  }

  on(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener);
    return () => this.reconnectListeners.delete(listener);
  }

  /**
   * The socket's first open since start, with its time (Date.now()): an event sent after a view
   * loaded and before the socket was up is lost like one sent while it was down.
   */
  onFirstOpen(listener: (openedAt: number) => void): () => void {
    this.firstOpenListeners.add(listener);
    return () => this.firstOpenListeners.delete(listener);
  }

  subscribeStatus = (listener: () => void) => {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  };

  currentStatus = (): Connection => this.status;

  private async connect(): Promise<void> {
    this.setStatus('connecting');
    const token = await session.accessToken().catch(() => null);
    if (!this.wanted) return;
    if (token === null) return this.retry();
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // A browser cannot put headers on a WebSocket: this is one of the four routes that take the token in the URL.
    const socket = new WebSocket(`${scheme}://${location.host}/api/v1/ws?access_token=${encodeURIComponent(token)}`);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      const again = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setStatus('open');
      if (again) for (const listener of this.reconnectListeners) listener();
      else for (const listener of this.firstOpenListeners) listener(Date.now());
    };
    socket.onmessage = (event) => {
      let message: EventMessage;
      try {
        message = JSON.parse(String(event.data)) as EventMessage;
      } catch {
        return;
      }
      // Every session of the account hears of each one that ends (a devices list follows it):
      // only the end of this one signs this device out.
      if (message.type === 'session.revoked' && isThisSession(message as EventMessage<'session.revoked'>)) {
        this.stop();
        session.forget(revokedSentence(message as EventMessage<'session.revoked'>));
        return;
      }
      for (const listener of this.listeners) listener(message);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (event.code === CLOSE_SESSION_REVOKED) {
        this.stop();
        session.forget('You were signed out on this device.');
        return;
      }
      if (!this.wanted) return;
      // A refused handshake looks like a network error to the page; a session ended before
      // the socket was up must still reach the sign-in screen, not retry forever.
      if (!opened) void session.confirm(token).finally(() => this.wanted && this.retry());
      else this.retry();
    };
  }

  private retry(): void {
    this.setStatus('closed');
    const delay = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)]!;
    this.attempt += 1;
    // A little jitter, so phones waking together do not knock at once.
    this.timer = setTimeout(() => void this.connect(), delay * (0.8 + Math.random() * 0.4));
  }

  private setStatus(status: Connection): void {
    if (this.status === status) return;
    this.status = status;
    for (const listener of this.statusListeners) listener();
  }
}

function isThisSession(message: EventMessage<'session.revoked'>): boolean {
  const current = session.current();
  // Not signed in (or still restoring): nothing to keep, so any end is taken as ours.
  return current.kind !== 'signed-in' || current.sessionId === message.payload.session_id;
}

function revokedSentence(message: EventMessage<'session.revoked'>): string | null {
  switch (message.payload.reason) {
    case 'logout':
      return null;
    case 'password_changed':
      return 'Your password was changed, so this device was signed out. Sign in with the new password.';
    case 'password_reset':
      return 'The owner reset your password. Sign in with the temporary password you were given.';
    case 'account_disabled':
      return 'This account was switched off by the owner.';
    case 'refresh_reuse':
      return 'For your safety this device was signed out. Please sign in again.';
    default:
      return 'You were signed out on this device.';
  }
}

export const events = new Events();
export type { EventMessage, EventType };
