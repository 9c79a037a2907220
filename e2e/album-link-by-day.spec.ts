import fs from 'node:fs/promises';
import { readZip } from '../server/test/helpers/zip.ts';
import { expect, test } from './support/fixtures.ts';
import { mediaFixture, photo, processed, upload } from './support/media.ts';
import { callThem, linkPath } from './support/share.ts';
import { captureScreen } from './support/screens.ts';

test("Grandma opens an album link: photos by day with each day's place, no file names, no item count; Download all saves one zip of every photo; a tap shows the photo's day and place", async ({
  page,
  member,
  hearth,
}, testInfo) => {
  const mumName = await callThem(hearth, member, 'Mum');
  // The browser writes dates as en-US. Saturday 3 August 2024: one at noon, one in Lisbon at 19:59 (GMT+1); then one on Monday the 5th.
  const noon = await upload(hearth.api, member, await photo('2024:08:03 12:00:00', 800, 600), 'IMG_1001.jpg');
  const lisbon = await upload(hearth.api, member, await mediaFixture('lisbon-pixel.jpg'), 'IMG_1002.jpg');
  const monday = await upload(hearth.api, member, await photo('2024:08:05 09:00:00', 800, 600), 'IMG_1003.jpg');
  await processed(hearth.api, member, [noon, lisbon, monday]);
  const album = await hearth.api.ok('POST', '/albums', member.access, { name: 'Portugal 2024', node_ids: [noon, lisbon, monday] });
  const link = await hearth.api.ok('POST', `/albums/${album.id}/share`, member.access, {});

  // Grandma has no account: a browser signed in to nothing.
  await page.goto(linkPath(link));
  await expect(page.getByRole('heading', { name: 'Portugal 2024', level: 1 })).toBeVisible();
  await expect(page.getByText(`Shared with you by ${mumName}`)).toBeVisible();
  const days = page.getByRole('heading', { level: 2 });
  await expect(days).toHaveCount(2);
  await expect(days.nth(0)).toHaveText(/Saturday, August 3, 2024\s*Lisbon/);
  await expect(days.nth(1)).toHaveText('Monday, August 5, 2024');
  await expect(page.getByRole('list', { name: 'Photos of Saturday, August 3, 2024' }).getByRole('listitem')).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Photos of Monday, August 5, 2024' }).getByRole('listitem')).toHaveCount(1);
  await expect(page.locator('img[src*="/thumbnail"]')).toHaveCount(3, { timeout: 15_000 });
  // A photo album, not a file server: no file names, no "3 items".
  await expect(page.getByText(/IMG_100/)).toHaveCount(0);
  await expect(page.getByText(/\bitems?\b/)).toHaveCount(0);
  await captureScreen(page, testInfo, 'album-link-by-day');

  // Download all: one zip with every photo, byte for byte.
  const saving = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download all' }).click();
  const saved = await saving;
  expect(saved.suggestedFilename()).toBe('Portugal 2024.zip');
  const entries = await readZip(await fs.readFile((await saved.path())!));
  expect(entries.map((entry) => entry.name).sort()).toEqual(['IMG_1001.jpg', 'IMG_1002.jpg', 'IMG_1003.jpg']);
  expect(entries.find((entry) => entry.name === 'IMG_1002.jpg')!.data.equals(await mediaFixture('lisbon-pixel.jpg'))).toBe(true);

  // A tap: the viewer says the day and the place.
  await page.getByRole('button', { name: 'Photo 2 of 3' }).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await expect(viewer.getByRole('heading', { name: /Saturday,? August 3, 2024, Lisbon/ })).toBeVisible();
  await captureScreen(page, testInfo, 'album-link-viewer');
});

test('a folder link holding only photos opens as photos by day too, with Download all', async ({ page, member, hearth }) => {
  const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Garden' });
  const roses = await upload(hearth.api, member, await photo('2023:06:10 10:00:00', 600, 400), 'roses.jpg', folder.id);
  const tulips = await upload(hearth.api, member, await photo('2023:04:02 10:00:00', 600, 400), 'tulips.jpg', folder.id);
  await processed(hearth.api, member, [roses, tulips]);
  const link = await hearth.api.ok('POST', `/nodes/${folder.id}/share`, member.access, {});

  await page.goto(linkPath(link));
  const days = page.getByRole('heading', { level: 2 });
  // In the order they were taken.
  await expect(days).toHaveText(['Sunday, April 2, 2023', 'Saturday, June 10, 2023']);
  await expect(page.getByText(/roses|tulips/)).toHaveCount(0);
  const saving = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download all' }).click();
  const entries = await readZip(await fs.readFile((await (await saving).path())!));
  expect(entries.map((entry) => entry.name).sort()).toEqual(['Garden/', 'Garden/roses.jpg', 'Garden/tulips.jpg']);
});
