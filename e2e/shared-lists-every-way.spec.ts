import { uniqueName } from './support/hearth.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { callThem } from './support/share.ts';
import { captureScreen } from './support/screens.ts';

const pause = () => new Promise((resolve) => setTimeout(resolve, 20));

test('Dad shares all his photos, an album and a folder with Mum: her Shared lists all three, newest first, each saying Dad shared it and opening it', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const dadName = await callThem(hearth, dad, 'Dad');
  const beach = await upload(hearth.api, dad, await photo('2023:07:14 10:00:00'), 'Beach.jpg');
  await processed(hearth.api, dad, [beach]);

  // Each way in turn, as Dad would over a few days: first his photos, then an album, then a folder.
  await hearth.api.ok('POST', '/partner-shares', dad.access, { user_id: mum.id });
  await pause();
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'Seaside 2023', node_ids: [beach] });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, dad.access, { user_id: mum.id, role: 'viewer' });
  await pause();
  const folder = await hearth.api.ok('POST', '/nodes/folder', dad.access, { name: 'School letters' });
  await hearth.api.ok('POST', `/nodes/${folder.id}/permissions`, dad.access, { user_id: mum.id, role: 'viewer' });

  await signIn(page, mum);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Shared' }).click();
  await expect(page.getByRole('heading', { name: 'Shared with me' })).toBeVisible();
  const rows = page.getByRole('list', { name: 'Shared with me' }).getByRole('listitem');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('School letters');
  await expect(rows.nth(1)).toContainText('Seaside 2023');
  await expect(rows.nth(1)).toContainText('1 photo');
  await expect(rows.nth(2)).toContainText(`${dadName}’s photos`);
  for (let i = 0; i < 3; i++) await expect(rows.nth(i)).toContainText(`Shared by ${dadName}`);
  await expect(page.getByText('Nobody has shared anything with you yet.')).toHaveCount(0);
  await expect(rows.nth(1).locator('img')).toBeVisible();
  await captureScreen(page, testInfo, 'shared-every-way');

  // Each opens where it lives.
  await page.getByRole('link', { name: 'Open Seaside 2023' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${album.id}`));
  await expect(page.getByRole('heading', { name: 'Seaside 2023' })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: 'Open School letters' }).click();
  await expect(page.getByRole('heading', { name: 'School letters' })).toBeVisible();
  await page.goBack();
  await page.getByRole('link', { name: `Open ${dadName}’s photos` }).click();
  await expect(page).toHaveURL(/\/gallery/);
});

test('someone nobody shares with is told so in plain words', async ({ page, member }, testInfo) => {
  await signIn(page, member);
  await page.goto('/shared');
  await expect(page.getByText('Nobody has shared anything with you yet.')).toBeVisible();
  await expect(
    page.getByText('When someone in the family shares a file, a folder, an album or all their photos with you, it shows here.'),
  ).toBeVisible();
  await captureScreen(page, testInfo, 'shared-empty');
});
