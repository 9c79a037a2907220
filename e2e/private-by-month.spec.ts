import { expect, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

test('Private shows its photos by month, newest first, as Photos does, and its other files apart', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  test.setTimeout(90_000);
  const ids = [
    await upload(hearth.api, member, await photo('2023:08:14 10:00:00', 800, 600), 'Beach.jpg'),
    await upload(hearth.api, member, await photo('2023:08:02 10:00:00', 800, 600), 'Pier.jpg'),
    await upload(hearth.api, member, await photo('2024:02:10 10:00:00', 600, 800), 'Snow.jpg'),
  ];
  const letter = await upload(hearth.api, member, Buffer.from('dear diary'), 'Letter.txt');
  await processed(hearth.api, member, ids);
  for (const id of [...ids, letter]) await hearth.api.ok('POST', `/nodes/${id}/private`, member.access);

  await signIn(page, member);
  await page.goto('/private');
  await page.getByLabel('Your password').fill(member.password);
  await page.getByRole('button', { name: 'Open Private' }).click();

  const photos = page.getByRole('region', { name: 'Photos in Private' });
  await expect(photos.getByRole('heading', { level: 2 })).toHaveText(['February 20241 photo', 'August 20232 photos']);
  const february = photos.getByRole('region', { name: 'February 2024' });
  const august = photos.getByRole('region', { name: 'August 2023' });
  await expect(february.getByRole('button', { name: /^Photo / })).toHaveCount(1);
  await expect(february.getByRole('button', { name: /^Photo Snow\.jpg/ })).toBeVisible();
  // Newest first within the month, as in Photos.
  const augustTiles = august.getByRole('button', { name: /^Photo / });
  await expect(augustTiles).toHaveCount(2);
  await expect(augustTiles.first()).toHaveAccessibleName(/^Photo Beach\.jpg/);
  await expect(augustTiles.last()).toHaveAccessibleName(/^Photo Pier\.jpg/);
  await expect
    .poll(() =>
      august
        .locator('img')
        .first()
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBeGreaterThan(0);
  // The letter is not a photo: listed under Files, not in a month.
  await expect(photos.getByText('Letter.txt')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'Files in Private' }).getByText('Letter.txt')).toBeVisible();
  await captureScreen(page, testInfo, 'private-by-month');

  // A tile opens the photo full screen, as in Photos.
  await february.getByRole('button', { name: /^Photo Snow\.jpg/ }).click();
  await expect(page.getByRole('dialog', { name: 'Photo viewer' })).toBeVisible();
});
