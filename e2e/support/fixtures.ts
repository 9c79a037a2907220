import { test as base, expect, type Page } from '@playwright/test';
import { startHearth, uniqueName, type Account, type Hearth } from './hearth.ts';

export type World = 'secure' | 'lan';

interface WorkerFixtures {
  /** Server settings for a spec that needs its own (e.g. short-lived access tokens). */
  serverConfig: Record<string, unknown>;
  hearth: Hearth;
  owner: Account;
  world: World;
}

interface TestFixtures {
  /** A fresh family member for this test, not yet signed in in the browser. */
  member: Account;
  /** Signs the worker's owner in again when the access token is near its 15 minutes. */
  ownerSignedIn: void;
}

/** When each worker's owner last signed in. */
const ownerSignedInAt = new WeakMap<Account, number>();
/** Well inside the access token's 15 minutes, so no test starts on a token about to lapse. */
const OWNER_TOKEN_KEPT_MS = 10 * 60_000;

/**
 * Signs the worker's owner in again when the access token is past half its life or its
 * OWNER_TOKEN_KEPT_MS. A worker lives longer than an access token on a busy machine: its
 * owner's tests then failed with invalid_token, whatever they tested. A spec with seconds-long
 * tokens (two-tabs: 4 s) failed so in its set-up when launching the browser took longer.
 */
async function keepSignedIn(hearth: Hearth, owner: Account, serverConfig: Record<string, unknown>): Promise<void> {
  const ttl = typeof serverConfig.accessTokenTtlMs === 'number' ? serverConfig.accessTokenTtlMs : Infinity;
  if (Date.now() - (ownerSignedInAt.get(owner) ?? 0) > Math.min(OWNER_TOKEN_KEPT_MS, ttl / 2)) {
    Object.assign(owner, await hearth.api.login(owner.username, owner.password));
    ownerSignedInAt.set(owner, Date.now());
  }
}

/**
 * One real server per worker, with its owner; each test makes its own family member. The
 * `world` option opens the app either at 127.0.0.1 (a secure context) or at hearth.local,
 * mapped to 127.0.0.1 by Chromium's resolver: a LAN-like name that is not a secure context
 * (no service worker, no Web Locks, no crypto.subtle, no async clipboard), as a phone sees it.
 */
export const test = base.extend<TestFixtures, WorkerFixtures>({
  world: ['secure', { option: true, scope: 'worker' }],
  serverConfig: [{}, { option: true, scope: 'worker' }],
  hearth: [
    async ({ serverConfig }, use) => {
      const hearth = await startHearth(serverConfig);
      await use(hearth);
      await hearth.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  owner: [
    async ({ hearth }, use) => {
      const owner = await hearth.api.setupOwner();
      ownerSignedInAt.set(owner, Date.now());
      await use(owner);
    },
    { scope: 'worker' },
  ],
  ownerSignedIn: [
    async ({ hearth, owner, serverConfig }, use) => {
      await keepSignedIn(hearth, owner, serverConfig);
      await use();
    },
    { auto: true },
  ],
  baseURL: async ({ hearth, world }, use) => use(world === 'lan' ? `http://hearth.local:${hearth.port}` : hearth.url),
  member: async ({ hearth, owner, serverConfig }, use) => {
    // Checked again here: the browser may have been launched since ownerSignedIn, and a spec's
    // token may last only seconds.
    await keepSignedIn(hearth, owner, serverConfig);
    await use(await hearth.api.member(owner, uniqueName('kid')));
  },
});

export { expect };

/** The main navigation that is on screen: the side bar on a desktop, the bottom bar on a phone. */
export function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/**
 * Signs in through the sign-in screen, as a person would, at My files' address: the app's own
 * address opens Photos on a phone (StartPage), and the tests that sign in mean to start in My files.
 */
export async function signIn(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.goto('/files');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  // The app shows My files at once and keeps the session (IndexedDB, then localStorage) just
  // after: a test going straight to another address must not leave before it is kept.
  await page.waitForFunction(() => localStorage.getItem('hearth.session') !== null);
}
