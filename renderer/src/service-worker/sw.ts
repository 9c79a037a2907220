/*
 * Hearth's service worker, bundled to /sw.js by the build (renderer/build/service-worker.ts):
 * the app shell only (the page and its hashed scripts and styles), so the installed app opens,
 * and says it cannot reach the server, without a network. It never touches /api/: file content,
 * thumbnails and tokens are never put in a cache that another account on this device could
 * read. Browsers run it only in secure contexts (localhost, HTTPS).
 *
 * It also receives what the phone's Share sheet sends to Hearth (the manifest's share_target):
 * the files are kept on this device (share-inbox.ts), for the account signed in, until that
 * person saves them from the app's "Save to Hearth" screen. The share itself carries no
 * sign-in, so nothing goes to the server from here. A post another site's page made is refused
 * (share-origin.ts).
 */
import { notificationTarget } from './notification-target.ts';
import { openSharedInbox } from './share-inbox.ts';
import { postedByAnotherSite } from './share-origin.ts';

/** The few parts of the service worker's world used here (the DOM's types do not describe it). */
interface LifecycleEvent extends Event {
  waitUntil(work: Promise<unknown>): void;
}
/** The URL patterns of Chrome 95+ and Safari 26 (not yet in TypeScript's DOM types). */
declare const URLPattern: (new (init: { pathname: string }) => unknown) | undefined;
/** Chrome 123+'s static routing: requests a rule names never wake the worker. */
interface InstallEvent extends LifecycleEvent {
  addRoutes?(rules: { condition: { urlPattern: unknown }; source: 'network' }[]): Promise<void>;
}
interface WorkerFetchEvent extends LifecycleEvent {
  readonly request: Request;
  readonly clientId: string;
  respondWith(response: Promise<Response> | Response): void;
}
interface WorkerPushEvent extends LifecycleEvent {
  readonly data: { json(): unknown } | null;
}
interface WorkerNotificationEvent extends LifecycleEvent {
  readonly notification: { data: unknown; close(): void };
}
interface WindowClient {
  readonly url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}
interface WorkerScope {
  readonly location: Location;
  readonly clients: {
    get(id: string): Promise<unknown>;
    claim(): Promise<void>;
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  readonly registration: {
    showNotification(title: string, options: { body: string; icon: string; tag: string; data: unknown }): Promise<void>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: (event: InstallEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: LifecycleEvent) => void): void;
  addEventListener(type: 'fetch', listener: (event: WorkerFetchEvent) => void): void;
  addEventListener(type: 'push', listener: (event: WorkerPushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: WorkerNotificationEvent) => void): void;
}
const worker = self as unknown as WorkerScope;

const SHELL = 'hearth-shell-v1';
/* The manifest's share_target.action, and the app's screen for what arrives there. */
const SHARE_TARGET = '/share-target';
const SHARED_SCREEN = '/shared-with-hearth';

worker.addEventListener('install', (event) => {
  routeApiPastTheWorker(event);
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(['/', '/manifest.webmanifest', '/icon.svg']))
      .then(() => worker.skipWaiting()),
  );
});

/**
 * The worker lets every /api/ request through untouched (below); where the browser allows it says
 * so up front, so the API's and the thumbnails' requests go straight to the network instead of
 * each waking the worker first, which a phone's busy main thread feels.
 */
function routeApiPastTheWorker(event: InstallEvent): void {
  if (!event.addRoutes || typeof URLPattern === 'undefined') return;
  try {
    event.addRoutes([{ condition: { urlPattern: new URLPattern({ pathname: '/api/*' }) }, source: 'network' }]).catch(() => undefined);
  } catch {
    // An older form of the API: the fetch handler below lets /api/ through anyway.
  }
}

worker.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const own = url.origin === worker.location.origin;
  if (event.request.method === 'POST' && own && url.pathname === SHARE_TARGET) {
    event.respondWith(receiveShare(event));
    return;
  }
  if (event.request.method !== 'GET' || !own || url.pathname.startsWith('/api/')) return;
  if (event.request.mode === 'navigate') {
    // The page: from the network when it answers (a new version), else the cached shell. A
    // shared link's page (/s/...) is a page of its own, never kept as the app's shell.
    const isAppPage = !url.pathname.startsWith('/s/');
    event.respondWith(
      fetch(event.request)
        .then((response) => {
          if (response.ok && isAppPage) {
            const copy = response.clone();
            void caches.open(SHELL).then((cache) => cache.put('/', copy));
          }
          return response;
        })
        .catch(() => caches.match('/').then((cached) => cached ?? Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Named after their content: a cached copy is always the right one.
    event.respondWith(
      caches.match(event.request).then(
        (cached) =>
          cached ??
          fetch(event.request).then((response) => {
            if (response.ok) {
              const copy = response.clone();
              void caches.open(SHELL).then((cache) => cache.put(event.request, copy));
            }
            return response;
          }),
      ),
    );
  }
});

/**
 * A share from the phone: its files are kept, beside any kept earlier and not yet saved, and
 * the app's screen opens (303: the browser follows with a GET, so a reload never posts the
 * share twice). A share with no file (a link, some text) keeps nothing: Hearth keeps files. One
 * another site's page posted is not even read.
 */
async function receiveShare(event: WorkerFetchEvent): Promise<Response> {
  const { request } = event;
  const post = { origin: request.headers.get('Origin'), referrer: request.referrer, clientId: event.clientId };
  const isOwnPage = async (id: string) => (await worker.clients.get(id)) !== undefined;
  let outcome: 'kept' | 'refused' | 'no-files' | 'too-much' | 'not-kept';
  if (await postedByAnotherSite(post, worker.location.origin, isOwnPage)) outcome = 'refused';
  else {
    try {
      const form = await request.formData();
      // A form's empty file field still sends a nameless, empty part: not a file anyone shared.
      const files = form.getAll('files').filter((entry): entry is File => typeof entry !== 'string' && entry.name !== '');
      outcome = files.length === 0 ? 'no-files' : await openSharedInbox().receive(files);
    } catch {
      // The device had no room for them, or the form could not be read: said on the screen.
      outcome = 'not-kept';
    }
  }
  const query = outcome === 'kept' ? '' : `?share=${outcome}`;
  return Response.redirect(new URL(SHARED_SCREEN + query, worker.location.origin).href, 303);
}

/**
 * A notification the server pushed (Web Push, to a device whose person said yes): shown with
 * its words, and a tap opens its place in the app (notification-target.ts), which marks it read.
 */
worker.addEventListener('push', (event) => {
  let told: { id?: unknown; title?: unknown; body?: unknown; link?: unknown } = {};
  try {
    told = (event.data?.json() ?? {}) as typeof told;
  } catch {
    // Not ours to read: said as a plain "something new".
  }
  const title = typeof told.title === 'string' ? told.title : 'Something new in Hearth';
  const body = typeof told.body === 'string' ? told.body : '';
  const tag = typeof told.id === 'string' ? told.id : 'hearth';
  event.waitUntil(worker.registration.showNotification(title, { body, icon: '/icon.svg', tag, data: { link: told.link, id: told.id } }));
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // The app, opened there, marks the notification read (this worker holds no sign-in to do it).
  const told = (event.notification.data ?? {}) as { link?: unknown; id?: unknown };
  const target = notificationTarget(told.link, told.id, worker.location.origin);
  event.waitUntil(
    worker.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(async (open) => {
      const own = open.find((c) => new URL(c.url).origin === worker.location.origin);
      if (!own) return worker.clients.openWindow(target);
      await own.focus();
      return own.navigate(target);
    }),
  );
});
