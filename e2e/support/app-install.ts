import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, expect, type BrowserContext, type LaunchOptions, type Page, type TestInfo } from '@playwright/test';
import type { Account, Api } from './hearth.ts';

/*
 * What makes Hearth a real app on a phone, as assertions that take the app's origin: the
 * secure context on 127.0.0.1 now (e2e/app-install.spec.ts), and HTTPS under a .local name
 * with a test CA later, by a spec that calls the same functions with that origin.
 */

/** The manifest's share_target.action and the app's screen for what arrives there. */
export const SHARE_TARGET = '/share-target';
export const SHARED_SCREEN = '/shared-with-hearth';

/** A file as the phone's Share sheet hands it over. */
export interface SharedFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** A secure context, with what it brings: Web Locks (the session's cross-tab refresh) and the async clipboard. */
export async function expectSecureContext(page: Page): Promise<void> {
  const found = await page.evaluate(() => ({
    secure: window.isSecureContext,
    locks: typeof navigator.locks?.request === 'function',
    clipboard: typeof navigator.clipboard?.writeText === 'function',
    serviceWorker: 'serviceWorker' in navigator,
  }));
  expect(found).toEqual({ secure: true, locks: true, clipboard: true, serviceWorker: true });
}

/** The app's service worker is active and controls the page (a page opened before it was, once reloaded). */
export async function expectServiceWorkerControls(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), { timeout: 20_000 })
    .toBe('activated');
  // The worker claims open pages as it activates; a reload is how a page that missed it gets one.
  if (!(await page.evaluate(() => navigator.serviceWorker.controller !== null))) await page.reload();
  const controller = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null);
  expect(controller).toBe(`${origin}/sw.js`);
}

/**
 * A browser profile kept on disk, as a phone's browser has: Chromium installs no app from an
 * off-the-record profile (its check answers "in-incognito"), and every context a test browser
 * makes is one. The project's device and launch options; `extra` adds to them (say, the
 * arguments that trust a test CA). Closing it removes the profile.
 */
export async function openPersistentBrowser(
  testInfo: TestInfo,
  extra: Partial<LaunchOptions> & { ignoreHTTPSErrors?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent, launchOptions } = testInfo.project.use;
  const profile = await fs.mkdtemp(path.join(os.tmpdir(), 'hearth-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...launchOptions,
    ...extra,
    args: [...(launchOptions?.args ?? []), ...(extra.args ?? [])],
    viewport,
    deviceScaleFactor,
    isMobile,
    hasTouch,
    userAgent,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      // Chromium's last writes to the profile may land just after it says it closed.
      await fs.rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/**
 * Chromium's own installability check (on a page of a profile kept on disk: openPersistentBrowser), through the DevTools protocol: no error (a manifest with
 * a name, a start URL, large enough icons, standalone display, a service worker), and the
 * manifest it parsed has the share target that puts Hearth in the phone's Share sheet.
 */
export async function expectInstallable(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string; errorArguments: { name: string; value: string }[] }[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: { message: string }[]; data?: string };
    expect(manifest.errors).toEqual([]);
    const parsed = JSON.parse(manifest.data ?? '{}') as { id?: string; share_target?: { action: string; method: string; enctype: string } };
    expect(parsed.id).toBe('/');
    expect(parsed.share_target).toMatchObject({ action: SHARE_TARGET, method: 'POST', enctype: 'multipart/form-data' });
  } finally {
    await cdp.detach();
  }
}

/**
 * Shares files to Hearth as Chromium does for a share target: a multipart POST navigation to
 * the manifest's action, with the files under the manifest's name for them (and a title, as a
 * gallery app often adds). Starts from any page of the origin; ends where the answer leads.
 */
export async function shareToHearth(page: Page, origin: string, files: SharedFile[], title = 'Shared from Gallery'): Promise<void> {
  if (!page.url().startsWith(origin)) await page.goto(`${origin}/`);
  // A form made in the page by the test (the app itself never posts one): the app's CSP allows
  // a form to post to its own origin only, as the share does.
  await page.evaluate(
    ({ action, title }) => {
      const form = document.createElement('form');
      form.id = 'e2e-share';
      form.method = 'post';
      form.enctype = 'multipart/form-data';
      form.action = action;
      const text = Object.assign(document.createElement('input'), { type: 'hidden', name: 'title', value: title });
      const input = Object.assign(document.createElement('input'), { type: 'file', name: 'files', multiple: true });
      const send = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Share to Hearth (test)' });
      form.append(text, input, send);
      document.body.append(form);
    },
    { action: `${origin}${SHARE_TARGET}`, title },
  );
  await page.locator('#e2e-share input[type=file]').setInputFiles(files);
  await page.locator('#e2e-share button').click();
  await page.waitForURL((url) => url.pathname === SHARED_SCREEN);
}

/** The Save to Hearth screen lists exactly these files by name, each photo with its picture. */
export async function expectSharedListed(page: Page, names: string[], photos: string[] = []): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Save to Hearth' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Shared with Hearth' });
  await expect(list.getByRole('listitem')).toHaveCount(names.length);
  for (const name of names) await expect(list.getByRole('listitem').filter({ hasText: name })).toBeVisible();
  for (const name of photos) {
    const picture = list.getByRole('listitem').filter({ hasText: name }).locator('img');
    await expect(picture).toHaveJSProperty('complete', true);
    expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  }
}

/** Chooses a folder under My files in the folder picker (null: keeps the one offered), saves, and waits for "Saved." */
export async function saveSharedInto(page: Page, folder: string | null): Promise<void> {
  if (folder !== null) {
    await page.getByRole('button', { name: 'Choose another folder' }).click();
    const picker = page.getByRole('dialog', { name: 'Where to save them' });
    await picker.getByRole('button', { name: `Open ${folder}` }).click();
    await picker.getByRole('button', { name: `Save into ${folder}` }).click();
    await expect(page.getByText(`Save into ${folder}`, { exact: true })).toBeVisible();
  }
  await page.getByRole('button', { name: 'Save to Hearth' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible({ timeout: 30_000 });
}

/** The files are in the folder, with the bytes shared, as the API lists them to their account. */
export async function expectInFolder(api: Api, account: Account, folderId: string | null, files: SharedFile[]): Promise<void> {
  const listing = await api.ok<{ items: { name: string; size: number; type: string }[] }>(
    'GET',
    `/nodes?parent_id=${folderId ?? 'root'}&limit=1000`,
    account.access,
  );
  for (const file of files) expect(listing.items).toContainEqual(expect.objectContaining({ name: file.name, size: file.buffer.length }));
}

/** Nothing waits on the phone any more: the screen says so, after a reload too. */
export async function expectNothingWaiting(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}${SHARED_SCREEN}`);
  await expect(page.getByText('Nothing is waiting to be saved.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Shared with Hearth' })).toHaveCount(0);
}

/**
 * The first visit: no service worker runs yet (the caller's page comes from a context made with
 * `serviceWorkers: 'block'`), so the share reaches the server, which keeps nothing and answers
 * with the screen that says to share again.
 */
export async function expectShareWithoutWorkerAnswered(page: Page, origin: string, files: SharedFile[]): Promise<void> {
  await page.goto(`${origin}/`);
  expect(await page.evaluate(() => navigator.serviceWorker?.controller ?? null)).toBeNull();
  await shareToHearth(page, origin, files);
  expect(new URL(page.url()).search).toBe('?share=missed');
}
