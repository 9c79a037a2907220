import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

const tiles = (page: Page) => page.locator('.album-items .tile[aria-label]');

async function openAlbums(page: Page): Promise<void> {
  // On a phone Albums is reached from Photos; on a computer it has its own place in the side bar.
  const nav = mainNav(page).locator('visible=true');
  if ((await nav.getByRole('link', { name: 'Albums' }).count()) > 0) {
    await nav.getByRole('link', { name: 'Albums' }).click();
  } else {
    await nav.getByRole('link', { name: 'Photos' }).click();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Albums' }).click();
  }
  await expect(page.getByRole('heading', { name: 'Albums', level: 1 })).toBeVisible();
}

test('Emma makes a shared album from two of her photos and invites Mum to add hers; Mum adds two from her phone and both see the four, live', async ({
  browser,
  page,
  hearth,
  owner,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const emmaName = await callThem(hearth, emma, 'Emma');
  const mumName = await callThem(hearth, mum, 'Mum');
  const emmas = [
    await upload(hearth.api, emma, await photo('2024:08:03 10:15:00', 800, 600), 'Beach.jpg'),
    await upload(hearth.api, emma, await photo('2024:08:04 19:40:00', 800, 600), 'Dinner.jpg'),
  ];
  await processed(hearth.api, emma, emmas);
  // An album she made before, to choose from.
  const garden = await upload(hearth.api, emma, await photo('2024:05:12 11:00:00', 800, 600), 'Roses.jpg');
  await processed(hearth.api, emma, [garden]);
  await hearth.api.ok('POST', '/albums', emma.access, { name: 'The garden', node_ids: [garden] });

  // Mum is already looking at her albums on her own phone (or computer).
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const hers = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const mumPage = await hers.newPage();
  await signIn(mumPage, mum);
  await openAlbums(mumPage);
  const sharedWithMum = mumPage.getByRole('list', { name: 'Shared with me' });
  await expect(mumPage.getByText('When someone in the family shares an album with you, it shows here.')).toBeVisible();

  // Emma selects her two photos in Photos and makes an album of them.
  await signIn(page, emma);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await page.getByRole('button', { name: /^Photo Beach\.jpg/ }).click();
  await page.getByRole('button', { name: /^Photo Dinner\.jpg/ }).click();
  await expect(page.getByRole('heading', { name: '2 selected' })).toBeVisible();
  await page.getByRole('button', { name: 'Add to album' }).click();
  const adding = page.getByRole('dialog', { name: 'Add 2 photos to an album' });
  await expect(adding.getByRole('list', { name: 'Albums you can add to' }).getByRole('button', { name: /The garden/ })).toBeVisible();
  await adding.getByLabel('New album').fill('Holiday 2024');
  await captureScreen(page, testInfo, 'album-add-to');
  await adding.getByRole('button', { name: 'Make album' }).click();
  await expect(page.getByRole('status').filter({ hasText: '“Holiday 2024” made, with 2 photos.' })).toBeVisible();
  await page.getByRole('link', { name: 'Open album' }).click();
  await expect(page.getByRole('heading', { name: 'Holiday 2024', level: 1 })).toBeVisible();
  await expect(tiles(page)).toHaveCount(2);
  // In the order they were taken.
  await expect(tiles(page).first()).toHaveAttribute('aria-label', /^Photo Beach\.jpg/);

  // She shares it with Mum, who may add her photos.
  await page.getByRole('button', { name: 'Share' }).click();
  const people = page.getByRole('dialog', { name: 'Share “Holiday 2024”' });
  await people.getByLabel('Name').fill(mumName);
  await expect(people.getByLabel('They can')).toHaveValue('contributor');
  await people.getByRole('button', { name: `Add ${mumName}` }).click();
  const inAlbum = people.getByRole('list', { name: 'People in this album' });
  await expect(inAlbum.getByRole('listitem').filter({ hasText: mumName })).toBeVisible();
  await expect(people.getByLabel(`What ${mumName} can do`)).toHaveValue('contributor');
  await captureScreen(page, testInfo, 'album-people');
  await people.getByRole('button', { name: 'Close' }).click();

  // Mum's page shows it without a reload.
  const card = sharedWithMum.getByRole('link', { name: /Holiday 2024/ });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card).toContainText(`Shared by ${emmaName}`);
  await expect(card).toContainText('2 photos');
  await expect(card.locator('img')).toBeVisible();
  await captureScreen(mumPage, testInfo, 'albums');
  await card.click();
  await expect(mumPage.getByRole('heading', { name: 'Holiday 2024', level: 1 })).toBeVisible();
  await expect(tiles(mumPage)).toHaveCount(2);

  // Mum adds two from her phone, straight into the album; she lets the album's link show them.
  const chooser = mumPage.waitForEvent('filechooser');
  await mumPage.getByRole('button', { name: 'Upload' }).click();
  const uploading = mumPage.getByRole('dialog', { name: 'Upload to “Holiday 2024”' });
  const consent = uploading.getByRole('checkbox', { name: 'People with the album’s link can see the photos you add' });
  await expect(consent).not.toBeChecked();
  await consent.check();
  await captureScreen(mumPage, testInfo, 'album-upload-consent');
  await uploading.getByRole('button', { name: 'Choose photos' }).click();
  await (
    await chooser
  ).setFiles([
    { name: 'Mum ice cream.jpg', mimeType: 'image/jpeg', buffer: await photo('2024:08:04 15:00:00', 800, 600) },
    { name: 'Mum sunset.jpg', mimeType: 'image/jpeg', buffer: await photo('2024:08:05 20:30:00', 800, 600) },
  ]);

  // Both see the four, Emma without touching her screen.
  await expect(tiles(mumPage)).toHaveCount(4, { timeout: 30_000 });
  await expect(tiles(page)).toHaveCount(4, { timeout: 30_000 });
  await expect(page.getByText(/^4 photos · /)).toBeVisible({ timeout: 30_000 });
  // Time order: Mum's ice cream (the 4th, 15:00) between Emma's beach and dinner, her sunset last.
  await expect(tiles(page).nth(1)).toHaveAttribute('aria-label', /^Photo Mum ice cream\.jpg/, { timeout: 30_000 });
  await expect(tiles(page).nth(3)).toHaveAttribute('aria-label', /^Photo Mum sunset\.jpg/);
  await expect(tiles(page).locator('img')).toHaveCount(4, { timeout: 30_000 });
  await captureScreen(page, testInfo, 'album');

  // Full screen, Mum's photo says who added it; Emma makes it the cover.
  await tiles(page).nth(3).click();
  const viewer = page.getByRole('dialog', { name: 'Photo viewer' });
  await expect(viewer).toBeVisible();
  await viewer.getByRole('button', { name: 'Details' }).click();
  await expect(viewer.getByText(mumName, { exact: true })).toBeVisible();
  await viewer.getByRole('button', { name: 'Use as cover' }).click();
  await expect(viewer.getByRole('status').filter({ hasText: 'The album’s cover is changed.' })).toBeVisible();
  await viewer.getByRole('button', { name: 'Back to the album' }).click();
  await expect(viewer).toBeHidden();
  const albumId = new URL(page.url()).pathname.split('/')[2]!;
  const items = (await hearth.api.ok('GET', `/albums/${albumId}/items`, mum.access)).items;
  expect(items.map((n: { name: string }) => n.name)).toEqual(['Beach.jpg', 'Mum ice cream.jpg', 'Dinner.jpg', 'Mum sunset.jpg']);
  expect((await hearth.api.ok('GET', `/albums/${albumId}`, mum.access)).cover.id).toBe(items[3].id);

  // Mum's photos are hers: in her Albums/Holiday 2024 folder, and she may take them out again (not Emma's).
  await mumPage.getByRole('button', { name: 'Select', exact: true }).click();
  await tiles(mumPage).first().click();
  await expect(mumPage.getByText('You can take out only the photos you added.')).toBeVisible();
  await expect(mumPage.getByRole('button', { name: 'Take out' })).toBeDisabled();
  await mumPage.getByRole('button', { name: 'Stop selecting' }).click();
  const folders = await hearth.api.ok('GET', '/nodes?parent_id=root', mum.access);
  const albumsFolder = folders.items.find((n: { name: string }) => n.name === 'Albums');
  expect(albumsFolder).toBeTruthy();
  await hers.close();

  // A link for anyone (Grandpa has no account): the album's four photos (Mum said hers may be on it), in a browser signed in to nothing.
  await page.getByRole('button', { name: 'Share' }).click();
  const sharing = page.getByRole('dialog', { name: 'Share “Holiday 2024”' });
  await sharing.getByRole('tab', { name: 'Link' }).click();
  await sharing.getByRole('button', { name: 'Make a link' }).click();
  await sharing.getByRole('button', { name: 'Create link' }).click();
  const url = await sharing.getByRole('textbox', { name: 'Link address' }).inputValue();
  await captureScreen(page, testInfo, 'album-link');
  const grandpa = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const visitor = await grandpa.newPage();
  await visitor.goto(new URL(url).pathname);
  await expect(visitor.getByRole('heading', { name: 'Holiday 2024', level: 1 })).toBeVisible();
  await expect(visitor.getByText(`Shared with you by ${emmaName}`)).toBeVisible();
  await expect(visitor.locator('img[src*="/thumbnail"]')).toHaveCount(4, { timeout: 15_000 });
  await grandpa.close();
});

test('a contributor adds her own photo from Photos to an album shared with her and may take it out again; the owner renames the album; leaving it takes it off her Albums page', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  await callThem(hearth, emma, 'Emma');
  const emmas = await upload(hearth.api, emma, await photo('2023:12:24 18:00:00', 800, 600), 'Tree.jpg');
  const mums = await upload(hearth.api, mum, await photo('2023:12:25 09:00:00', 800, 600), 'Presents.jpg');
  await processed(hearth.api, emma, [emmas]);
  await processed(hearth.api, mum, [mums]);
  const album = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Christmas', node_ids: [emmas] });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, emma.access, { user_id: mum.id, role: 'contributor' });

  // From her Photos: select, Add to album, the album shared with her.
  await signIn(page, mum);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await page.getByRole('button', { name: /^Photo Presents\.jpg/ }).click();
  await page.getByRole('button', { name: 'Add to album' }).click();
  const adding = page.getByRole('dialog', { name: 'Add this photo to an album' });
  await adding.getByRole('button', { name: /Christmas/ }).click();
  // Emma's album: it asks first whether its link may show the photo (no, unless she says so).
  const asking = page.getByRole('dialog', { name: 'Add this photo to “Christmas”' });
  await expect(asking.getByRole('checkbox', { name: 'People with the album’s link can see the photos you add' })).not.toBeChecked();
  await captureScreen(page, testInfo, 'album-add-consent');
  await asking.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Added this photo to “Christmas”.' })).toBeVisible();
  const added = (await hearth.api.ok('GET', `/albums/${album.id}/items`, emma.access)).items;
  expect(added.map((n: { name: string; on_links: boolean }) => [n.name, n.on_links])).toEqual([
    ['Tree.jpg', true],
    ['Presents.jpg', false],
  ]);
  await page.getByRole('link', { name: 'Open album' }).click();
  await expect(tiles(page)).toHaveCount(2);

  // Emma renames it: Mum's page follows.
  await hearth.api.ok('PATCH', `/albums/${album.id}`, emma.access, { name: 'Christmas 2023' });
  await expect(page.getByRole('heading', { name: 'Christmas 2023', level: 1 })).toBeVisible({ timeout: 15_000 });

  // Her own photo she may take out again; it stays in her Photos.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await page.getByRole('button', { name: /^Photo Presents\.jpg/ }).click();
  await page.getByRole('button', { name: 'Take out' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'This photo taken out of the album.' })).toBeVisible();
  await expect(tiles(page)).toHaveCount(1);
  expect((await hearth.api.ok('GET', `/nodes/${mums}`, mum.access)).trashed_at).toBeNull();

  // She leaves.
  await page.getByRole('button', { name: 'More for this album' }).click();
  await page.getByRole('button', { name: 'Leave album' }).click();
  const leaving = page.getByRole('dialog', { name: 'Leave “Christmas 2023”?' });
  await captureScreen(page, testInfo, 'album-leave');
  await leaving.getByRole('button', { name: 'Leave album' }).click();
  await expect(page.getByRole('heading', { name: 'Albums', level: 1 })).toBeVisible();
  await expect(page.getByText('When someone in the family shares an album with you, it shows here.')).toBeVisible();
  expect((await hearth.api.call('GET', `/albums/${album.id}`, mum.access)).status).toBe(404);
});
