import { api, data } from '../../api/client.ts';

/** Whether this device can say yes to notifications, and if not, why (said plainly on the Account page). */
export type PushSupport = 'ready' | 'insecure' | 'ios-home-screen' | 'unsupported';

function onIosBrowserTab(): boolean {
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.userAgent.includes('Macintosh') && navigator.maxTouchPoints > 1);
  const standalone =
    window.matchMedia?.('(display-mode: standalone)').matches || (navigator as { standalone?: boolean }).standalone === true;
  return ios && !standalone;
}

export function pushSupport(): PushSupport {
  if (!window.isSecureContext) return 'insecure';
  // Safari on iPhone offers Web Push (iOS 16.4 and later) only to an app added to the Home Screen.
  if (onIosBrowserTab()) return 'ios-home-screen';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  return 'ready';
}

/** The service worker, or null when none runs here (a development build, or it failed to install) within a few seconds. */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  // The app registers its worker a few seconds after the page settles; a tap before that needs it now
  // (registering the same script again is the same registration).
  if (!import.meta.env.DEV) void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 5_000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

/** Whether this device receives notifications now. */
export async function pushIsOn(): Promise<boolean> {
  if (pushSupport() !== 'ready' || Notification.permission !== 'granted') return false;
  const reg = await navigator.serviceWorker.getRegistration();
  return (await reg?.pushManager.getSubscription()) != null;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/**
 * The person tapped "Notify me on this phone": only now is the browser asked for permission
 * (a browser rightly ignores a site that asks unprompted), then this device subscribes with
 * the server's key and tells the server where to send.
 */
export async function turnPushOn(): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission === 'denied') {
    throw new Error('Notifications are blocked for Hearth in this browser’s settings. Allow them there, then tap again.');
  }
  if (permission !== 'granted') throw new Error('Notifications were not allowed. Tap again when you are ready.');
  const reg = await registration();
  if (!reg) throw new Error('This browser is not ready for notifications yet. Reload the page and tap again.');
  const { public_key } = await data(api.GET('/push/key'));
  let subscription: PushSubscription;
  try {
    subscription = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) });
  } catch {
    throw new Error('This browser could not reach its notification service. Check the connection and tap again.');
  }
  const json = subscription.toJSON();
  await data(
    api.POST('/push/subscriptions', {
      body: { endpoint: subscription.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
    }),
  );
}

/** Stops notifications on this device: the browser forgets its subscription, the server too. */
export async function turnPushOff(): Promise<void> {
  const reg = await navigator.serviceWorker.getRegistration();
  await (await reg?.pushManager.getSubscription())?.unsubscribe();
  const mine = await data(api.GET('/push/subscriptions'));
  for (const sub of mine.items.filter((s) => s.this_device)) {
    await data(api.DELETE('/push/subscriptions/{id}', { params: { path: { id: sub.id } } }));
  }
}
