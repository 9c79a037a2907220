/* global self, caches, fetch, URL, Response */
/*
 * Hearth's service worker: the app shell only (the page and its hashed scripts and styles), so
 * the installed app opens, and says it cannot reach the server, without a network. It never
 * touches /api/: file content, thumbnails and tokens are never put in a cache that another
 * account on this device could read. Browsers run it only in secure contexts (localhost, HTTPS).
 */
const SHELL = 'hearth-shell-v1';

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL)
      .then((cache) => cache.addAll(['/', '/manifest.webmanifest', '/icon.svg']))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== SHELL).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
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
        .catch(() => caches.match('/').then((cached) => cached || Response.error())),
    );
    return;
  }
  if (url.pathname.startsWith('/assets/')) {
    // Named after their content: a cached copy is always the right one.
    event.respondWith(
      caches.match(event.request).then(
        (cached) =>
          cached ||
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
