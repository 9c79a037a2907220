import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

const tiles = (page: Page) => page.getByRole('region', { name: 'Photos and videos, newest first' }).locator('.tile[aria-label]');

async function openPhotos(page: Page): Promise<void> {
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
}

async function openAccount(page: Page): Promise<void> {
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
}

test("Emma's album shared with Mum is in Mum's Photos under Everyone's, each photo saying it is Emma's; Mine is hers alone, and the choice stays after a reload", async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(120_000);
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const emmaName = await callThem(hearth, emma, 'Emma');
  await callThem(hearth, mum, 'Mum');
  const emmas = [
    await upload(hearth.api, emma, await photo('2024:08:03 10:15:00', 800, 600), 'Beach.jpg'),
    await upload(hearth.api, emma, await photo('2024:08:04 19:40:00', 800, 600), 'Dinner.jpg'),
  ];
  const hers = [
    await upload(hearth.api, mum, await photo('2024:08:05 09:00:00', 800, 600), 'Garden.jpg'),
    await upload(hearth.api, mum, await photo('2024:07:14 12:00:00', 800, 600), 'Cake.jpg'),
  ];
  await processed(hearth.api, emma, emmas);
  await processed(hearth.api, mum, hers);
  const album = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Holiday 2024', node_ids: emmas });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, emma.access, { user_id: mum.id, role: 'viewer' });

  await signIn(page, mum);
  await openPhotos(page);
  // Everyone's at first: Emma's two beside her own, newest first, Emma's marked as Emma's.
  const whose = page.getByRole('group', { name: 'Whose photos' });
  await expect(whose.getByRole('radio', { name: 'Everyone’s' })).toBeChecked();
  await expect(tiles(page)).toHaveCount(4);
  await expect(tiles(page).nth(0)).toHaveAttribute('aria-label', /^Photo Garden\.jpg, (?!shared by)/);
  await expect(tiles(page).nth(1)).toHaveAttribute('aria-label', new RegExp(`^Photo Dinner\\.jpg, shared by ${emmaName}, `));
  await expect(tiles(page).nth(2)).toHaveAttribute('aria-label', new RegExp(`^Photo Beach\\.jpg, shared by ${emmaName}, `));
  await expect(page.locator('.tile-owner')).toHaveCount(2);
  await expect(page.getByText('4 photos')).toBeVisible();
  await captureScreen(page, testInfo, 'photos-everyone');

  // Emma's photo in the viewer: Details says whose it is; it is looked at, not trashed or shared from here.
  await tiles(page).nth(1).click();
  await page.getByRole('button', { name: 'Details' }).click();
  const details = page.getByRole('complementary', { name: 'Details' });
  await expect(details.getByText('Shared by')).toBeVisible();
  await expect(details.getByText(emmaName, { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Move to trash' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Download' })).toBeVisible();
  await captureScreen(page, testInfo, 'photos-everyone-details');
  await page.getByRole('button', { name: 'Close details' }).click();
  await page.getByRole('button', { name: 'Back to photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();

  // Mine: her two alone; kept after a reload, as this device's choice.
  await whose.getByRole('radio', { name: 'Mine' }).check();
  await expect(tiles(page)).toHaveCount(2);
  await expect(page.locator('.tile-owner')).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('group', { name: 'Whose photos' }).getByRole('radio', { name: 'Mine' })).toBeChecked();
  await expect(tiles(page)).toHaveCount(2);
  await expect(page.getByText('2 photos')).toBeVisible();
  await captureScreen(page, testInfo, 'photos-mine');

  // Back to Everyone's: Emma takes her out of the album, and Emma's photos leave at once.
  await page.getByRole('group', { name: 'Whose photos' }).getByRole('radio', { name: 'Everyone’s' }).check();
  await expect(tiles(page)).toHaveCount(4);
  await hearth.api.ok('DELETE', `/albums/${album.id}/members/${mum.id}`, emma.access);
  await expect(tiles(page)).toHaveCount(2);
});

test('Dad shares his photos with Mum from a day on, from his Account: only those taken from that day appear in her Photos, live, and leave when he stops', async ({
  browser,
  page,
  hearth,
  owner,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  await callThem(hearth, dad, 'Dad');
  const mumName = await callThem(hearth, mum, 'Mum');
  const his = [
    await upload(hearth.api, dad, await photo('2021:06:12 15:00:00', 800, 600), 'Old boat.jpg'),
    await upload(hearth.api, dad, await photo('2023:04:02 11:30:00', 800, 600), 'New bike.jpg'),
  ];
  await processed(hearth.api, dad, his);

  // Mum has Photos open on her own phone.
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const mumContext = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const mumPage = await mumContext.newPage();
  await signIn(mumPage, mum);
  await openPhotos(mumPage);
  await expect(mumPage.getByRole('heading', { name: 'No photos yet' })).toBeVisible();

  await signIn(page, dad);
  await openAccount(page);
  const section = page.getByRole('region', { name: 'Share my photos with…' });
  await expect(section.getByText('Nobody shares all their photos with you yet.')).toBeVisible();
  await section.getByLabel('Family member').selectOption({ label: mumName });
  await section.getByRole('radio', { name: 'Those taken from a day on' }).check();
  await section.getByLabel('Taken from', { exact: true }).fill('2022-01-01');
  await captureScreen(page, testInfo, 'partner-sharing-form');
  await section.getByRole('button', { name: 'Share my photos' }).click();
  const sharing = section.getByRole('list', { name: 'People you share your photos with' });
  await expect(sharing.getByRole('listitem').filter({ hasText: mumName })).toContainText(
    /Sees your photos taken from (1 January 2022|January 1, 2022)/,
  );
  await section.getByRole('heading', { name: 'Share my photos with…' }).scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'partner-sharing');

  // In her Photos, without a reload: the bike (2023), never the boat (2021).
  await expect(tiles(mumPage)).toHaveCount(1);
  await expect(tiles(mumPage).first()).toHaveAttribute('aria-label', /^Photo New bike\.jpg, shared by Dad/);
  await expect(mumPage.getByRole('button', { name: /^Photo Old boat\.jpg/ })).toHaveCount(0);
  // She sees who shares with her, in her Account.
  await openAccount(mumPage);
  await expect(
    mumPage.getByRole('list', { name: 'People who share their photos with you' }).getByRole('listitem').filter({ hasText: 'Dad' }),
  ).toContainText(/Shares their photos taken from (1 January 2022|January 1, 2022) with you/);
  await openPhotos(mumPage);
  await expect(tiles(mumPage)).toHaveCount(1);

  // He stops: the bike leaves her open timeline at once.
  await section.getByRole('button', { name: `Stop sharing with ${mumName}` }).click();
  await expect(sharing).toHaveCount(0);
  await expect(mumPage.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
  await mumContext.close();
});

test('a member signing in on a phone lands on Photos, and on My files once chosen in Account; on a computer, My files', async ({
  page,
  member,
}, testInfo) => {
  await page.goto('/');
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (testInfo.project.name === 'desktop') {
    // On a computer the app opens My files, whatever the phone setting.
    await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
    return;
  }
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/gallery$/);

  await openAccount(page);
  const choice = page.getByRole('group', { name: 'After signing in on a phone, open' });
  await expect(choice.getByRole('radio', { name: 'Photos' })).toBeChecked();
  await choice.getByRole('radio', { name: 'My files' }).check();
  await expect(choice.getByRole('radio', { name: 'My files' })).toBeChecked();
  await choice.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'phone-start');
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'My files', level: 1 })).toBeVisible();
});
