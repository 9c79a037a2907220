/** The param the app reads to mark a tapped notification read (kits/notifications/OpenedFromNotification.tsx). */
export const NOTIFICATION_PARAM = 'notification';

/** Where a notification without a place of its own (or with one that is not the app's) leads. */
const FALLBACK = '/notifications';

/**
 * The app's page a pushed notification's tap opens: its link, only when that is a path inside
 * this app (a link is the server's words, but a push is read before anyone signed in, so
 * nothing else is followed), with the notification's id beside it so the app marks it read
 * over the API once open. The service worker holds no sign-in; an id is no secret (it only
 * names what the signed-in person may already read), so it is the one thing put in the address.
 */
export function notificationTarget(link: unknown, id: unknown, origin: string): string {
  const path = typeof link === 'string' && link.startsWith('/') && !link.startsWith('//') ? link : FALLBACK;
  let url = new URL(path, origin);
  // "/\host" is read as "//host" by URL: still another site.
  if (url.origin !== origin) url = new URL(FALLBACK, origin);
  if (typeof id === 'string' && /^[0-9A-Za-z]{1,64}$/.test(id)) url.searchParams.set(NOTIFICATION_PARAM, id);
  return url.href;
}
