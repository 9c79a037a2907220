import type { EventPayloads } from '../../contract/events.ts';
import type { BusEvent } from '../../events/bus.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { notifiable } from './notifiable.ts';
import type { NotificationService } from './notifications.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** New photos in an album within this long are one notification, told again. */
export const ALBUM_BURST_MS = HOUR;
/** A scheduled backup with no success for this long: its owners are told (the console warns at 3 days). */
export const BACKUP_STALE_MS = 2 * DAY;
/** A phone that ran "Back up this phone" and not again for this long: its person is told. */
export const PHONE_STALE_MS = 7 * DAY;
/** A sharing that began longer ago than this is not news (a server updated to tell notifications hears old albums change). */
const NEWS_MS = 10 * MINUTE;

/**
 * Turns what happens in the family's services into notifications, by listening to the events
 * they publish already (no service calls this): a grant, an album membership or partner sharing
 * towards you, photos others add to an album you are in, a phone waiting for an owner's yes, a
 * backup failing. `checkStale` is the hourly job's: backups that have not succeeded for two days.
 */
export class NotificationCauses {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly notifications: NotificationService,
  ) {
    // After every listener has heard the event itself: a notification about something never
    // reaches a socket before the event it tells of.
    deps.bus.subscribe((event) => queueMicrotask(() => this.safely(event)));
  }

  private safely(event: BusEvent): void {
    try {
      this.hear(event);
    } catch (caught) {
      this.deps.log.error('a notification could not be made', { type: event.message.type, error: String(caught) });
    }
  }

  private hear({ message }: BusEvent): void {
    switch (message.type) {
      case 'share.received':
        return this.grant(message.payload as EventPayloads['share.received']);
      case 'album.changed':
        return this.album((message.payload as EventPayloads['album.changed']).album_id);
      case 'partner_share.changed':
        return this.partner(message.payload as EventPayloads['partner_share.changed']);
      case 'device.pending':
        return this.device(message.payload as EventPayloads['device.pending']);
      case 'backup.progress':
        return this.backupRun((message.payload as EventPayloads['backup.progress']).run);
      default:
        return;
    }
  }

  private name(userId: string): string {
    const user = this.deps.store.users.byId(userId);
    return user ? (user.display_name ?? user.username) : 'Someone';
  }

  private grant({ node, role }: EventPayloads['share.received']): void {
    const { id, name, type, owner_id: ownerId } = node as { id: string; name: string; type: string; owner_id: string };
    const { store } = this.deps;
    if (!notifiable(store, { id, owner_id: ownerId })) return;
    for (const permission of store.permissions.ofNode(id)) {
      // The grantee of this event is the one whose grant was made (or changed) just now.
      if (this.deps.now() - permission.created_at > NEWS_MS) continue;
      this.notifications.tell(
        permission.user_id,
        'shared_with_you',
        {
          topic: `grant:${id}:${permission.created_at}`,
          title: `${this.name(permission.granted_by)} shared “${name}” with you`,
          body: role === 'viewer' ? 'You can look at it and download it.' : 'You can look at it and change it.',
          link: type === 'folder' ? `/files/${id}` : '/shared',
        },
        { once: true },
      );
    }
  }

  private album(albumId: string): void {
    const { store } = this.deps;
    const album = store.albums.byId(albumId);
    const owner = album && store.users.byId(album.owner_id);
    if (!album || !owner || owner.disabled) return;
    const now = this.deps.now();
    const members = store.albums.members(album.id);
    for (const member of members) {
      if (now - member.created_at > NEWS_MS) continue;
      this.notifications.tell(
        member.user_id,
        'shared_with_you',
        {
          topic: `album:${album.id}:member:${member.created_at}`,
          title: `${this.name(album.owner_id)} shared the album “${album.name}” with you`,
          body: member.role === 'contributor' ? 'You can look at its photos and add your own.' : 'You can look at its photos.',
          link: `/albums/${album.id}`,
        },
        { once: true },
      );
    }
    const joined = new Map<string, number>([[album.owner_id, album.created_at], ...members.map((m) => [m.user_id, m.created_at] as const)]);
    for (const [userId, joinedAt] of joined) this.albumPhotos(album, userId, joinedAt);
  }

  /** Photos someone else added that this member sees there, since they were last told (or joined). */
  private albumPhotos(album: { id: string; name: string }, userId: string, joinedAt: number): void {
    const { store } = this.deps;
    const topic = `album:${album.id}`;
    const last = store.notifications.latest(userId, 'album_new_photos', topic);
    const fresh = store.notifications.newAlbumItems(album.id, userId, Math.max(joinedAt, last?.updated_at ?? 0));
    if (!fresh.some((item) => notifiable(store, { id: item.node_id, owner_id: item.owner_id }))) return;
    // Told within the hour: that one notification counts the whole burst (from just before it was made).
    const burst = last && this.deps.now() - last.updated_at < ALBUM_BURST_MS;
    const items = burst ? store.notifications.newAlbumItems(album.id, userId, Math.max(joinedAt, last.created_at - 1_000)) : fresh;
    const shown = items.filter((item) => notifiable(store, { id: item.node_id, owner_id: item.owner_id }));
    const adders = [...new Set(shown.map((item) => item.added_by))].map((id) => this.name(id));
    const who = adders.length <= 2 ? adders.join(' and ') : `${adders.slice(0, 2).join(', ')} and others`;
    this.notifications.tell(
      userId,
      'album_new_photos',
      {
        topic,
        title: `New photos in “${album.name}”`,
        body: `${who} added ${shown.length === 1 ? 'a photo' : `${shown.length} photos`}.`,
        link: `/albums/${album.id}`,
      },
      { coalesceMs: ALBUM_BURST_MS },
    );
  }

  private partner({ owner_id: ownerId, partner_id: partnerId }: EventPayloads['partner_share.changed']): void {
    const share = this.deps.store.partners.get(ownerId, partnerId);
    if (!share || this.deps.now() - share.created_at > NEWS_MS) return;
    this.notifications.tell(
      partnerId,
      'shared_with_you',
      {
        topic: `partner:${ownerId}:${share.created_at}`,
        title: `${this.name(ownerId)} is sharing their photos with you`,
        body: 'They show in Photos, under Everyone’s.',
        link: '/gallery',
      },
      { once: true },
    );
  }

  private device(pending: EventPayloads['device.pending']): void {
    const device = pending.device_name ?? 'A new device';
    for (const ownerId of this.deps.store.users.activeAdminIds()) {
      this.notifications.tell(
        ownerId,
        'device_waiting',
        {
          topic: `device:${pending.session_id}`,
          title: `${this.name(pending.user_id)} is waiting to sign in`,
          body: `${device} waits for your yes in Devices.`,
          link: '/console/devices',
        },
        { once: true },
      );
    }
  }

  private backupRun(run: EventPayloads['backup.progress']['run']): void {
    if (run.state !== 'failed' || run.kind === 'restore') return;
    const destination = run.destination_id === null ? undefined : this.deps.store.backup.byId(run.destination_id);
    const where = destination ? ` to “${destination.name}”` : '';
    for (const ownerId of this.deps.store.users.activeAdminIds()) {
      this.notifications.tell(
        ownerId,
        'backup_failed',
        {
          topic: `run:${run.id}`,
          title: run.kind === 'verify' ? `Checking the backup${where} found a problem` : `The backup${where} did not finish`,
          body: run.error ?? 'Open Backups to see why.',
          link: '/console/backups',
        },
        { once: true },
      );
    }
  }

  /** The caller's phone ran "Back up this phone" just now. */
  phoneBackedUp(actor: Actor): void {
    this.deps.store.notifications.phoneBackedUp(actor.sessionId, actor.userId, this.deps.now());
  }

  /**
   * Phones silent for a week: their person is told once for each silence (in the bell on every
   * device), and pushed it on that phone alone: the one that should back up.
   */
  checkPhones(): void {
    const now = this.deps.now();
    for (const phone of this.deps.store.notifications.silentPhones(now - PHONE_STALE_MS)) {
      const days = Math.floor((now - phone.backed_up_at) / DAY);
      this.notifications.tell(
        phone.user_id,
        'phone_backup_stale',
        {
          topic: `phone:${phone.session_id}:${phone.backed_up_at}`,
          title: `${phone.device_name ?? 'Your phone'} has not backed up for ${days} days`,
          body: 'Open Photos on that phone and tap “Back up this phone”.',
          link: '/gallery',
        },
        { once: true, devices: [phone.session_id] },
      );
    }
  }

  /** Scheduled backups with no success for two days: their owners are told once for each (until one succeeds). */
  checkStale(): void {
    this.checkPhones();
    const { backup, users } = this.deps.store;
    const now = this.deps.now();
    for (const destination of backup.all()) {
      if (destination.daily_at === null) continue;
      const since = backup.lastSuccess(destination.id)?.finished_at ?? destination.created_at;
      if (now - since < BACKUP_STALE_MS) continue;
      const days = Math.floor((now - since) / DAY);
      for (const ownerId of users.activeAdminIds()) {
        this.notifications.tell(
          ownerId,
          'backup_stale',
          {
            topic: `stale:${destination.id}:${since}`,
            title: `No backup to “${destination.name}” for ${days} days`,
            body: 'Check that the backup drive is plugged in, or open Backups to see why.',
            link: '/console/backups',
          },
          { once: true },
        );
      }
    }
  }
}
