/* global self, caches, fetch, URL, Response, indexedDB */
/*
 * Hearth's service worker: the app shell only (the page and its hashed scripts and styles), so
 * the installed app opens, and says it cannot reach the server, without a network. It never
 * touches /api/: file content, thumbnails and tokens are never put in a cache that another
 * account on this device could read. Browsers run it only in secure contexts (localhost, HTTPS).
 *
 * It also receives what the phone's Share sheet sends to Hearth (the manifest's share_target):
 * the files are kept on this device, in a database of their own, until the person signed in
 * saves them from the app's "Save to Hearth" screen. The share itself carries no sign-in, so
 * nothing goes to the server from here.
 */
const SHELL = 'hearth-shell-v1';
/* The manifest's share_target.action, the app's screen, and the database that screen reads
   (renderer/src/features/share-target/inbox.ts): the same names on both sides. */
const SHARE_TARGET = '/share-target';
const SHARED_SCREEN = '/shared-with-hearth';
const SHARED_DB = 'hearth-shared';
const SHARED_STORE = 'items';

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
  if (event.request.method === 'POST' && url.origin === self.location.origin && url.pathname === SHARE_TARGET) {
    event.respondWith(receiveShare(event.request));
    return;
  }
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

/**
 * A share from the phone: its files are kept here, beside any kept earlier and not yet saved,
 * and the app's screen opens (303: the browser follows with a GET, so a reload never posts the
 * share twice). A share with no file (a link, some text) keeps nothing: Hearth keeps files.
 */
async function receiveShare(request) {
  let outcome;
  try {
    const form = await request.formData();
    // A form's empty file field still sends a nameless, empty part: not a file anyone shared.
    const files = form.getAll('files').filter((entry) => typeof entry !== 'string' && entry.name !== '');
    if (files.length === 0) outcome = 'no-files';
    else {
      await keepShared(files);
      outcome = 'kept';
    }
  } catch {
    // The device had no room for them, or the form could not be read: said on the screen.
    outcome = 'not-kept';
  }
  const query = outcome === 'kept' ? '' : `?share=${outcome}`;
  return Response.redirect(new URL(SHARED_SCREEN + query, self.location.origin).href, 303);
}

function openShared() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(SHARED_DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(SHARED_STORE, { keyPath: 'id', autoIncrement: true });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** All of one share in one transaction: a share is kept whole or not at all. */
async function keepShared(files) {
  const db = await openShared();
  try {
    await new Promise((resolve, reject) => {
      const tx = db.transaction(SHARED_STORE, 'readwrite');
      const store = tx.objectStore(SHARED_STORE);
      const receivedAt = Date.now();
      // Name, type and time apart from the bytes: a File's own survive the database in some browsers only.
      for (const file of files)
        store.add({ name: file.name, type: file.type, lastModified: file.lastModified, size: file.size, blob: file, receivedAt });
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  } finally {
    db.close();
  }
}
