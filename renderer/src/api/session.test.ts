import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { humanMessage } from './error-messages.ts';
import { ANNA, FakeAuthServer } from '../testing/auth-server.ts';
import { FakeLockManager } from '../testing/fake-locks.ts';
import { MemoryStorage } from '../testing/memory-storage.ts';

type SessionModule = typeof import('./session.ts');
type TokenStore = typeof import('./refresh-token-store.ts');

/**
 * A tab of the app: its own session, token store, lock queue and sessionStorage; this browser's
 * localStorage, IndexedDB and locks. A reload is a new page in the same tab: pass the tab's
 * sessionStorage, which a reload keeps.
 */
async function openTab(
  tabStorage = new MemoryStorage(),
): Promise<{ session: SessionModule['session']; store: TokenStore; tabStorage: MemoryStorage }> {
  vi.resetModules();
  vi.stubGlobal('sessionStorage', tabStorage);
  const [{ session }, store] = await Promise.all([import('./session.ts'), import('./refresh-token-store.ts')]);
  return { session, store, tabStorage };
}

let server: FakeAuthServer;

beforeEach(() => {
  server = new FakeAuthServer();
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('indexedDB', new IDBFactory());
  vi.stubGlobal('fetch', server.fetch);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe.each([
  ['with Web Locks', () => ({ locks: new FakeLockManager() })],
  ['with the IndexedDB lease (a phone on plain HTTP)', () => ({})],
])('tabs of one browser refreshing at once, %s', (_, browserNavigator) => {
  beforeEach(() => {
    vi.stubGlobal('navigator', browserNavigator());
  });

  it('never spend the same refresh token twice: each rotation is spent once, and every tab stays signed in', async () => {
    const first = await openTab();
    await first.session.adopt(server.signIn());
    const stale = await first.session.accessToken();
    const others = [await openTab(), await openTab()];
    // The first tab's token was refused; the others open the app and restore the stored session.
    const tokens = await Promise.all([
      first.session.refresh(stale),
      ...others.map((tab) => tab.session.restore().then(() => tab.session.accessToken())),
    ]);

    expect(server.reused).toBe(0);
    expect(new Set(server.refreshes).size).toBe(server.refreshes.length);
    expect(server.refreshes).toHaveLength(3);
    for (const tab of [first, ...others]) expect(tab.session.current()).toMatchObject({ kind: 'signed-in', user: { id: ANNA.id } });
    expect(tokens.every((token) => typeof token === 'string')).toBe(true);
    // What the browser keeps is the last token handed out, the one the next refresh must spend.
    expect(await first.store.readRefreshToken()).toBe(server.refreshToken);
  });
});

/** One tab alone: its navigator has the cross-tab lock, and no other tab asks for it. */
function oneTab() {
  beforeEach(() => {
    vi.stubGlobal('navigator', { locks: new FakeLockManager() });
  });
}

// Two blocks under one name (refreshing; opening and signing out), so each stays short.
describe('the session of one tab', () => {
  oneTab();

  it('requests failing together with the same expired token wait on one refresh, and all get its token', async () => {
    const { session } = await openTab();
    await session.adopt(server.signIn());
    const stale = await session.accessToken();
    const answers = await Promise.all(Array.from({ length: 5 }, () => session.refresh(stale)));
    expect(server.refreshes).toHaveLength(1);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).not.toBe(stale);
    // A caller whose token was already replaced gets the new one without another refresh.
    await expect(session.refresh(stale)).resolves.toBe(answers[0]);
    expect(server.refreshes).toHaveLength(1);
  });

  it('refreshes a minute before the access token expires, not after, so a request rarely meets a 401', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { session } = await openTab();
    await session.adopt(server.signIn(15 * 60_000));
    const first = await session.accessToken();
    vi.setSystemTime(Date.now() + 13 * 60_000);
    await expect(session.accessToken()).resolves.toBe(first);
    expect(server.refreshes).toHaveLength(0);
    vi.setSystemTime(Date.now() + 90_000);
    const renewed = await session.accessToken();
    expect(server.refreshes).toHaveLength(1);
    expect(renewed).not.toBe(first);
  });

  it("a token whose expiry this device's clock cannot believe (already past, or days away) is used for ten minutes", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { session } = await openTab();
    // The phone's clock is a day ahead: the token looks expired on arrival.
    await session.adopt({ ...server.signIn(), expires_at: Date.now() - 86_400_000 });
    const token = await session.accessToken();
    vi.setSystemTime(Date.now() + 8 * 60_000);
    await expect(session.accessToken()).resolves.toBe(token);
    expect(server.refreshes).toHaveLength(0);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await session.accessToken();
    expect(server.refreshes).toHaveLength(1);
  });

  it("a refresh the server refuses signs this browser out with the server's reason, and forgets the token", async () => {
    const { session, store } = await openTab();
    await session.adopt(server.signIn());
    const stale = await session.accessToken();
    // Another device spent this session's token (a stolen copy): the server ends the session.
    await server.fetch('/api/v1/auth/refresh', { method: 'POST', body: JSON.stringify({ refresh_token: server.refreshToken }) });
    await expect(session.refresh(stale)).resolves.toBeNull();
    expect(session.current()).toEqual({ kind: 'signed-out', reason: humanMessage('refresh_token_reused') });
    expect(localStorage.getItem('hearth.session')).toBeNull();
    await vi.waitFor(async () => expect(await store.readRefreshToken()).toBeNull());
    // A request that was in flight comes back refused and asks for a refresh with no token left: the reason stays.
    await expect(session.refresh(stale)).resolves.toBeNull();
    expect(session.current()).toEqual({ kind: 'signed-out', reason: humanMessage('refresh_token_reused') });
  });

  it('without an answer from the server, the refresh fails as "cannot reach" and the token is kept for the next try', async () => {
    const { session, store } = await openTab();
    await session.adopt(server.signIn());
    const stale = await session.accessToken();
    const kept = server.refreshToken;
    server.offline = true;
    await expect(session.refresh(stale)).rejects.toMatchObject({ code: 'network' });
    expect(session.current().kind).toBe('signed-in');
    expect(await store.readRefreshToken()).toBe(kept);
    server.offline = false;
    await expect(session.refresh(stale)).resolves.toEqual(expect.any(String));
    expect(server.reused).toBe(0);
  });
});

describe('the session of one tab', () => {
  oneTab();

  it('opened while the server is away, the app shows the stored account; it does not sign out', async () => {
    const before = await openTab();
    await before.session.adopt(server.signIn());
    server.offline = true;
    const { session } = await openTab();
    expect(session.current()).toEqual({ kind: 'restoring' });
    await session.restore();
    expect(session.current()).toMatchObject({ kind: 'signed-in', user: { id: ANNA.id }, sessionId: server.sessionId });
  });

  it('opened in a new tab, the stored account shows while the session is renewed, and its requests wait for the new token', async () => {
    const before = await openTab();
    await before.session.adopt(server.signIn());
    const { session } = await openTab();
    // What the app showed at the moment the refresh left for the server.
    const shownWhileAsking: string[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      shownWhileAsking.push(session.current().kind);
      return server.fetch(input, init);
    });
    await session.restore();
    expect(shownWhileAsking).toEqual(['signed-in']);
    expect(server.refreshes).toHaveLength(1);
    // The renewed token is the one requests get: no second refresh.
    await session.accessToken();
    expect(server.refreshes).toHaveLength(1);
  });

  it("opened in a new tab after the session was ended elsewhere, the stored account gives way to sign-in with the server's reason", async () => {
    const before = await openTab();
    await before.session.adopt(server.signIn());
    await server.fetch('/api/v1/auth/refresh', { method: 'POST', body: JSON.stringify({ refresh_token: server.refreshToken }) });
    const { session } = await openTab();
    await session.restore();
    expect(session.current()).toEqual({ kind: 'signed-out', reason: humanMessage('refresh_token_reused') });
  });

  it('opened with nothing stored, the app shows the sign-in screen without asking the server', async () => {
    const { session } = await openTab();
    expect(session.current()).toEqual({ kind: 'signed-out', reason: null });
    await session.restore();
    expect(session.current()).toEqual({ kind: 'signed-out', reason: null });
    expect(server.refreshes).toHaveLength(0);
  });

  it('signing out forgets who was signed in and the refresh token', async () => {
    const { session, store } = await openTab();
    await session.adopt(server.signIn());
    await session.signOut();
    expect(session.current()).toEqual({ kind: 'signed-out', reason: null });
    expect(localStorage.getItem('hearth.session')).toBeNull();
    await vi.waitFor(async () => expect(await store.readRefreshToken()).toBeNull());
  });

  it('a reload while the access token is fresh spends no refresh token, so a reload cannot cut a refresh short and end the session', async () => {
    const tab = await openTab();
    await tab.session.adopt(server.signIn());
    const token = await tab.session.accessToken();
    const reloaded = await openTab(tab.tabStorage);
    await reloaded.session.restore();
    expect(reloaded.session.current()).toMatchObject({ kind: 'signed-in', user: { id: ANNA.id }, sessionId: server.sessionId });
    await expect(reloaded.session.accessToken()).resolves.toBe(token);
    expect(server.refreshes).toHaveLength(0);
    // Another tab has its own sessionStorage: it makes the session live with a refresh of its own.
    const other = await openTab();
    await other.session.restore();
    expect(server.refreshes).toHaveLength(1);
    expect(server.reused).toBe(0);
  });

  it('a reload after the access token grew stale, or after signing out, does not use the kept token', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tab = await openTab();
    await tab.session.adopt(server.signIn());
    vi.setSystemTime(Date.now() + 60 * 60_000);
    const reloaded = await openTab(tab.tabStorage);
    await reloaded.session.restore();
    expect(server.refreshes).toHaveLength(1);
    await reloaded.session.signOut();
    expect(tab.tabStorage.getItem('hearth.access')).toBeNull();
    const afterSignOut = await openTab(tab.tabStorage);
    await afterSignOut.session.restore();
    expect(afterSignOut.session.current()).toEqual({ kind: 'signed-out', reason: null });
  });
});
