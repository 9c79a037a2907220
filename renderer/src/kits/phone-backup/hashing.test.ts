import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openHashCache } from './hash-cache.ts';
import { hashFiles } from './hashing.ts';
import { sha256Of } from './sha256.ts';

function photo(name: string, bytes: number, lastModified = 1_700_000_000_000): File {
  const content = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) content[i] = (i * 31 + name.length) & 0xff;
  return new File([content], name, { lastModified });
}

describe('hashing chosen photos', () => {
  it('the streamed WebAssembly SHA-256 gives the published digests, across chunk edges and for an empty file', async () => {
    // FIPS 180-2 test vectors: "abc" read a byte at a time, and a million "a" in chunks that do not divide it.
    expect(await sha256Of(new Blob(['abc']), 1)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Of(new Blob(['a'.repeat(1_000_000)]), 65_536)).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
    expect(await sha256Of(new Blob([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('the JavaScript hasher, used where WebAssembly is refused (iOS 15 Safari), gives the same digests', async () => {
    expect(await sha256Of(new Blob(['abc']), 1, 'js')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Of(new Blob(['a'.repeat(1_000_000)]), 65_536, 'js')).toBe(
      'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    );
    const file = photo('IMG_0042.JPG', 3_000_000);
    expect(await sha256Of(file, 1_000_003, 'js')).toBe(await sha256Of(file, 1_000_003, 'wasm'));
  });

  it('a second run over the same files reads none of them: every hash comes from the IndexedDB cache', async () => {
    const factory = new IDBFactory();
    const files = [photo('IMG_0001.JPG', 3000), photo('IMG_0002.JPG', 5000), photo('IMG_0003.JPG', 7000)];
    const read: string[] = [];
    const hashOne = async (file: File) => {
      read.push(file.name);
      return sha256Of(file);
    };
    const first = await hashFiles(files, { cache: openHashCache(factory), hashOne, parallel: 2 });
    expect(read.sort()).toEqual(['IMG_0001.JPG', 'IMG_0002.JPG', 'IMG_0003.JPG']);
    expect(first).toEqual(await Promise.all(files.map((file) => sha256Of(file))));

    read.length = 0;
    // A new page load: a fresh cache handle on the same database.
    const second = await hashFiles(files, { cache: openHashCache(factory), hashOne, parallel: 2 });
    expect(read).toEqual([]);
    expect(second).toEqual(first);
  });

  it('a second run asks the cache for the whole camera roll in one go, in the order chosen, misses included', async () => {
    const factory = new IDBFactory();
    const cache = openHashCache(factory);
    await cache.put(photo('b.jpg', 20), 'hash-b');
    await cache.put(photo('d.jpg', 40), 'hash-d');
    const asked = [photo('a.jpg', 10), photo('b.jpg', 20), photo('c.jpg', 30), photo('d.jpg', 40)];
    expect(await openHashCache(factory).getMany(asked)).toEqual([undefined, 'hash-b', undefined, 'hash-d']);
    let oneByOne = 0;
    const counting = { ...cache, get: async (file: File) => (oneByOne++, cache.get(file)) };
    await hashFiles(asked, { cache: counting, hashOne: async (file) => `hash-${file.name}`, parallel: 2 });
    expect(oneByOne).toBe(0);
  });

  it('a file edited since (same name, new time) is read again; the others are not', async () => {
    const factory = new IDBFactory();
    const cache = openHashCache(factory);
    const read: string[] = [];
    const hashOne = async (file: File) => (read.push(file.name), sha256Of(file));
    await hashFiles([photo('a.jpg', 100), photo('b.jpg', 100)], { cache, hashOne, parallel: 1 });
    read.length = 0;
    await hashFiles([photo('a.jpg', 100), photo('b.jpg', 100, 1_800_000_000_000)], { cache, hashOne, parallel: 1 });
    expect(read).toEqual(['b.jpg']);
  });

  it('keeps the order chosen, reports progress to the last file, and gives null for a file that cannot be read', async () => {
    const files = [photo('a.jpg', 10), photo('gone.jpg', 10), photo('c.jpg', 10)];
    const progress: number[] = [];
    const hashes = await hashFiles(files, {
      cache: openHashCache(new IDBFactory()),
      hashOne: async (file) => (file.name === 'gone.jpg' ? Promise.reject(new Error('NotFoundError')) : `hash-of-${file.name}`),
      parallel: 3,
      onProgress: ({ done }) => progress.push(done),
    });
    expect(hashes).toEqual(['hash-of-a.jpg', null, 'hash-of-c.jpg']);
    expect(progress.at(-1)).toBe(3);
  });
});
