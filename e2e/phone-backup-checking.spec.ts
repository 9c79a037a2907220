import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, upload } from './support/media.ts';
import { chooseForBackup } from './support/photo-backup.ts';
import { scratchFolder } from './support/scratch.ts';

const status = (page: Page) => page.getByRole('region', { name: 'Backing up this phone' });

/** Photos on "the phone": files on disk, each its own content. */
async function roll(photos: { name: string; data: Buffer }[]): Promise<string[]> {
  const dir = await scratchFolder('roll');
  return Promise.all(
    photos.map(async ({ name, data }) => {
      await fs.writeFile(path.join(dir, name), data);
      return path.join(dir, name);
    }),
  );
}

/**
 * Holds the server's answer to "which of these do you have" until `release()`: while it is held
 * the phone can only be comparing, so what the page says then is what it says while checking.
 */
async function holdTheCheck(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const askedOnce = new Promise<void>((resolve) => (asked = resolve));
  await page.route('**/api/v1/nodes/check-hashes', async (route) => {
    asked();
    await released;
    await route.continue();
  });
  return { asked: askedOnce, release };
}

/** Every upload the page starts (a tus creation), counted as it is asked for. */
function uploadsStarted(page: Page): string[] {
  const started: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/v1\/uploads\/?$/.test(new URL(request.url()).pathname)) started.push(request.url());
  });
  return started;
}

/** Whether "Backing up now" was ever on the page, watched from its first paint, not sampled. */
async function watchForBackingUpNow(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = { backingUpNow: false };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('Backing up now')) seen.backingUpNow = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
}
const sawBackingUpNow = (page: Page) =>
  page.evaluate(() => (window as unknown as { __seen: { backingUpNow: boolean } }).__seen.backingUpNow);

test('while the phone only compares its photos with what Hearth has, the backup says “Checking…”, never “Backing up now”, and sends nothing when nothing is new', async ({
  page,
  hearth,
  member,
}) => {
  test.setTimeout(90_000);
  const photos = [
    { name: 'IMG_2001.jpg', data: await photo('2024:05:01 09:00:00', 320, 240) },
    { name: 'IMG_2002.jpg', data: await photo('2024:05:02 09:00:00', 320, 240) },
  ];
  // Both already on Hearth: this run has nothing to send.
  for (const { name, data } of photos) await upload(hearth.api, member, data, name);
  const files = await roll(photos);
  await watchForBackingUpNow(page);
  const started = uploadsStarted(page);

  await signIn(page, member);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  const check = await holdTheCheck(page);
  await chooseForBackup(page, files);
  await check.asked;
  await expect(status(page).getByRole('status')).toHaveText('Checking…');
  await expect(status(page)).toContainText('Seeing which of these 2 photos and videos Hearth already has. Nothing is sent yet.');
  // While it checks, a second run cannot start.
  if (test.info().project.use.isMobile)
    await expect(page.getByRole('button', { name: 'Back up this phone' }).locator('visible=true').first()).toBeDisabled();

  check.release();
  await expect(status(page).getByRole('status')).toHaveText('2 already here, nothing new to send');
  expect(started).toEqual([]);
  expect(await sawBackingUpNow(page)).toBe(false);
});

test('with a new photo among them, “Checking…” comes first and the sending starts only once the server has answered', async ({
  page,
  hearth,
  member,
}) => {
  test.setTimeout(90_000);
  const here = { name: 'IMG_3001.jpg', data: await photo('2024:05:03 09:00:00', 320, 240) };
  const fresh = { name: 'IMG_3002.jpg', data: await photo('2024:05:04 09:00:00', 320, 240) };
  await upload(hearth.api, member, here.data, here.name);
  const files = await roll([here, fresh]);
  await watchForBackingUpNow(page);
  const started = uploadsStarted(page);

  await signIn(page, member);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  const check = await holdTheCheck(page);
  await chooseForBackup(page, files);
  await check.asked;
  await expect(status(page).getByRole('status')).toHaveText('Checking…');
  expect(started, 'nothing is sent while checking').toEqual([]);

  check.release();
  await expect(status(page).getByRole('status')).toHaveText(/^1 already here, 1 (to send|sent)$/);
  await expect.poll(() => started.length).toBe(1);
  await expect(status(page).getByRole('status')).toHaveText('1 already here, 1 sent');
  expect(await sawBackingUpNow(page)).toBe(false);
});
