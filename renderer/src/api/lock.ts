/**
 * A lock shared by every tab of this app in this browser, so that two tabs (or the installed
 * app and a tab) never spend the same refresh token: the server takes a replayed refresh token
 * for theft and ends the session.
 *
 * Web Locks where the browser has them (secure contexts: localhost, later HTTPS). A phone on
 * `http://<pc>:8420` has none, and localStorage is no substitute: Chromium propagates its writes
 * between tab processes asynchronously, so two tabs can both read "free" (measured: the
 * two-tabs e2e spec lost its session that way). There the lock is a lease taken in an
 * IndexedDB read-write transaction, which the browser runs one at a time across tabs: a true
 * compare-and-set. The lease expires, so a tab closed while holding it blocks nobody for long.
 */
export async function withCrossTabLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  if (typeof navigator !== 'undefined' && navigator.locks) {
    return navigator.locks.request(name, () => task());
  }
  return withLeaseLock(name, task);
}

/** Longer than any task it guards may take (the refresh gives up after 12 s). */
const LEASE_MS = 15_000;
const tabId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

interface Lease {
  owner: string;
  until: number;
}

let database: Promise<IDBDatabase> | null = null;

function openDatabase(): Promise<IDBDatabase> {
  database ??= new Promise((resolve, reject) => {
    const request = indexedDB.open('hearth-locks', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('leases');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  return database;
}

/** One read-write transaction: take the lease if it is free, expired or already ours. */
async function tryTake(name: string): Promise<boolean> {
  const db = await openDatabase();
  return new Promise((resolve, reject) => {
    const tx = db.transaction('leases', 'readwrite');
    const leases = tx.objectStore('leases');
    let taken = false;
    const read = leases.get(name);
    read.onsuccess = () => {
      const lease = read.result as Lease | undefined;
      if (!lease || lease.until < Date.now() || lease.owner === tabId) {
        leases.put({ owner: tabId, until: Date.now() + LEASE_MS } satisfies Lease, name);
        taken = true;
      }
    };
    tx.oncomplete = () => resolve(taken);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

async function giveBack(name: string): Promise<void> {
  const db = await openDatabase();
  await new Promise<void>((resolve) => {
    const tx = db.transaction('leases', 'readwrite');
    const leases = tx.objectStore('leases');
    const read = leases.get(name);
    read.onsuccess = () => {
      if ((read.result as Lease | undefined)?.owner === tabId) leases.delete(name);
    };
    tx.oncomplete = () => resolve();
    tx.onerror = () => resolve();
    tx.onabort = () => resolve();
  });
  released?.postMessage(name);
}

// Waiting tabs hear a release at once instead of at their next look.
const released = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel('hearth-locks') : null;

function nextChance(ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      released?.removeEventListener('message', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    released?.addEventListener('message', done);
  });
}

let queue: Promise<unknown> = Promise.resolve();

async function withLeaseLock<T>(name: string, task: () => Promise<T>): Promise<T> {
  if (typeof indexedDB === 'undefined') return task();
  // Inside one tab, callers queue; across tabs, the lease decides.
  const run = queue.then(async () => {
    while (!(await tryTake(name))) await nextChance(100 + Math.random() * 100);
    try {
      return await task();
    } finally {
      await giveBack(name);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}
