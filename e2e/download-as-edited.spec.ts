import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

// 32#8: the viewer's Download is the original, as always; a photo with edits offers "Download as
// edited" beside it, which comes turned.

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

test('a photo turned in the viewer downloads as edited (turned) from Download’s menu; the original is still the first choice', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  test.setTimeout(90_000);
  const ids = [
    await upload(hearth.api, member, await photo('2021:08:03 10:15:00', 800, 600), 'Beach.jpg'),
    await upload(hearth.api, member, await photo('2021:08:02 10:15:00', 800, 600), 'Dinner.jpg'),
  ];
  await processed(hearth.api, member, ids);
  await signIn(page, member);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();

  // A photo with no edits: Download is the original, straight away, no menu.
  await page.getByRole('button', { name: /^Photo Dinner\.jpg/ }).click();
  await expect(viewer(page)).toBeVisible();
  const plain = page.waitForEvent('download');
  await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
  expect((await plain).suggestedFilename()).toBe('Dinner.jpg');
  await expect(viewer(page).getByRole('menu', { name: 'Download' })).toHaveCount(0);
  await viewer(page).getByRole('button', { name: 'Back to photos' }).click();

  // Turn Beach right.
  await page.getByRole('button', { name: /^Photo Beach\.jpg/ }).click();
  await viewer(page).getByRole('button', { name: 'Edit' }).click();
  const panel = viewer(page).getByRole('complementary', { name: 'Edit photo' });
  await panel.getByRole('button', { name: 'Turn right' }).click();
  await expect(panel.getByRole('status')).toHaveText('Turned right.');
  await panel.getByRole('button', { name: 'Close editing' }).click();

  await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
  const menu = viewer(page).getByRole('menu', { name: 'Download' });
  await expect(menu.getByRole('menuitem')).toHaveText(['Download the original', 'Download as edited']);
  await captureScreen(page, testInfo, 'download-as-edited');
  const edited = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: 'Download as edited' }).click();
  const file = await edited;
  expect(file.suggestedFilename()).toBe('Beach (edited).jpg');
  const meta = await sharp(await file.path()).metadata();
  expect([meta.width, meta.height]).toEqual([600, 800]);

  // The original is still there, first in the menu, as it was.
  await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
  const original = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: 'Download the original' }).click();
  const first = await original;
  expect(first.suggestedFilename()).toBe('Beach.jpg');
  const was = await sharp(await first.path()).metadata();
  expect([was.width, was.height]).toEqual([800, 600]);
});
