import type { Locator, Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

// 32#8: a photo is turned and its date corrected in the viewer, kept beside the original: its
// thumbnail turns, it moves to its new month in the timeline and search finds it there at once,
// and "Back to the original" undoes both.

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });
const beach = (page: Page) => page.getByRole('button', { name: /^Photo Beach\.jpg/ });

/** Whether a tile's picture is taller than wide, as the browser decoded it. */
async function portrait(tile: Locator): Promise<boolean | null> {
  return tile
    .locator('img')
    .evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.naturalHeight > img.naturalWidth : null))
    .catch(() => null);
}

async function openEdit(page: Page) {
  await beach(page).click();
  await expect(viewer(page)).toBeVisible();
  await viewer(page).getByRole('button', { name: 'Edit' }).click();
  const panel = viewer(page).getByRole('complementary', { name: 'Edit photo' });
  await expect(panel).toBeVisible();
  return panel;
}

test('Mum turns a landscape photo and moves it to 2015: its thumbnail turns portrait, it sits in June 2015 and a search for 2015 finds it; Back to the original undoes both', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  test.setTimeout(120_000);
  const ids = [
    await upload(hearth.api, member, await photo('2021:08:03 10:15:00', 800, 600), 'Beach.jpg'),
    await upload(hearth.api, member, await photo('2021:08:04 19:40:00', 800, 600), 'Dinner.jpg'),
  ];
  await processed(hearth.api, member, ids);
  await signIn(page, member);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await expect(beach(page).locator('img')).toBeVisible();
  await expect.poll(() => portrait(beach(page))).toBe(false);

  // Turn it right, in the viewer.
  let panel = await openEdit(page);
  await expect(panel.getByLabel('Day taken')).toHaveValue('2021-08-03');
  await panel.getByRole('button', { name: 'Turn right' }).click();
  await expect(panel.getByRole('status')).toHaveText('Turned right.');
  // The viewer's own picture is turned too.
  await expect
    .poll(() =>
      viewer(page)
        .locator('img.yarl__slide_image[alt="Beach.jpg"]')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalHeight > img.naturalWidth),
    )
    .toBe(true);
  await captureScreen(page, testInfo, 'photo-edit');

  // A new day: 14 June 2015.
  await panel.getByLabel('Day taken').fill('2015-06-14');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel.getByRole('status')).toHaveText('Saved. Photos shows it by its new day and place.');
  await panel.getByRole('button', { name: 'Close editing' }).click();
  await viewer(page).getByRole('button', { name: 'Back to photos' }).click();
  await expect(viewer(page)).toHaveCount(0);

  // The timeline: it is under June 2015 now, with its thumbnail turned.
  const june2015 = page.locator('.month-header h2').filter({ hasText: 'June 2015' });
  await expect(june2015).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => portrait(beach(page)), { timeout: 15_000 }).toBe(true);
  await expect(beach(page)).toHaveAttribute('aria-label', /2015/);

  // Search finds it by 2015, and no longer by 2021.
  await page.goto('/gallery?q=2015');
  const found = page.getByRole('region', { name: 'Photos and videos found for “2015”, newest first' });
  await expect(found.locator('.tile[aria-label]')).toHaveCount(1);
  await expect(found.locator('.tile[aria-label]').first()).toHaveAttribute('aria-label', /^Photo Beach\.jpg/);
  await page.goto('/gallery?q=2021');
  await expect(page.getByRole('region', { name: /found for “2021”/ }).locator('.tile[aria-label]')).toHaveCount(1);

  // Back to the original: August 2021 and landscape again.
  await page.goto('/gallery');
  panel = await openEdit(page);
  await panel.getByRole('button', { name: 'Back to the original' }).click();
  await expect(panel.getByRole('status')).toHaveText('Back to the photo as its file has it.');
  await expect(panel.getByLabel('Day taken')).toHaveValue('2021-08-03');
  await panel.getByRole('button', { name: 'Close editing' }).click();
  await viewer(page).getByRole('button', { name: 'Back to photos' }).click();
  await expect(page.locator('.month-header h2').filter({ hasText: 'June 2015' })).toHaveCount(0, { timeout: 15_000 });
  await expect.poll(() => portrait(beach(page)), { timeout: 15_000 }).toBe(false);

  // The download was never anything but the original file.
  const node = await hearth.api.ok('GET', `/nodes/${ids[0]}`, member.access);
  expect(node.rotation).toBeUndefined();
});
