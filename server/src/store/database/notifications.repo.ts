import type { Db } from './db.ts';
import { ITEM_REACHES_VIEWER } from './reach/album-reach.ts';

export interface NotificationRow {
  id: string;
  user_id: string;
  kind: string;
  topic: string;
  title: string;
  body: string;
  link: string;
  created_at: number;
  /** When it was last told: a burst of photos in an album brings its one notification up again. */
  updated_at: number;
  read_at: number | null;
}

export interface PushSubscriptionRow {
  id: string;
  user_id: string;
  session_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: number;
}

/** A photo added to an album by someone, as its notification names it. */
export interface NewAlbumItemRow {
  node_id: string;
  owner_id: string;
  added_by: string;
  added_at: number;
}

/** Notifications, each account's choice of kinds, and push subscriptions: SQL only (NotificationService has the rules). */
export class NotificationsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO notifications (id, user_id, kind, topic, title, body, link, created_at, updated_at, read_at)
        VALUES (@id, @user_id, @kind, @topic, @title, @body, @link, @created_at, @updated_at, @read_at)`),
      retell: db.prepare('UPDATE notifications SET title = @title, body = @body, updated_at = @at, read_at = NULL WHERE id = @id'),
      latest: db.prepare(`SELECT * FROM notifications WHERE user_id = @user AND kind = @kind AND topic = @topic
        ORDER BY updated_at DESC, id DESC LIMIT 1`),
      byId: db.prepare('SELECT * FROM notifications WHERE id = ? AND user_id = ?'),
      // Newest first: (updated_at, id) descending, after the cursor's pair.
      page: db.prepare(`SELECT * FROM notifications WHERE user_id = @user
        AND (@after_at IS NULL OR updated_at < @after_at OR (updated_at = @after_at AND id < @after_id))
        ORDER BY updated_at DESC, id DESC LIMIT @limit`),
      unread: db.prepare('SELECT count(*) AS n FROM notifications WHERE user_id = ? AND read_at IS NULL'),
      readSome: db.prepare(`UPDATE notifications SET read_at = @at WHERE user_id = @user AND read_at IS NULL
        AND id IN (SELECT value FROM json_each(@ids))`),
      readAll: db.prepare('UPDATE notifications SET read_at = @at WHERE user_id = @user AND read_at IS NULL'),
      settings: db.prepare('SELECT kind, enabled FROM notification_settings WHERE user_id = ?'),
      setSetting: db.prepare(`INSERT INTO notification_settings (user_id, kind, enabled) VALUES (@user, @kind, @enabled)
        ON CONFLICT (user_id, kind) DO UPDATE SET enabled = excluded.enabled`),
      // What others added to the album since `since` that the account sees there.
      newAlbumItems:
        db.prepare(`SELECT ai.node_id, n.owner_id, ai.added_by, ai.added_at FROM album_items ai JOIN nodes n ON n.id = ai.node_id
        WHERE ai.album_id = @album AND ai.added_at > @since AND ai.added_by != @viewer AND ${ITEM_REACHES_VIEWER}
        ORDER BY ai.added_at`),
      subscribe: db.prepare(`INSERT INTO push_subscriptions (id, user_id, session_id, endpoint, p256dh, auth, created_at)
        VALUES (@id, @user_id, @session_id, @endpoint, @p256dh, @auth, @created_at)
        ON CONFLICT (endpoint) DO UPDATE SET user_id = excluded.user_id, session_id = excluded.session_id,
          p256dh = excluded.p256dh, auth = excluded.auth`),
      subscription: db.prepare('SELECT * FROM push_subscriptions WHERE endpoint = ?'),
      subscriptionsOf: db.prepare('SELECT * FROM push_subscriptions WHERE user_id = ? ORDER BY created_at, id'),
      // Only devices still signed in: a signed-out phone is told nothing.
      deliverable: db.prepare(`SELECT p.* FROM push_subscriptions p JOIN sessions s ON s.id = p.session_id
        WHERE p.user_id = ? AND s.status = 'active'`),
      unsubscribe: db.prepare('DELETE FROM push_subscriptions WHERE id = @id AND (@user IS NULL OR user_id = @user)'),
      phoneBackedUp: db.prepare(`INSERT INTO phone_backups (session_id, user_id, backed_up_at) VALUES (@session, @user, @at)
        ON CONFLICT (session_id) DO UPDATE SET backed_up_at = excluded.backed_up_at`),
      // Phones still signed in whose last backup is older than @before.
      silentPhones: db.prepare(`SELECT pb.session_id, pb.user_id, pb.backed_up_at, s.device_name FROM phone_backups pb
        JOIN sessions s ON s.id = pb.session_id WHERE s.status = 'active' AND pb.backed_up_at < @before`),
      unsubscribeEndpoint: db.prepare('DELETE FROM push_subscriptions WHERE endpoint = ? AND user_id = ?'),
      prune: db.prepare(`DELETE FROM notifications
        WHERE (read_at IS NOT NULL AND updated_at < @read_before) OR updated_at < @any_before`),
    };
  }

  insert(row: NotificationRow): void {
    this.stmts.insert.run({ ...row });
  }

  retell(id: string, fields: { title: string; body: string }, at: number): void {
    this.stmts.retell.run({ id, ...fields, at });
  }

  latest(userId: string, kind: string, topic: string): NotificationRow | undefined {
    return this.stmts.latest.get({ user: userId, kind, topic }) as NotificationRow | undefined;
  }

  byId(id: string, userId: string): NotificationRow | undefined {
    return this.stmts.byId.get(id, userId) as NotificationRow | undefined;
  }

  page(userId: string, after: { at: number; id: string } | null, limit: number): NotificationRow[] {
    return this.stmts.page.all({ user: userId, after_at: after?.at ?? null, after_id: after?.id ?? null, limit }) as NotificationRow[];
  }

  unreadCount(userId: string): number {
    return Number((this.stmts.unread.get(userId) as { n: number }).n);
  }

  markRead(userId: string, ids: readonly string[] | 'all', at: number): number {
    const result =
      ids === 'all'
        ? this.stmts.readAll.run({ user: userId, at })
        : this.stmts.readSome.run({ user: userId, at, ids: JSON.stringify(ids) });
    return Number(result.changes);
  }

  settings(userId: string): Map<string, boolean> {
    const rows = this.stmts.settings.all(userId) as { kind: string; enabled: number }[];
    return new Map(rows.map((r) => [r.kind, r.enabled === 1]));
  }

  setSetting(userId: string, kind: string, enabled: boolean): void {
    this.stmts.setSetting.run({ user: userId, kind, enabled: enabled ? 1 : 0 });
  }

  newAlbumItems(albumId: string, viewerId: string, since: number): NewAlbumItemRow[] {
    return this.stmts.newAlbumItems.all({ album: albumId, viewer: viewerId, since }) as NewAlbumItemRow[];
  }

  subscribe(row: PushSubscriptionRow): PushSubscriptionRow {
    this.stmts.subscribe.run({ ...row });
    return this.stmts.subscription.get(row.endpoint) as PushSubscriptionRow;
  }

  subscriptionsOf(userId: string): PushSubscriptionRow[] {
    return this.stmts.subscriptionsOf.all(userId) as PushSubscriptionRow[];
  }

  deliverable(userId: string): PushSubscriptionRow[] {
    return this.stmts.deliverable.all(userId) as PushSubscriptionRow[];
  }

  /** Removes a subscription: the account's own (`userId`), or any (null: the push service said it is gone). */
  unsubscribe(id: string, userId: string | null): boolean {
    return Number(this.stmts.unsubscribe.run({ id, user: userId }).changes) === 1;
  }

  phoneBackedUp(sessionId: string, userId: string, at: number): void {
    this.stmts.phoneBackedUp.run({ session: sessionId, user: userId, at });
  }

  silentPhones(before: number): { session_id: string; user_id: string; backed_up_at: number; device_name: string | null }[] {
    return this.stmts.silentPhones.all({ before }) as {
      session_id: string;
      user_id: string;
      backed_up_at: number;
      device_name: string | null;
    }[];
  }

  /** Deletes the read ones last told before `readBefore` and any last told before `anyBefore`; answers how many. */
  prune(readBefore: number, anyBefore: number): number {
    return Number(this.stmts.prune.run({ read_before: readBefore, any_before: anyBefore }).changes);
  }

  unsubscribeEndpoint(endpoint: string, userId: string): boolean {
    return Number(this.stmts.unsubscribeEndpoint.run(endpoint, userId).changes) === 1;
  }
}
