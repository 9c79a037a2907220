import { z } from 'zod';

/** What a person can be told; each can be turned off (off: not made, not pushed). */
export const NOTIFICATION_KINDS = [
  'shared_with_you',
  'album_new_photos',
  'device_waiting',
  'backup_failed',
  'backup_stale',
  'phone_backup_stale',
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.output<typeof NotificationKind>;

export const Notification = z.object({
  id: z.string(),
  kind: NotificationKind,
  /** In plain words, e.g. "Dad shared the album “Holiday” with you". */
  title: z.string(),
  body: z.string(),
  /** A place inside the app (a path such as /albums/ID, /shared, /account): where tapping it goes. */
  link: z.string(),
  created_at: z.number().int(),
  /** When it was last told: new photos in an album within the hour are one notification, brought up again. */
  updated_at: z.number().int(),
  /** null while unread. */
  read_at: z.number().int().nullable(),
});
export type Notification = z.output<typeof Notification>;

export const NotificationPage = z.object({
  items: z.array(Notification),
  next_cursor: z.string().nullable(),
  unread_count: z.number().int(),
});
export type NotificationPage = z.output<typeof NotificationPage>;

export const NotificationSettings = z.object({
  /** Each kind, on (told) or off. Owner-only kinds (device_waiting, backup_*) are listed for every account and told only to owners. */
  kinds: z.record(NotificationKind, z.boolean()),
});
export type NotificationSettings = z.output<typeof NotificationSettings>;

export const PushKey = z.object({
  /** The server's VAPID public key (P-256, uncompressed, base64url): a browser's applicationServerKey. */
  public_key: z.string(),
});

export const PushSubscriptionView = z.object({
  id: z.string(),
  /** The push service's host only (the endpoint itself is the browser's secret address). */
  service: z.string(),
  /** Made on the device asking. */
  this_device: z.boolean(),
  created_at: z.number().int(),
});
export type PushSubscriptionView = z.output<typeof PushSubscriptionView>;
