import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openSharedInbox } from './inbox.ts';

const photo = (name: string, bytes = 3) =>
  new File([new Uint8Array(bytes).fill(1)], name, { type: 'image/jpeg', lastModified: 1_700_000_000_000 });

describe('what the Share sheet sent, kept on the phone until it is saved', () => {
  it('keeps each share beside the ones not yet saved, oldest first, with the names, types and bytes shared', async () => {
    const inbox = openSharedInbox(new IDBFactory());
    await inbox.keep([photo('beach.jpg', 5)]);
    await inbox.keep([photo('dog.jpg'), photo('cat.jpg')]);
    const items = await inbox.list();
    expect(items.map((item) => item.file.name)).toEqual(['beach.jpg', 'dog.jpg', 'cat.jpg']);
    expect(items[0]!.file.type).toBe('image/jpeg');
    expect(items[0]!.file.size).toBe(5);
    expect(new Uint8Array(await items[0]!.file.arrayBuffer())).toEqual(new Uint8Array(5).fill(1));
  });

  it('lets go of only the files saved: a share that arrived meanwhile stays', async () => {
    const inbox = openSharedInbox(new IDBFactory());
    await inbox.keep([photo('beach.jpg'), photo('dog.jpg')]);
    const saved = (await inbox.list()).map((item) => item.id);
    await inbox.keep([photo('later.jpg')]);
    await inbox.remove(saved);
    expect((await inbox.list()).map((item) => item.file.name)).toEqual(['later.jpg']);
  });

  it('shows nothing it cannot read whole (a record of another version), and leaves it be', async () => {
    const factory = new IDBFactory();
    const inbox = openSharedInbox(factory);
    await inbox.keep([photo('beach.jpg')]);
    const db = await new Promise<IDBDatabase>((resolve) => {
      const req = factory.open('hearth-shared', 1);
      req.onsuccess = () => resolve(req.result);
    });
    await new Promise((resolve) => {
      const tx = db.transaction('items', 'readwrite');
      tx.objectStore('items').add({ blobs: ['?'], receivedAt: 1 });
      tx.oncomplete = resolve;
    });
    db.close();
    expect((await inbox.list()).map((item) => item.file.name)).toEqual(['beach.jpg']);
  });
});
