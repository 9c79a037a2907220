import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

// 32#7: taking someone out of an album asks first and says what leaves (them and the photos they
// added; their files stay theirs), then offers Undo, which brings them and their photos back, for
// everyone in the album at once.

const tiles = (page: Page) => page.locator('.album-items .tile[aria-label]');

test('Emma takes Dad out of the album: she is asked first and told what leaves, then Undo brings him and his photos back, live for Mum too', async ({
  browser,
  page,
  hearth,
  owner,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  await callThem(hearth, emma, 'Emma');
  const dadName = await callThem(hearth, dad, 'Dad');
  await callThem(hearth, mum, 'Mum');
  const emmas = await upload(hearth.api, emma, await photo('2023:07:02 10:00:00', 800, 600), 'Lake.jpg');
  const dads = [
    await upload(hearth.api, dad, await photo('2023:07:01 09:00:00', 800, 600), 'Tent.jpg'),
    await upload(hearth.api, dad, await photo('2023:07:03 18:00:00', 800, 600), 'Campfire.jpg'),
    await upload(hearth.api, dad, await photo('2023:07:04 08:00:00', 800, 600), 'Canoe.jpg'),
  ];
  await processed(hearth.api, emma, [emmas]);
  await processed(hearth.api, dad, dads);
  const album = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Camping 2023', node_ids: [emmas] });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, emma.access, { user_id: dad.id, role: 'contributor' });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, emma.access, { user_id: mum.id, role: 'viewer' });
  await hearth.api.ok('POST', `/albums/${album.id}/items`, dad.access, { node_ids: dads });

  // Mum is looking at the album on her own device.
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const hers = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const mumPage = await hers.newPage();
  await signIn(mumPage, mum);
  await mumPage.goto(`/albums/${album.id}`);
  await expect(tiles(mumPage)).toHaveCount(4);

  await signIn(page, emma);
  await page.goto(`/albums/${album.id}`);
  await expect(page.getByRole('heading', { name: 'Camping 2023', level: 1 })).toBeVisible();
  await expect(tiles(page)).toHaveCount(4);

  await page.getByRole('button', { name: 'Share' }).click();
  const people = page.getByRole('dialog', { name: 'Share “Camping 2023”' });
  await people.getByRole('button', { name: `Take ${dadName} out of the album` }).click();

  // Asked first, in words that say what happens.
  const asking = page.getByRole('dialog', { name: `Take ${dadName} out of “Camping 2023”?` });
  await expect(asking).toBeVisible();
  await expect(asking).toContainText(
    `${dadName} and the 3 photos they added will leave this album. Their photos stay in ${dadName}'s own files. You can undo this for 10 minutes.`,
  );
  await captureScreen(page, testInfo, 'album-remove-confirm');
  // Cancel changes nothing.
  await asking.getByRole('button', { name: 'Cancel' }).click();
  await expect(people.getByRole('list', { name: 'People in this album' }).getByText(dadName)).toBeVisible();
  await people.getByRole('button', { name: `Take ${dadName} out of the album` }).click();
  await asking.getByRole('button', { name: 'Take out' }).click();
  await expect(people.getByRole('list', { name: 'People in this album' }).getByText(dadName)).toHaveCount(0);
  await expect(
    people.getByRole('status').filter({ hasText: `${dadName} is out of the album, with the 3 photos they added.` }),
  ).toBeVisible();
  await people.getByRole('button', { name: 'Close' }).click();

  // Out of the album for everyone; the Undo stays on the album's page.
  await expect(tiles(page)).toHaveCount(1);
  await expect(tiles(mumPage)).toHaveCount(1, { timeout: 15_000 });
  const toast = page.getByRole('status').filter({ hasText: `${dadName} is out of the album` });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await captureScreen(page, testInfo, 'album-remove-undo');

  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `${dadName} is back in the album, with the 3 photos they added.` }),
  ).toBeVisible();
  await expect(tiles(page)).toHaveCount(4);
  // In the order they were taken, as before.
  await expect(tiles(page).first()).toHaveAttribute('aria-label', /^Photo Tent\.jpg/);
  await expect(tiles(page).nth(1)).toHaveAttribute('aria-label', /^Photo Lake\.jpg/);
  // Mum sees them come back without touching her screen.
  await expect(tiles(mumPage)).toHaveCount(4, { timeout: 15_000 });
  await page.getByRole('button', { name: 'Share' }).click();
  await expect(people.getByRole('list', { name: 'People in this album' }).getByText(dadName)).toBeVisible();
  await expect(people.getByLabel(`What ${dadName} can do`)).toHaveValue('contributor');
  await hers.close();
});
