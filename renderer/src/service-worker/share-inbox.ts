/**
 * What the phone's Share sheet sent to Hearth, kept on this device until the person it belongs
 * to saves it: the service worker (sw.ts) receives a share into it, the Save to Hearth screen
 * (features/share-target) lists and lets go of it, and the app tells it who is signed in
 * (app/sharesFollowSession.ts). One module for all three, bundled into the service worker too,
 * so the database, its rules and its limits are written once.
 *
 * Each share belongs to the account signed in on this device when it arrived, and only that
 * account ever sees it: on a tablet the family shares, the next person to sign in does not find
 * the last one's files. A share that arrived with nobody signed in is the first signed-in
 * account's. What waits is bounded (WAITING_LIMITS): a share that would pass the limits is
 * refused whole, and anything left unsaved for a day is let go of (it is still where it was
 * shared from, such as the phone's gallery).
 */
export const SHARED_DB = 'hearth-shared';
const VERSION = 2;
const ITEMS = 'items';
/** Who is signed in on this device, for the service worker, which cannot read the page's storage. */
const DEVICE = 'device';
const SIGNED_IN = 'signed-in';

export const WAITING_LIMITS = {
  /** Files waiting on this device, all accounts together. */
  files: 500,
  /** Their bytes: 2 GiB, a long video or a few hundred photos, well within what phones let a site keep. */
  bytes: 2 * 1024 ** 3,
  /** How long an unsaved share waits. */
  keepMs: 24 * 60 * 60_000,
};

export type Limits = typeof WAITING_LIMITS;

/** How a share was received: kept, or refused whole for passing the limits. */
export type Received = 'kept' | 'too-much';

export interface SharedItem {
  id: number;
  file: File;
  receivedAt: number;
}

/** As kept: a File's name and time survive the database in some browsers only, so they are kept beside it. */
interface Kept {
  id: number;
  name: string;
  type: string;
  lastModified: number;
  size: number;
  blob: Blob;
  receivedAt: number;
  /** The account signed in when it arrived; null: nobody was, the first to sign in takes it. Absent in what version 1 kept. */
  accountId?: string | null;
}

export interface SharedInbox {
  /** The service worker's part: keeps a share whole, for the account signed in now, or refuses it whole. */
  receive(files: readonly File[]): Promise<Received>;
  /** What waits for this account, oldest share first; what nobody was signed in for becomes its own. */
  list(accountId: string): Promise<SharedItem[]>;
  /** Saved (or let go of): no longer kept on this device. */
  remove(ids: readonly number[]): Promise<void>;
  /** This account is signed in on this device now: shares arriving go to it, and what arrived signed out is its own. */
  signedIn(accountId: string): Promise<void>;
  /** Nobody is signed in now: shares arriving wait for the next to sign in. */
  signedOut(): Promise<void>;
}

export function openSharedInbox(
  factory: IDBFactory = indexedDB,
  now: () => number = Date.now,
  limits: Limits = WAITING_LIMITS,
): SharedInbox {
  // Opened for each call and closed after: a version change by a newer service worker is never
  // blocked by a page left open.
  const withDb = async <T>(work: (db: IDBDatabase) => Promise<T>): Promise<T> => {
    const req = factory.open(SHARED_DB, VERSION);
    req.onupgradeneeded = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(ITEMS)) db.createObjectStore(ITEMS, { keyPath: 'id', autoIncrement: true });
      if (!db.objectStoreNames.contains(DEVICE)) db.createObjectStore(DEVICE);
    };
    const db = await request(req);
    try {
      return await work(db);
    } finally {
      db.close();
    }
  };
  const expired = (kept: Kept) => Math.abs(now() - kept.receivedAt) > limits.keepMs;

  return {
    receive: (files) =>
      withDb((db) => {
        const tx = db.transaction([ITEMS, DEVICE], 'readwrite');
        const items = tx.objectStore(ITEMS);
        let outcome: Received = 'kept';
        const signedIn = tx.objectStore(DEVICE).get(SIGNED_IN);
        signedIn.onsuccess = () => {
          const accountId = typeof signedIn.result === 'string' ? signedIn.result : null;
          let count = files.length;
          let bytes = files.reduce((sum, file) => sum + file.size, 0);
          // Every request is made from the one before's callback: the transaction stays open, and no share can slip in between the count and the add.
          eachKept(items, (kept, cursor) => {
            if (expired(kept)) cursor.delete();
            else {
              count += 1;
              bytes += kept.size;
            }
          }).then(() => {
            if (count > limits.files || bytes > limits.bytes) {
              outcome = 'too-much';
              return;
            }
            const receivedAt = now();
            for (const file of files)
              items.add({
                name: file.name,
                type: file.type,
                lastModified: file.lastModified,
                size: file.size,
                blob: file,
                receivedAt,
                accountId,
              });
          });
        };
        return done(tx).then(() => outcome);
      }),
    list: (accountId) =>
      withDb(async (db) => {
        if (accountId === '') return [];
        const tx = db.transaction(ITEMS, 'readwrite');
        const found: SharedItem[] = [];
        void eachKept(tx.objectStore(ITEMS), (kept, cursor) => {
          if (expired(kept)) cursor.delete();
          else if ((kept.accountId ?? null) === null || kept.accountId === accountId) {
            if (kept.accountId !== accountId) cursor.update({ ...kept, accountId });
            found.push({
              id: kept.id,
              receivedAt: kept.receivedAt,
              file: new File([kept.blob], kept.name, { type: kept.type, lastModified: kept.lastModified }),
            });
          }
        });
        await done(tx);
        return found.sort((a, b) => a.id - b.id);
      }),
    remove: (ids) =>
      withDb(async (db) => {
        const tx = db.transaction(ITEMS, 'readwrite');
        for (const id of ids) tx.objectStore(ITEMS).delete(id);
        await done(tx);
      }),
    signedIn: (accountId) =>
      withDb(async (db) => {
        if (accountId === '') return;
        const tx = db.transaction([ITEMS, DEVICE], 'readwrite');
        tx.objectStore(DEVICE).put(accountId, SIGNED_IN);
        void eachKept(tx.objectStore(ITEMS), (kept, cursor) => {
          if ((kept.accountId ?? null) === null) cursor.update({ ...kept, accountId });
        });
        await done(tx);
      }),
    signedOut: () =>
      withDb(async (db) => {
        const tx = db.transaction(DEVICE, 'readwrite');
        tx.objectStore(DEVICE).delete(SIGNED_IN);
        await done(tx);
      }),
  };
}

/**
 * Walks every record this version can read (one a newer version wrote is left alone, never
 * shown half), in the transaction of `store`; resolves after the last.
 */
function eachKept(store: IDBObjectStore, visit: (kept: Kept, cursor: IDBCursorWithValue) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const walk = store.openCursor();
    walk.onsuccess = () => {
      const cursor = walk.result;
      if (!cursor) return resolve();
      if (isKept(cursor.value)) visit(cursor.value, cursor);
      cursor.continue();
    };
    walk.onerror = () => reject(walk.error ?? new Error('IndexedDB cursor failed'));
  });
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('IndexedDB transaction failed'));
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function isKept(value: unknown): value is Kept {
  if (typeof value !== 'object' || value === null) return false;
  const kept = value as Partial<Kept>;
  return (
    typeof kept.id === 'number' &&
    typeof kept.name === 'string' &&
    typeof kept.type === 'string' &&
    typeof kept.lastModified === 'number' &&
    typeof kept.size === 'number' &&
    typeof kept.receivedAt === 'number' &&
    (kept.accountId === undefined || kept.accountId === null || typeof kept.accountId === 'string') &&
    kept.blob instanceof Blob
  );
}
