import type { Locator, Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

// 32#8: a photo turned in the viewer shows turned wherever its thumbnail shows: an album's cover too.

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

async function openAlbums(page: Page): Promise<void> {
  // On a phone Albums is reached from Photos; on a computer it has its own place in the side bar.
  const nav = mainNav(page).locator('visible=true');
  if ((await nav.getByRole('link', { name: 'Albums' }).count()) > 0) await nav.getByRole('link', { name: 'Albums' }).click();
  else {
    await nav.getByRole('link', { name: 'Photos' }).click();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Albums' }).click();
  }
  await expect(page.getByRole('heading', { name: 'Albums', level: 1 })).toBeVisible();
}

/** Whether the cover's picture is taller than wide, as the browser decoded it (null until it is there). */
async function portrait(cover: Locator): Promise<boolean | null> {
  return cover
    .locator('img')
    .evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.naturalHeight > img.naturalWidth : null))
    .catch(() => null);
}

test('a photo turned in the viewer turns on the cover of its album, without a reload', async ({ page, hearth, member }, testInfo) => {
  test.setTimeout(90_000);
  const beach = await upload(hearth.api, member, await photo('2021:08:03 10:15:00', 800, 600), 'Beach.jpg');
  await processed(hearth.api, member, [beach]);
  await hearth.api.ok('POST', '/albums', member.access, { name: 'Summer', node_ids: [beach] });

  await signIn(page, member);
  await openAlbums(page);
  const card = page.getByRole('link', { name: /Summer/ });
  await expect.poll(() => portrait(card)).toBe(false);

  await card.click();
  await page.getByRole('button', { name: /^Photo Beach\.jpg/ }).click();
  await viewer(page).getByRole('button', { name: 'Edit' }).click();
  const panel = viewer(page).getByRole('complementary', { name: 'Edit photo' });
  await panel.getByRole('button', { name: 'Turn right' }).click();
  await expect(panel.getByRole('status')).toHaveText('Turned right.');
  await panel.getByRole('button', { name: 'Close editing' }).click();
  await viewer(page).getByRole('button', { name: 'Back to the album' }).click();
  await expect(viewer(page)).toHaveCount(0);

  await openAlbums(page);
  await expect.poll(() => portrait(page.getByRole('link', { name: /Summer/ })), { timeout: 15_000 }).toBe(true);
  await captureScreen(page, testInfo, 'album-cover-turned');
});
