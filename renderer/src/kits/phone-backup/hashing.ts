import type { HashCache } from './hash-cache.ts';
import type { HashAnswer, HashRequest } from './hash.worker.ts';

export type HashOne = (file: File) => Promise<string>;

export interface HashProgress {
  done: number;
  total: number;
}

/**
 * The SHA-256 of every chosen file, in the order chosen: from the cache when this device has
 * hashed the same (name, size, last modified) before, otherwise by `hashOne`, a few at a time.
 * A file that cannot be read (removed from the phone since it was chosen) gets null.
 */
export async function hashFiles(
  files: File[],
  {
    cache,
    hashOne,
    parallel,
    onProgress,
  }: { cache: HashCache; hashOne: HashOne; parallel: number; onProgress?: (p: HashProgress) => void },
): Promise<(string | null)[]> {
  const cached = await cache.getMany(files);
  const hashes: (string | null)[] = cached.map((hash) => hash ?? null);
  const toHash = files.flatMap((_, index) => (cached[index] === undefined ? [index] : []));
  let done = files.length - toHash.length;
  let next = 0;
  const tick = () => onProgress?.({ done, total: files.length });
  const lane = async () => {
    while (next < toHash.length) {
      const index = toHash[next++]!;
      const file = files[index]!;
      const hash = await hashOne(file).catch(() => undefined);
      if (hash !== undefined) await cache.put(file, hash);
      hashes[index] = hash ?? null;
      done += 1;
      tick();
    }
  };
  tick();
  await Promise.all(Array.from({ length: Math.max(1, parallel) }, lane));
  return hashes;
}

/**
 * Workers that hash in WebAssembly, one file each at a time: several files at once use the
 * phone's cores, and no more than two, so the page and the uploads keep a core.
 */
export function workerHashers(): { hashOne: HashOne; parallel: number; close(): void } {
  const parallel = Math.min(2, Math.max(1, (navigator.hardwareConcurrency || 2) - 1));
  const idle: Worker[] = [];
  const all: Worker[] = [];
  const waiting = new Map<number, { resolve(hash: string): void; reject(error: Error): void }>();
  /** Which file each worker is hashing: a worker that fails (it could not load) fails that file, never hangs the run. */
  const working = new Map<Worker, number>();
  let counter = 0;
  const take = (): Worker => {
    const ready = idle.pop();
    if (ready) return ready;
    const worker = new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module', name: 'hearth-hash' });
    worker.onmessage = (event: MessageEvent<HashAnswer>) => {
      const answer = event.data;
      const pending = waiting.get(answer.id);
      waiting.delete(answer.id);
      working.delete(worker);
      idle.push(worker);
      if ('hash' in answer) pending?.resolve(answer.hash);
      else pending?.reject(new Error(answer.error));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const id = working.get(worker);
      working.delete(worker);
      worker.terminate();
      all.splice(all.indexOf(worker), 1);
      if (id === undefined) return;
      waiting.get(id)?.reject(new Error('the hasher stopped'));
      waiting.delete(id);
    };
    all.push(worker);
    return worker;
  };
  return {
    parallel,
    hashOne: (file) =>
      new Promise<string>((resolve, reject) => {
        counter += 1;
        waiting.set(counter, { resolve, reject });
        const worker = take();
        working.set(worker, counter);
        worker.postMessage({ id: counter, file } satisfies HashRequest);
      }),
    close: () => {
      for (const worker of all) worker.terminate();
      for (const pending of waiting.values()) pending.reject(new Error('stopped'));
      waiting.clear();
    },
  };
}
