import { z } from 'zod';
import {
  NOTIFICATION_KINDS,
  NotificationPage,
  NotificationSettings,
  PushKey,
  PushSubscriptionView,
} from '../../contract/notifications-responses.ts';
import { IdParam, PageQuery } from '../common-inputs.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const ReadBody = z.union([
  z.object({ ids: z.array(z.string().min(1).max(100)).min(1).max(1000).describe('Notifications of the caller to mark read') }).strict(),
  z.object({ all: z.literal(true).describe('Mark every notification of the caller read') }).strict(),
]);

const SettingsBody = z
  .object({ kinds: z.object(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.boolean().optional()]))).strict() })
  .strict();

const SubscriptionBody = z.object({
  endpoint: z.string().min(1).max(2048).describe("The browser's PushSubscription endpoint (on a known browser push service)"),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().min(1).max(200).describe("The browser's P-256 public key, base64url"),
    auth: z.string().min(1).max(100).describe("The browser's auth secret, base64url"),
  }),
});

/** Notifications (the bell), the kinds each person is told, and Web Push to the devices that said yes. */
export const notificationRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/notifications',
    tag: 'notifications',
    summary:
      "The caller's notifications, newest first (an album's burst of new photos is one, brought up when told again), with how many are unread",
    auth: 'user',
    query: PageQuery,
    responses: ok('A page of notifications', NotificationPage),
    errors: ['invalid_cursor'],
    handler: ({ services, actor, query }) => services.notifications.list(actor, query),
  }),
  route({
    method: 'POST',
    path: '/notifications/read',
    tag: 'notifications',
    summary: 'Mark some of the caller\'s notifications read ({"ids":[…]}; others\' ids change nothing), or all of them ({"all":true})',
    auth: 'user',
    body: ReadBody,
    responses: ok('How many are left unread', z.object({ unread_count: z.number().int() })),
    handler: ({ services, actor, body }) => services.notifications.markRead(actor, 'all' in body ? 'all' : body.ids),
  }),
  route({
    method: 'GET',
    path: '/me/notification-settings',
    tag: 'notifications',
    summary: 'Which kinds of notification the caller is told (all on until turned off)',
    auth: 'user',
    responses: ok('Each kind, on or off', NotificationSettings),
    handler: ({ services, actor }) => services.notifications.settings(actor),
  }),
  route({
    method: 'PUT',
    path: '/me/notification-settings',
    tag: 'notifications',
    summary: 'Turn kinds of notification on or off (those not named stay as they are). Off: none is made or pushed',
    auth: 'user',
    body: SettingsBody,
    responses: ok('Each kind, on or off', NotificationSettings),
    handler: ({ services, actor, body }) => services.notifications.setSettings(actor, body.kinds),
  }),
  route({
    method: 'POST',
    path: '/me/phone-backups',
    tag: 'notifications',
    summary:
      'This phone ran "Back up this phone" just now: a phone that does not again for 7 days is told so (phone_backup_stale). Kept per device, until it signs out',
    auth: 'user',
    responses: none,
    handler: ({ services, actor }) => {
      services.notificationCauses.phoneBackedUp(actor);
    },
  }),
  route({
    method: 'GET',
    path: '/push/key',
    tag: 'notifications',
    summary: "The server's VAPID public key, a browser's applicationServerKey for Web Push (made on first need)",
    auth: 'user',
    responses: ok('The public key', PushKey),
    handler: ({ services }) => services.push.publicKey(),
  }),
  route({
    method: 'GET',
    path: '/push/subscriptions',
    tag: 'notifications',
    summary: "The caller's devices that receive Web Push (the endpoint itself is not shown)",
    auth: 'user',
    responses: ok('Subscriptions', z.object({ items: z.array(PushSubscriptionView) })),
    handler: ({ services, actor }) => ({ items: services.push.list(actor) }),
  }),
  route({
    method: 'POST',
    path: '/push/subscriptions',
    tag: 'notifications',
    summary:
      "This device says yes to Web Push: a browser's PushSubscription (endpoint and keys). Only endpoints on a known browser push service are taken; it ends when this device signs out",
    auth: 'user',
    body: SubscriptionBody,
    responses: { 201: { description: 'Subscribed', schema: PushSubscriptionView } },
    errors: ['push_endpoint_refused'],
    handler: ({ services, actor, body }) => reply(201, services.push.subscribe(actor, body)),
  }),
  route({
    method: 'DELETE',
    path: '/push/subscriptions/:id',
    tag: 'notifications',
    summary: 'Stop Web Push to a device of the caller',
    auth: 'user',
    params: IdParam,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.push.unsubscribe(actor, params.id);
    },
  }),
];
