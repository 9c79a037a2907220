/**
 * Each file's SHA-256 remembered by (name, size, last modified), in IndexedDB: a second run over
 * the camera roll reads none of its files. A file edited in place changes its size or its time,
 * so it is hashed again.
 */
export interface HashCache {
  get(file: FileKey): Promise<string | undefined>;
  /**
   * Many at once, in the order given, in one transaction: a camera roll of 2,000 asked one by one
   * (a transaction each, one after the other) took 2.5 s of a second run (npm run bench -- phone-backup).
   */
  getMany(files: readonly FileKey[]): Promise<(string | undefined)[]>;
  put(file: FileKey, hash: string): Promise<void>;
}

export interface FileKey {
  name: string;
  size: number;
  lastModified: number;
}

const DB_NAME = 'hearth-file-hashes';
const STORE = 'sha256';

function keyOf(file: FileKey): [string, number, number] {
  return [file.name, file.size, file.lastModified];
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB request failed'));
  });
}

export function openHashCache(factory: IDBFactory = indexedDB): HashCache {
  let db: Promise<IDBDatabase> | null = null;
  const open = () => {
    db ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = factory.open(DB_NAME, 1);
      req.onupgradeneeded = () => req.result.createObjectStore(STORE);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error ?? new Error('IndexedDB could not open'));
    });
    return db;
  };
  return {
    async get(file) {
      try {
        const value: unknown = await request((await open()).transaction(STORE).objectStore(STORE).get(keyOf(file)));
        return typeof value === 'string' ? value : undefined;
      } catch {
        // No IndexedDB (a private window that refuses it): the file is hashed again, nothing worse.
        return undefined;
      }
    },
    async getMany(files) {
      try {
        const store = (await open()).transaction(STORE).objectStore(STORE);
        const values: unknown[] = await Promise.all(files.map((file) => request(store.get(keyOf(file)))));
        return values.map((value) => (typeof value === 'string' ? value : undefined));
      } catch {
        return files.map(() => undefined);
      }
    },
    async put(file, hash) {
      try {
        await request((await open()).transaction(STORE, 'readwrite').objectStore(STORE).put(hash, keyOf(file)));
      } catch {
        // Not remembered: the next run hashes this file again.
      }
    },
  };
}
