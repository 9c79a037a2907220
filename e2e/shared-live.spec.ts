import { uniqueName } from './support/hearth.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { callThem } from './support/share.ts';
import { captureScreen } from './support/screens.ts';

test("Mum's Shared page, open on her own device, shows Dad's album the moment he shares it, then his photos when he starts sharing them, and loses the album when he takes her out, without a reload", async ({
  page,
  hearth,
  owner,
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const dadName = await callThem(hearth, dad, 'Dad');
  const mumName = await callThem(hearth, mum, 'Mum');
  const beach = await upload(hearth.api, dad, await photo('2023:07:14 10:00:00', 800, 600), 'Beach.jpg');
  await processed(hearth.api, dad, [beach]);
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'Seaside 2023', node_ids: [beach] });

  // Mum has Shared open on her own phone (or computer): nothing yet.
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const hers = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const mumPage = await hers.newPage();
  await signIn(mumPage, mum);
  await mumPage.goto('/shared');
  await expect(mumPage.getByText('Nobody has shared anything with you yet.')).toBeVisible();
  let reloaded = false;
  mumPage.on('framenavigated', (frame) => {
    if (frame === mumPage.mainFrame()) reloaded = true;
  });

  // Dad shares the album with her from his album's Share.
  await signIn(page, dad);
  await page.goto(`/albums/${album.id}`);
  await page.getByRole('button', { name: 'Share' }).click();
  const people = page.getByRole('dialog', { name: 'Share “Seaside 2023”' });
  await people.getByLabel('Name').fill(mumName);
  await people.getByRole('button', { name: `Add ${mumName}`, exact: true }).click();
  await expect(people.getByRole('list', { name: 'People in this album' }).getByRole('listitem').filter({ hasText: mumName })).toBeVisible();

  const rows = mumPage.getByRole('list', { name: 'Shared with me' }).getByRole('listitem');
  await expect(rows.filter({ hasText: 'Seaside 2023' })).toBeVisible({ timeout: 10_000 });
  await expect(rows.filter({ hasText: 'Seaside 2023' })).toContainText(`Shared by ${dadName}`);

  // Then all his photos (from his Account page's partner sharing, here through the API).
  await hearth.api.ok('POST', '/partner-shares', dad.access, { user_id: mum.id });
  await expect(rows.filter({ hasText: `${dadName}’s photos` })).toBeVisible({ timeout: 10_000 });
  await expect(rows).toHaveCount(2);
  await captureScreen(mumPage, testInfo, 'shared-live');

  // He takes her out of the album: it leaves her list; his photos stay.
  await hearth.api.ok('DELETE', `/albums/${album.id}/members/${mum.id}`, dad.access);
  await expect(rows).toHaveCount(1, { timeout: 10_000 });
  await expect(rows.first()).toContainText(`${dadName}’s photos`);
  expect(reloaded).toBe(false);
  await hers.close();
});
