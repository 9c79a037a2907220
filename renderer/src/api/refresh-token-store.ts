/**
 * Where the refresh token lives: IndexedDB, shared by every tab of this browser.
 *
 * Not localStorage: Chromium hands a localStorage write to the other tab processes
 * asynchronously, so a tab that takes the refresh lock right after another released it could
 * still read the token that other tab had just spent, and replaying a spent token signs the
 * session out (measured: the two-tabs e2e spec failed about 1 run in 16 that way, with Web
 * Locks doing their job). IndexedDB transactions are ordered across tabs by the browser: a
 * write committed before the lock is released is what the next holder reads.
 */
const DATABASE = 'hearth-session';
const STORE = 'tokens';
const KEY = 'refresh';

let database: Promise<IDBDatabase | null> | null = null;

function open(): Promise<IDBDatabase | null> {
  database ??= new Promise((resolve) => {
    if (typeof indexedDB === 'undefined') return resolve(null);
    const request = indexedDB.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE);
    request.onsuccess = () => resolve(request.result);
    // A browser that refuses IndexedDB (some private modes) keeps the token in this tab only.
    request.onerror = () => resolve(null);
  });
  return database;
}

let memoryOnly: string | null = null;

export async function readRefreshToken(): Promise<string | null> {
  const db = await open();
  if (!db) return memoryOnly;
  return new Promise((resolve, reject) => {
    const read = db.transaction(STORE, 'readonly').objectStore(STORE).get(KEY);
    read.onsuccess = () => resolve(typeof read.result === 'string' ? read.result : null);
    read.onerror = () => reject(read.error);
  });
}

/** Resolves once the write is committed, so the lock guarding it can be released after. */
export async function writeRefreshToken(token: string | null): Promise<void> {
  const db = await open();
  if (!db) {
    memoryOnly = token;
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction(STORE, 'readwrite');
    const tokens = tx.objectStore(STORE);
    if (token === null) tokens.delete(KEY);
    else tokens.put(token, KEY);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}
