import {
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationPage,
  type NotificationSettings,
} from '../../contract/notifications-responses.ts';
import { AppError } from '../../app-error.ts';
import type { NotificationRow } from '../../store/database/notifications.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { decodeCursor, pageLimit, type PageRequest } from '../common/paging.ts';
import { newId } from '../common/secrets.ts';

/** What one notification says, and what it is about (`topic`: one cause is told once, a burst once). */
export interface Telling {
  topic: string;
  title: string;
  body: string;
  /** A path inside the app. */
  link: string;
}

export interface TellOptions {
  /** Told already about this topic (ever): nothing new. */
  once?: boolean;
  /** Told about this topic within this long: that one is told again (its words changed, unread again), no new one. */
  coalesceMs?: number;
  /**
   * It is about these devices (sessions) alone: only they are pushed it. "This phone has not
   * backed up" buzzing the person's computer, or the phone that backed up yesterday, would be
   * wrong there. Unset: every device of the person that said yes.
   */
  devices?: readonly string[];
}

const DAY_MS = 24 * 60 * 60_000;
/**
 * A read notification is kept about a season (90 days): long enough to find again "what was that
 * album Dad shared?", short enough that the list stays about now. An unread one is kept a year,
 * so someone who rarely opens the app still finds what they missed, but nothing is kept for
 * ever on a family's PC. A silence that outlasts its notification (a phone never backed up
 * again) is told again by the next hourly check: a fair reminder, at most once a season.
 */
export const KEEP_READ_MS = 90 * DAY_MS;
export const KEEP_UNREAD_MS = 365 * DAY_MS;

/** Who hears of a notification as it is made: the Web Push sender (`devices`: only those sessions, when set). */
export type Teller = (userId: string, notification: Notification, devices?: readonly string[]) => void;

/**
 * Each account's notifications: made by the causes (causes.ts) for the one account they concern,
 * never for a kind the person turned off; listed newest first; read one by one or all at once.
 */
export class NotificationService {
  private tellers: Teller[] = [];

  constructor(private readonly deps: ServiceDeps) {}

  /** Pushes (and anything else outside the app) hear of each new notification. */
  onTold(teller: Teller): void {
    this.tellers.push(teller);
  }

  enabled(userId: string, kind: NotificationKind): boolean {
    return this.deps.store.notifications.settings(userId).get(kind) ?? true;
  }

  /** Makes a notification for one account, unless that kind is off for them or it was told already. */
  tell(userId: string, kind: NotificationKind, telling: Telling, options: TellOptions = {}): Notification | null {
    const { store } = this.deps;
    const user = store.users.byId(userId);
    if (!user || user.disabled || !this.enabled(userId, kind)) return null;
    const now = this.deps.now();
    const latest = store.notifications.latest(userId, kind, telling.topic);
    if (options.once && latest) return null;
    if (options.coalesceMs !== undefined && latest && now - latest.updated_at < options.coalesceMs) {
      store.notifications.retell(latest.id, telling, now);
      this.announce(userId, store.notifications.byId(latest.id, userId)!);
      return null;
    }
    const row: NotificationRow = { id: newId(), user_id: userId, kind, ...telling, created_at: now, updated_at: now, read_at: null };
    store.notifications.insert(row);
    const notification = this.announce(userId, row);
    for (const teller of this.tellers) teller(userId, notification, options.devices);
    return notification;
  }

  /** Old notifications leave every account's list (the hourly job): read ones after 90 days, any after a year. */
  prune(): number {
    const now = this.deps.now();
    return this.deps.store.notifications.prune(now - KEEP_READ_MS, now - KEEP_UNREAD_MS);
  }

  /** The last time this account was told of the topic, if ever. */
  lastTold(userId: string, kind: NotificationKind, topic: string): number | null {
    return this.deps.store.notifications.latest(userId, kind, topic)?.updated_at ?? null;
  }

  list(actor: Actor, request: PageRequest): NotificationPage {
    const { notifications } = this.deps.store;
    const limit = pageLimit(request.limit);
    const after = parseKey(decodeCursor(request.cursor));
    const rows = notifications.page(actor.userId, after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      items: page.map(toNotification),
      next_cursor: rows.length > limit && last ? Buffer.from(`${last.updated_at}:${last.id}`, 'utf8').toString('base64url') : null,
      unread_count: notifications.unreadCount(actor.userId),
    };
  }

  /** Marks some (the caller's own; others' ids change nothing) or all read; answers how many are left unread. */
  markRead(actor: Actor, which: readonly string[] | 'all'): { unread_count: number } {
    const { notifications } = this.deps.store;
    notifications.markRead(actor.userId, which, this.deps.now());
    const unread = notifications.unreadCount(actor.userId);
    this.deps.bus.publish('notification.read', { unread_count: unread }, { users: [actor.userId] });
    return { unread_count: unread };
  }

  settings(actor: Actor): NotificationSettings {
    const chosen = this.deps.store.notifications.settings(actor.userId);
    return {
      kinds: Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? true])) as NotificationSettings['kinds'],
    };
  }

  setSettings(actor: Actor, kinds: Partial<Record<NotificationKind, boolean>>): NotificationSettings {
    this.deps.store.transaction(() => {
      for (const [kind, on] of Object.entries(kinds)) {
        if (on !== undefined) this.deps.store.notifications.setSetting(actor.userId, kind, on);
      }
    });
    return this.settings(actor);
  }

  private announce(userId: string, row: NotificationRow): Notification {
    const notification = toNotification(row);
    const unread = this.deps.store.notifications.unreadCount(userId);
    this.deps.bus.publish('notification.created', { notification, unread_count: unread }, { users: [userId] });
    return notification;
  }
}

function parseKey(key: string | null): { at: number; id: string } | null {
  if (key === null) return null;
  const match = /^(\d{1,16}):([0-9A-Za-z]{1,64})$/.exec(key);
  if (!match) throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
  return { at: Number(match[1]), id: match[2]! };
}

function toNotification(row: NotificationRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    title: row.title,
    body: row.body,
    link: row.link,
    created_at: row.created_at,
    updated_at: row.updated_at,
    read_at: row.read_at,
  };
}
