import type { Page } from '@playwright/test';
import {
  expectInFolder,
  expectInstallable,
  expectNothingWaiting,
  expectSecureContext,
  expectServiceWorkerControls,
  expectSharedListed,
  expectShareWithoutWorkerAnswered,
  openPersistentBrowser,
  saveSharedInto,
  shareToHearth,
  type SharedFile,
} from './support/app-install.ts';
import { expect, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { mediaFixture } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

/** Signs in on the screen the app shows at the address it is at (the sign-in screen keeps it). */
async function signInHere(page: Page, account: { username: string; password: string }): Promise<void> {
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const note = (): SharedFile => ({ name: 'Recipe for Sunday.txt', mimeType: 'text/plain', buffer: Buffer.from('Flour, eggs, milk.\n') });
const paris = async (): Promise<SharedFile> => ({
  name: 'Paris.jpg',
  mimeType: 'image/jpeg',
  buffer: await mediaFixture('paris-canon.jpg'),
});

test('Hearth is a real app in a secure context: Web Locks and the clipboard, a service worker in control, and a manifest Chromium finds installable', async ({
  baseURL,
}, testInfo) => {
  const browser = await openPersistentBrowser(testInfo);
  try {
    await expectServiceWorkerControls(browser.page, baseURL!);
    await expectSecureContext(browser.page);
    await expectInstallable(browser.page);
  } finally {
    await browser.close();
  }
});

test('Share → Hearth: what the phone shares waits through signing in, is listed with its pictures, and is saved into the folder chosen, then leaves the phone', async ({
  page,
  baseURL,
  hearth,
  member,
}, testInfo) => {
  const holiday = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holiday' });
  await expectServiceWorkerControls(page, baseURL!);
  const shared = [await paris(), note()];
  await shareToHearth(page, baseURL!, shared);
  // Signed out: the sign-in screen first, at the same address, and the files still there after.
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await signInHere(page, member);
  await expectSharedListed(
    page,
    shared.map((file) => file.name),
    ['Paris.jpg'],
  );
  await expect(page.getByText('1 photo and 1 file', { exact: true })).toBeVisible();
  // A photo with a note is not only photos: it goes to My files unless another folder is chosen.
  await expect(page.getByRole('region', { name: 'Save to Hearth' }).getByText('My files', { exact: true })).toBeVisible();
  await captureScreen(page, testInfo, 'share-target-waiting');
  await saveSharedInto(page, 'Holiday');
  await expect(page.getByRole('status').filter({ hasText: '1 photo and 1 file are now in Holiday.' })).toBeVisible();
  await expectInFolder(hearth.api, member, holiday.id, shared);
  await captureScreen(page, testInfo, 'share-target-saved');
  await page.getByRole('link', { name: 'Open Holiday' }).click();
  await expect(page.getByRole('link', { name: 'Paris.jpg' }).or(page.getByText('Paris.jpg')).first()).toBeVisible();
  await expectNothingWaiting(page, baseURL!);
  await captureScreen(page, testInfo, 'share-target-empty');
});

test('photos shared alone go where this phone backs up its photos, without a folder to choose', async ({
  page,
  baseURL,
  hearth,
  member,
}) => {
  await expectServiceWorkerControls(page, baseURL!);
  const shared = [await paris()];
  await shareToHearth(page, baseURL!, shared);
  await signInHere(page, member);
  await expectSharedListed(page, ['Paris.jpg'], ['Paris.jpg']);
  await expect(page.getByRole('region', { name: 'Save to Hearth' }).getByText(/^Phone backup\//)).toBeVisible();
  await saveSharedInto(page, null);
  const backup = await hearth.api.ok<{ items: { id: string; name: string; type: string }[] }>(
    'GET',
    '/nodes?parent_id=root',
    member.access,
  );
  const backupFolder = backup.items.find((node) => node.name === 'Phone backup' && node.type === 'folder');
  expect(backupFolder, 'Phone backup is made in My files').toBeDefined();
  const devices = await hearth.api.ok<{ items: { id: string }[] }>('GET', `/nodes?parent_id=${backupFolder!.id}`, member.access);
  expect(devices.items).toHaveLength(1);
  await expectInFolder(hearth.api, member, devices.items[0]!.id, shared);
});

test('a share that only brings a link is told plainly, and nothing waits', async ({ page, baseURL, member, hearth }) => {
  await expectServiceWorkerControls(page, baseURL!);
  await page.evaluate(
    ({ action }) => {
      const form = Object.assign(document.createElement('form'), {
        id: 'e2e-link',
        method: 'post',
        enctype: 'multipart/form-data',
        action,
      });
      form.append(
        Object.assign(document.createElement('input'), { type: 'hidden', name: 'url', value: 'https://example.org/recipe' }),
        Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Share link (test)' }),
      );
      document.body.append(form);
    },
    { action: `${baseURL}/share-target` },
  );
  await page.locator('#e2e-link button').click();
  await page.waitForURL((url) => url.pathname === '/shared-with-hearth');
  await signInHere(page, member);
  await expect(page.getByText('What you shared was a link or some text.', { exact: false })).toBeVisible();
  const root = await hearth.api.ok<{ items: unknown[] }>('GET', '/nodes?parent_id=root', member.access);
  expect(root.items).toEqual([]);
});

test('a share before the service worker runs (the first visit) reaches the server, which keeps nothing and says to share again', async ({
  browser,
  baseURL,
  hearth,
  owner,
}, testInfo) => {
  const member = await hearth.api.member(owner, uniqueName('first'));
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor,
    isMobile,
    hasTouch,
    userAgent,
    baseURL,
    serviceWorkers: 'block',
  });
  try {
    const page = await context.newPage();
    await expectShareWithoutWorkerAnswered(page, baseURL!, [await paris()]);
    await signInHere(page, member);
    await expect(
      page.getByText('Hearth was not ready on this phone yet, so what you shared did not arrive.', { exact: false }),
    ).toBeVisible();
    await captureScreen(page, testInfo, 'share-target-missed');
    const root = await hearth.api.ok<{ items: unknown[] }>('GET', '/nodes?parent_id=root', member.access);
    expect(root.items).toEqual([]);
  } finally {
    await context.close();
  }
});
