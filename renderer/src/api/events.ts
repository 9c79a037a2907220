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
  /** The lowest event count of the answers read before the socket first told its own. */
  private oldestAnswer: EventCount | null = null;
  /** The count the socket told as it last opened: an answer counted lower was read before an event it missed. */
  private openedAt: EventCount | null = null;
  /** The count of the last message heard on the socket: the next event counts one more, or some were dropped. */
  private heard: EventCount | null = null;
  private missTold: ReturnType<typeof setTimeout> | null = null;
  private readonly listeners = new Set<Listener>();
  private readonly reconnectListeners = new Set<() => void>();
  private readonly missedListeners = new Set<() => void>();
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
    this.oldestAnswer = null;
    this.openedAt = null;
    this.heard = null;
    if (this.missTold) clearTimeout(this.missTold);
    this.missTold = null;
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
   * An answer on screen was read before an event this tab never heard: sent after a view loaded
   * and before the socket was first up, it is lost like one sent while the socket was down. The
   * server's event counts tell (noteAnswer), so a page that missed nothing asks nothing again.
   */
  onMissed(listener: () => void): () => void {
    this.missedListeners.add(listener);
    return () => this.missedListeners.delete(listener);
  }

  /** An API answer's Hearth-Event-Count: the account's events counted as the server began to read it. */
  noteAnswer(header: string | null): void {
    const count = eventCount(header);
    // Noted even before start(): a view's first answer may come before the effect that starts the socket.
    if (count === null) return;
    if (this.openedAt === null) {
      const oldest = this.oldestAnswer;
      if (oldest === null || (count.start === oldest.start && count.n < oldest.n)) this.oldestAnswer = count;
      else if (count.start !== oldest.start) this.oldestAnswer = TWO_STARTS;
      return;
    }
    // Read before the socket opened and answered after: what changed in between never comes.
    // (Counted by another start of the server: it restarted, and the socket's reconnect reloads every view.)
    if (count.start === this.openedAt.start && count.n < this.openedAt.n) this.tellMissed();
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
    // event_count=1: the socket's first message is the account's event count (noteAnswer).
    const socket = new WebSocket(`${scheme}://${location.host}/api/v1/ws?access_token=${encodeURIComponent(token)}&event_count=1`);
    this.socket = socket;
    let opened = false;
    socket.onopen = () => {
      opened = true;
      const again = this.everOpened;
      this.everOpened = true;
      this.attempt = 0;
      this.setStatus('open');
      if (again) for (const listener of this.reconnectListeners) listener();
    };
    socket.onmessage = (event) => {
      let message: EventMessage;
      try {
        message = JSON.parse(String(event.data)) as EventMessage;
      } catch {
        return;
      }
      if (message.type === 'socket.opened') {
        this.opened(eventCount((message as EventMessage<'socket.opened'>).payload.event_count));
        return;
      }
      this.counted(eventCount((message as { event_count?: string }).event_count));
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

  private opened(count: EventCount | null): void {
    const first = this.openedAt === null;
    this.openedAt = count;
    this.heard = count;
    const oldest = this.oldestAnswer;
    this.oldestAnswer = null;
    // A reconnect reloads every view anyway (onReconnect).
    if (!first || count === null || oldest === null) return;
    if (oldest.start !== count.start || oldest.n < count.n) this.tellMissed();
  }

  /** An event's count: more than one past the last heard, the server dropped some for this socket (it fell behind). */
  private counted(count: EventCount | null): void {
    if (count === null) return;
    const last = this.heard;
    this.heard = count;
    if (last !== null && count.start === last.start && count.n > last.n + 1) this.tellMissed();
  }

  /** Told once for the answers that come together (a page's first loads). */
  private tellMissed(): void {
    if (this.missTold !== null) return;
    this.missTold = setTimeout(() => {
      this.missTold = null;
      for (const listener of this.missedListeners) listener();
    }, 0);
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

/** Hearth-Event-Count, `<start>.<n>`: a count compares only with one of the same start of the server. */
interface EventCount {
  start: string;
  n: number;
}

function eventCount(text: string | null | undefined): EventCount | null {
  const match = /^([0-9a-f]+)\.(\d+)$/.exec(text ?? '');
  return match ? { start: match[1]!, n: Number(match[2]) } : null;
}

/** Answers counted by two starts of the server: this tab may have missed events of either. */
const TWO_STARTS: EventCount = { start: 'two starts', n: 0 };

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
