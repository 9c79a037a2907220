import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { chooseForBackup, thisMonth } from './support/photo-backup.ts';
import { scratchFolder } from './support/scratch.ts';

/* Issue 32, item 3: an iPhone's HEIC and a PNG with EXIF are placed by their capture time from the first moment. */

const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'server', 'test', 'fixtures', 'media');

/** Every month heading the page ever shows, recorded as it appears (even for a moment). */
async function recordMonthHeadings(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { seenMonths: Set<string> }).seenMonths = seen;
    const look = () => document.querySelectorAll('.month-header h2').forEach((h) => seen.add(h.firstChild?.textContent ?? ''));
    new MutationObserver(look).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { seenMonths: Set<string> }).seenMonths]);
}

/** An iPhone photo from May 2019 and a PNG from June 2018 on disk, their file dates today (as a phone's copy has). */
async function roll(): Promise<string[]> {
  const dir = await scratchFolder('stills');
  const heic = path.join(dir, 'IMG_0001.HEIC');
  await fs.copyFile(path.join(MEDIA, 'iphone-irot.heic'), heic);
  const png = path.join(dir, 'Drawing.png');
  await sharp({ create: { width: 640, height: 480, channels: 3, background: '#4a7' } })
    .withExif({ IFD0: { Make: 'Hearth e2e' }, IFD2: { DateTimeOriginal: '2018:06:07 08:09:10', OffsetTimeOriginal: '+02:00' } })
    .png()
    .toFile(png);
  return [heic, png];
}

test("an iPhone's HEIC and a PNG backed up while Photos is open go straight to May 2019 and June 2018, never under this month", async ({
  page,
  member,
}) => {
  test.setTimeout(90_000);
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
  const seen = await recordMonthHeadings(page);

  await chooseForBackup(page, await roll());
  await expect(page.getByRole('heading', { name: /May 2019/ })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: /June 2018/ })).toBeVisible({ timeout: 60_000 });
  const months = await seen();
  expect(
    months.filter((m) => m.startsWith(thisMonth())),
    `headings ever shown: ${months.join(' | ')}`,
  ).toEqual([]);
});
