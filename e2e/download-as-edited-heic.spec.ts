import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { processed, upload } from './support/media.ts';

// 32#8 for an iPhone's photos: a HEIC turned in the viewer downloads as edited too, as a JPEG,
// upright by the phone's own turn and then the family's; before, the server refused it.

const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'server', 'test', 'fixtures', 'media');
const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

test('an iPhone photo (HEIC) turned in the viewer downloads as edited: a JPEG, turned once by the phone and once by the family', async ({
  page,
  hearth,
  member,
}) => {
  test.setTimeout(90_000);
  // Stored sideways (400x200), shown upright by its irot box (200x400).
  const heic = await fs.readFile(path.join(MEDIA, 'iphone-irot.heic'));
  const id = await upload(hearth.api, member, heic, 'IMG_0001.HEIC');
  await processed(hearth.api, member, [id]);
  await signIn(page, member);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();

  await page.getByRole('button', { name: /^Photo IMG_0001\.HEIC/ }).click();
  await viewer(page).getByRole('button', { name: 'Edit' }).click();
  const panel = viewer(page).getByRole('complementary', { name: 'Edit photo' });
  await panel.getByRole('button', { name: 'Turn right' }).click();
  await expect(panel.getByRole('status')).toHaveText('Turned right.');
  await panel.getByRole('button', { name: 'Close editing' }).click();

  await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
  const menu = viewer(page).getByRole('menu', { name: 'Download' });
  const edited = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: 'Download as edited' }).click();
  const file = await edited;
  expect(file.suggestedFilename()).toBe('IMG_0001 (edited).jpg');
  const meta = await sharp(await file.path()).metadata();
  expect(meta.format).toBe('jpeg');
  // Upright (200x400), then a quarter turn right: landscape again, with no turn left for a viewer.
  expect([meta.width, meta.height]).toEqual([400, 200]);
  expect(meta.orientation ?? 1).toBe(1);

  // The original is still the HEIC, byte for byte.
  await viewer(page).getByRole('button', { name: 'Download', exact: true }).click();
  const original = page.waitForEvent('download');
  await menu.getByRole('menuitem', { name: 'Download the original' }).click();
  const first = await original;
  expect(first.suggestedFilename()).toBe('IMG_0001.HEIC');
  expect((await fs.readFile(await first.path())).equals(heic)).toBe(true);
});
