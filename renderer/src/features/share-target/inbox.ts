/**
 * What the phone's Share sheet sent to Hearth, as the service worker kept it (renderer/public/
 * sw.js, receiveShare): files on this device, waiting for the person signed in to save them.
 * The same database and store names as there. Kept for the device rather than an account: the
 * person who shared may sign in only afterwards, and the files must still be there.
 */
export const SHARED_DB = 'hearth-shared';
const STORE = 'items';

export interface SharedItem {
  id: number;
  file: File;
  receivedAt: number;
}

/** As the service worker writes it: a File's name and time survive the database in some browsers only. */
interface Kept {
  id: number;
  name: string;
  type: string;
  lastModified: number;
  size: number;
  blob: Blob;
  receivedAt: number;
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

export interface SharedInbox {
  /** Everything kept, oldest share first. */
  list(): Promise<SharedItem[]>;
  /** Saved (or let go of): no longer kept on this device. */
  remove(ids: readonly number[]): Promise<void>;
  /** What the service worker does with a share; here for the tests, which have no service worker. */
  keep(files: readonly File[]): Promise<void>;
}

export function openSharedInbox(factory: IDBFactory = indexedDB): SharedInbox {
  // Opened for each call and closed after: a version change by a newer service worker is never
  // blocked by a page left open.
  const withDb = async <T>(work: (db: IDBDatabase) => Promise<T>): Promise<T> => {
    const req = factory.open(SHARED_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'id', autoIncrement: true });
    const db = await request(req);
    try {
      return await work(db);
    } finally {
      db.close();
    }
  };
  return {
    list: () =>
      withDb(async (db) => {
        const items = (await request(db.transaction(STORE).objectStore(STORE).getAll())) as unknown[];
        // A record this version cannot read (a newer worker's) is left alone, never shown half.
        return items
          .filter(isKept)
          .sort((a, b) => a.id - b.id)
          .map((kept) => ({
            id: kept.id,
            receivedAt: kept.receivedAt,
            file: new File([kept.blob], kept.name, { type: kept.type, lastModified: kept.lastModified }),
          }));
      }),
    remove: (ids) =>
      withDb(async (db) => {
        const tx = db.transaction(STORE, 'readwrite');
        for (const id of ids) tx.objectStore(STORE).delete(id);
        await done(tx);
      }),
    keep: (files) =>
      withDb(async (db) => {
        const tx = db.transaction(STORE, 'readwrite');
        const receivedAt = Date.now();
        for (const file of files)
          tx.objectStore(STORE).add({
            name: file.name,
            type: file.type,
            lastModified: file.lastModified,
            size: file.size,
            blob: file,
            receivedAt,
          });
        await done(tx);
      }),
  };
}

function isKept(value: unknown): value is Kept {
  if (typeof value !== 'object' || value === null) return false;
  const kept = value as Partial<Kept>;
  return (
    typeof kept.id === 'number' &&
    typeof kept.name === 'string' &&
    typeof kept.type === 'string' &&
    typeof kept.lastModified === 'number' &&
    typeof kept.receivedAt === 'number' &&
    kept.blob instanceof Blob
  );
}
