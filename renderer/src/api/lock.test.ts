import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeLockManager } from '../testing/fake-locks.ts';

type LockModule = typeof import('./lock.ts');

/** A tab of the app: its own copy of the module (its own tab id and queue), this browser's IndexedDB and channels. */
async function openTab(): Promise<LockModule> {
  vi.resetModules();
  return import('./lock.ts');
}

/** Turns of the event loop: enough for IndexedDB's transactions (fake-indexeddb runs them on setImmediate) to settle. */
async function settle(turns = 50): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Counts who is inside at once, across every tab of a test. */
function critical() {
  let inside = 0;
  let most = 0;
  const ran: string[] = [];
  return {
    ran,
    get most() {
      return most;
    },
    task: (name: string) => async () => {
      inside += 1;
      most = Math.max(most, inside);
      ran.push(name);
      await settle(5);
      inside -= 1;
      return name;
    },
  };
}

/** A task that holds the lock until released by the test. */
function heldTask() {
  let release!: () => void;
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    inside,
    release: () => release(),
    task: async () => {
      entered();
      await done;
    },
  };
}

/** Puts a lease in the browser's lock database as another tab would have left it. */
async function leaveLease(name: string, lease: { owner: string; until: number }): Promise<void> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('hearth-locks', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('leases');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction('leases', 'readwrite');
    tx.objectStore('leases').put(lease, name);
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}

async function leaseOf(name: string): Promise<unknown> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('hearth-locks', 1);
    request.onupgradeneeded = () => request.result.createObjectStore('leases');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const value = await new Promise<unknown>((resolve, reject) => {
    const read = db.transaction('leases', 'readonly').objectStore('leases').get(name);
    read.onsuccess = () => resolve(read.result);
    read.onerror = () => reject(read.error);
  });
  db.close();
  return value;
}

beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory());
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the lock shared by the tabs of this browser, where it has Web Locks', () => {
  it('the task runs under navigator.locks with its name, and no lease is written', async () => {
    const locks = new FakeLockManager();
    vi.stubGlobal('navigator', { locks });
    const tab = await openTab();
    const seen = critical();
    const results = await Promise.all([tab.withCrossTabLock('refresh', seen.task('a')), tab.withCrossTabLock('refresh', seen.task('b'))]);
    expect(results).toEqual(['a', 'b']);
    expect(locks.requested).toEqual(['refresh', 'refresh']);
    expect(seen.most).toBe(1);
    expect(await indexedDB.databases()).toEqual([]);
  });
});

describe('the lease in IndexedDB, for a phone on plain HTTP (no Web Locks there)', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', {});
  });

  it('two tabs asking at once never hold it together, and every task runs', async () => {
    const [one, two] = [await openTab(), await openTab()];
    const seen = critical();
    const asked = [1, 2, 3].flatMap((i) => [
      one.withCrossTabLock('refresh', seen.task(`one-${i}`)),
      two.withCrossTabLock('refresh', seen.task(`two-${i}`)),
    ]);
    expect((await Promise.all(asked)).sort()).toEqual(['one-1', 'one-2', 'one-3', 'two-1', 'two-2', 'two-3']);
    expect(seen.most).toBe(1);
  });

  it("within one tab, callers queue: the tab's own lease does not let a second caller in", async () => {
    const tab = await openTab();
    const seen = critical();
    await Promise.all(['a', 'b', 'c'].map((name) => tab.withCrossTabLock('refresh', seen.task(name))));
    expect(seen.ran).toEqual(['a', 'b', 'c']);
    expect(seen.most).toBe(1);
  });

  it('a task that fails lets go of the lease: the next one runs, and the failure reaches its caller', async () => {
    const tab = await openTab();
    const failing = tab.withCrossTabLock('refresh', async () => {
      throw new Error('refresh failed');
    });
    await expect(failing).rejects.toThrow('refresh failed');
    await expect(tab.withCrossTabLock('refresh', async () => 'next')).resolves.toBe('next');
    expect(await leaseOf('refresh')).toBeUndefined();
  });

  it('a waiting tab goes on as soon as the holder lets go (the release is announced), not at its next look', async () => {
    // Frozen timers: the waiting tab's next look never comes, so only the announcement can wake it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const [holder, waiter] = [await openTab(), await openTab()];
    const held = heldTask();
    const holding = holder.withCrossTabLock('refresh', held.task);
    await held.inside;
    let ran = false;
    const waiting = waiter.withCrossTabLock('refresh', async () => {
      ran = true;
    });
    await settle();
    expect(ran).toBe(false);
    const announced = new Promise((resolve) => {
      const channel = new BroadcastChannel('hearth-locks');
      channel.onmessage = (event) => {
        channel.close();
        resolve(event.data);
      };
    });
    held.release();
    await holding;
    await waiting;
    expect(ran).toBe(true);
    expect(await announced).toBe('refresh');
  });

  it('a lease left by a tab that closed while holding it blocks nobody once it has expired', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await leaveLease('refresh', { owner: 'a closed tab', until: Date.now() + 15_000 });
    const tab = await openTab();
    let ranAt: number | null = null;
    const waiting = tab.withCrossTabLock('refresh', async () => {
      ranAt = Date.now();
    });
    // Looked at again and again, still held by the closed tab for most of its 15 s.
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(1_000);
      await settle(10);
    }
    expect(ranAt).toBeNull();
    await vi.advanceTimersByTimeAsync(6_000);
    await settle(10);
    await vi.advanceTimersByTimeAsync(1_000);
    await waiting;
    expect(ranAt).not.toBeNull();
    expect(await leaseOf('refresh')).toBeUndefined();
  });

  it('an expired lease of another tab is taken over at once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await leaveLease('refresh', { owner: 'a closed tab', until: Date.now() - 1 });
    const tab = await openTab();
    await expect(tab.withCrossTabLock('refresh', async () => 'taken')).resolves.toBe('taken');
  });

  it('without IndexedDB (a browser that refuses it) the task still runs', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const tab = await openTab();
    await expect(tab.withCrossTabLock('refresh', async () => 'ran')).resolves.toBe('ran');
  });
});
