import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { openSharedInbox, WAITING_LIMITS } from './share-inbox.ts';

const photo = (name: string, bytes = 3) =>
  new File([new Uint8Array(bytes).fill(1)], name, { type: 'image/jpeg', lastModified: 1_700_000_000_000 });

const HOUR = 60 * 60_000;

/** A device's database and a clock the test moves. */
function device(limits = WAITING_LIMITS) {
  const factory = new IDBFactory();
  const clock = { now: 1_750_000_000_000 };
  return { factory, clock, inbox: openSharedInbox(factory, () => clock.now, limits) };
}

const names = (items: { file: File }[]) => items.map((item) => item.file.name);

describe('what the Share sheet sent, kept on the phone until it is saved', () => {
  it('keeps each share beside the ones not yet saved, oldest first, with the names, types and bytes shared', async () => {
    const { inbox } = device();
    await inbox.signedIn('ana');
    expect(await inbox.receive([photo('beach.jpg', 5)])).toBe('kept');
    await inbox.receive([photo('dog.jpg'), photo('cat.jpg')]);
    const items = await inbox.list('ana');
    expect(names(items)).toEqual(['beach.jpg', 'dog.jpg', 'cat.jpg']);
    expect(items[0]!.file.type).toBe('image/jpeg');
    expect(items[0]!.file.size).toBe(5);
    expect(new Uint8Array(await items[0]!.file.arrayBuffer())).toEqual(new Uint8Array(5).fill(1));
  });

  it('lets go of only the files saved: a share that arrived meanwhile stays', async () => {
    const { inbox } = device();
    await inbox.signedIn('ana');
    await inbox.receive([photo('beach.jpg'), photo('dog.jpg')]);
    const saved = (await inbox.list('ana')).map((item) => item.id);
    await inbox.receive([photo('later.jpg')]);
    await inbox.remove(saved);
    expect(names(await inbox.list('ana'))).toEqual(['later.jpg']);
  });

  it('shows nothing it cannot read whole (a record of another version), and leaves it be', async () => {
    const { factory, inbox } = device();
    await inbox.signedIn('ana');
    await inbox.receive([photo('beach.jpg')]);
    const db = await new Promise<IDBDatabase>((resolve) => {
      const req = factory.open('hearth-shared');
      req.onsuccess = () => resolve(req.result);
    });
    await new Promise((resolve) => {
      const tx = db.transaction('items', 'readwrite');
      tx.objectStore('items').add({ blobs: ['?'], receivedAt: 1 });
      tx.oncomplete = resolve;
    });
    db.close();
    expect(names(await inbox.list('ana'))).toEqual(['beach.jpg']);
  });
});

describe('on a device several people sign in to (issue 30, finding 8)', () => {
  it('a share belongs to the account signed in when it arrived: the next person to sign in never sees it, its owner still does', async () => {
    const { inbox } = device();
    await inbox.signedIn('mum');
    await inbox.receive([photo('payslip.jpg')]);
    await inbox.signedOut();
    await inbox.signedIn('kid');
    expect(await inbox.list('kid')).toEqual([]);
    await inbox.receive([photo('drawing.jpg')]);
    expect(names(await inbox.list('kid'))).toEqual(['drawing.jpg']);
    await inbox.signedOut();
    await inbox.signedIn('mum');
    expect(names(await inbox.list('mum'))).toEqual(['payslip.jpg']);
  });

  it('a share that arrived while nobody was signed in is the first signed-in person’s, and only theirs', async () => {
    const { inbox } = device();
    await inbox.receive([photo('beach.jpg')]);
    await inbox.signedIn('dad');
    await inbox.signedOut();
    await inbox.signedIn('kid');
    expect(await inbox.list('kid')).toEqual([]);
    expect(names(await inbox.list('dad'))).toEqual(['beach.jpg']);
  });

  it('the Save to Hearth screen opened right after signing in finds what arrived signed out, even before the app says who signed in', async () => {
    const { inbox } = device();
    await inbox.receive([photo('beach.jpg')]);
    expect(names(await inbox.list('dad'))).toEqual(['beach.jpg']);
    expect(await inbox.list('kid')).toEqual([]);
  });
});

describe('what waits is bounded (issue 30, finding 8)', () => {
  it('a share is let go of a day after it arrived, unsaved, and never shown after', async () => {
    const { inbox, clock } = device();
    await inbox.signedIn('ana');
    await inbox.receive([photo('old.jpg')]);
    clock.now += 20 * HOUR;
    await inbox.receive([photo('new.jpg')]);
    clock.now += 5 * HOUR;
    expect(names(await inbox.list('ana'))).toEqual(['new.jpg']);
  });

  it('a share that would pass the files or bytes waiting on the device is refused whole, and what waited stays', async () => {
    const { inbox } = device({ ...WAITING_LIMITS, files: 3, bytes: 100 });
    await inbox.signedIn('ana');
    expect(await inbox.receive([photo('a.jpg'), photo('b.jpg')])).toBe('kept');
    expect(await inbox.receive([photo('c.jpg'), photo('d.jpg')])).toBe('too-much');
    expect(await inbox.receive([photo('huge.jpg', 99)])).toBe('too-much');
    expect(names(await inbox.list('ana'))).toEqual(['a.jpg', 'b.jpg']);
    expect(await inbox.receive([photo('c.jpg')])).toBe('kept');
  });

  it('another account’s waiting files count toward the device’s limits, and expired ones no longer do', async () => {
    const { inbox, clock } = device({ ...WAITING_LIMITS, files: 2 });
    await inbox.signedIn('mum');
    await inbox.receive([photo('a.jpg'), photo('b.jpg')]);
    await inbox.signedIn('kid');
    expect(await inbox.receive([photo('c.jpg')])).toBe('too-much');
    clock.now += WAITING_LIMITS.keepMs + HOUR;
    expect(await inbox.receive([photo('c.jpg')])).toBe('kept');
  });

  it('a phone clock set far back does not keep a share for ever', async () => {
    const { inbox, clock } = device();
    await inbox.signedIn('ana');
    await inbox.receive([photo('beach.jpg')]);
    clock.now -= 30 * HOUR;
    expect(await inbox.list('ana')).toEqual([]);
  });
});

describe('what version 1 kept (no account)', () => {
  it('is opened as version 2 and belongs to the first to sign in', async () => {
    const factory = new IDBFactory();
    const db = await new Promise<IDBDatabase>((resolve) => {
      const req = factory.open('hearth-shared', 1);
      req.onupgradeneeded = () => req.result.createObjectStore('items', { keyPath: 'id', autoIncrement: true });
      req.onsuccess = () => resolve(req.result);
    });
    const receivedAt = Date.now();
    await new Promise((resolve) => {
      const tx = db.transaction('items', 'readwrite');
      tx.objectStore('items').add({
        name: 'beach.jpg',
        type: 'image/jpeg',
        lastModified: 1,
        size: 3,
        blob: photo('beach.jpg'),
        receivedAt,
      });
      tx.oncomplete = resolve;
    });
    db.close();
    const inbox = openSharedInbox(factory);
    await inbox.signedIn('ana');
    expect(names(await inbox.list('ana'))).toEqual(['beach.jpg']);
    expect(await inbox.list('ben')).toEqual([]);
  });
});
