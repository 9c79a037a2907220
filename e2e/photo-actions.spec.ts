import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { readZip } from '../server/test/helpers/zip.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

/** The zip's entries and their bytes, read with yauzl (which checks each CRC-32 as it reads). */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const entries = await readZip(await fs.readFile(file));
  return new Map(entries.map((entry) => [entry.name, entry.data]));
}

const bar = (page: Page) => page.getByRole('toolbar', { name: 'Selected photos' });
const tile = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) });

/** An action of the selection: in the bar, or under its More. */
async function act(page: Page, name: string): Promise<void> {
  const direct = bar(page).getByRole('button', { name, exact: true });
  if (await direct.isVisible()) return direct.click();
  await bar(page).getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('list', { name: 'More actions' }).getByRole('button', { name, exact: true }).click();
}

async function openPhotos(page: Page): Promise<void> {
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
}

test('on a phone or a computer: three photos come down as one zip, two move to a folder, one becomes a favourite (marked, and in Favourites), a selection is shared as a new album whose link opens it, and a whole month is selected from its heading @lan', async ({
  browser,
  page,
  hearth,
  member,
  baseURL,
}, testInfo) => {
  test.setTimeout(150_000);
  const august = [
    { name: 'Beach.jpg', when: '2024:08:03 10:15:00' },
    { name: 'Dinner.jpg', when: '2024:08:04 19:40:00' },
    { name: 'Boat.jpg', when: '2024:08:05 12:00:00' },
  ];
  const bytes = new Map<string, Buffer>();
  const ids = new Map<string, string>();
  for (const { name, when } of [
    ...august,
    { name: 'Picnic.jpg', when: '2024:07:14 13:00:00' },
    { name: 'Kite.jpg', when: '2024:07:20 16:00:00' },
  ]) {
    const data = await photo(when, 800, 600);
    bytes.set(name, data);
    ids.set(name, await upload(hearth.api, member, data, name));
  }
  await processed(hearth.api, member, [...ids.values()]);
  const holiday = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: uniqueName('Holiday') });

  await signIn(page, member);
  await openPhotos(page);

  // Three photos, selected one by one: Download gives one zip of the three, as they are.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  for (const { name } of august) await tile(page, name).click();
  await expect(page.getByRole('heading', { name: '3 selected' })).toBeVisible();
  await captureScreen(page, testInfo, 'photo-actions-bar');
  const arriving = page.waitForEvent('download');
  await act(page, 'Download');
  const download = await arriving;
  expect(download.suggestedFilename()).toBe('August 2024.zip');
  const saved = testInfo.outputPath('august.zip');
  await download.saveAs(saved);
  const zipped = await entriesOf(saved);
  expect([...zipped.keys()].sort()).toEqual(['Beach.jpg', 'Boat.jpg', 'Dinner.jpg']);
  for (const [name, data] of zipped) expect(data.equals(bytes.get(name)!), name).toBe(true);
  await expect(page.getByRole('status').filter({ hasText: 'Downloading “August 2024.zip”: 3 photos' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop selecting' }).click();

  // Two of them move into a folder, with the folder picker of My files.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await tile(page, 'Beach.jpg').click();
  await tile(page, 'Dinner.jpg').click();
  await act(page, 'Move to a folder');
  const moving = page.getByRole('dialog', { name: 'Move 2 photos to a folder' });
  await moving.getByRole('button', { name: `Open ${holiday.name}` }).click();
  await captureScreen(page, testInfo, 'photo-actions-move');
  await moving.getByRole('button', { name: `Move to ${holiday.name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: `Moved 2 photos to “${holiday.name}”.` })).toBeVisible();
  const inFolder = await hearth.api.ok('GET', `/nodes?parent_id=${holiday.id}`, member.access);
  expect(inFolder.items.map((n: { name: string }) => n.name).sort()).toEqual(['Beach.jpg', 'Dinner.jpg']);

  // One becomes a favourite: its tile shows the star at once, and Favourites lists it.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await tile(page, 'Boat.jpg').click();
  await act(page, 'Favourite');
  await expect(page.getByRole('status').filter({ hasText: 'This photo is a favourite now' })).toBeVisible();
  await expect(bar(page).getByRole('button', { name: 'Remove from favourites' })).toBeVisible();
  await page.getByRole('button', { name: 'Stop selecting' }).click();
  await expect(tile(page, 'Boat.jpg')).toHaveAttribute('aria-label', /, favourite$/);
  await expect(tile(page, 'Boat.jpg').locator('.tile-favourite')).toBeVisible();
  const starred = await hearth.api.ok('GET', '/nodes?filter=starred', member.access);
  expect(starred.items.map((n: { name: string }) => n.name)).toEqual(['Boat.jpg']);

  // The three again, shared: a new album of them, opened where its link is made.
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  for (const { name } of august) await tile(page, name).click();
  await act(page, 'Share');
  const naming = page.getByRole('dialog', { name: 'Share 3 photos' });
  await expect(naming.getByLabel('Album name')).toHaveValue('August 2024');
  await naming.getByRole('button', { name: 'Make album' }).click();
  const sharing = page.getByRole('dialog', { name: 'Share “August 2024”' });
  await expect(sharing.getByRole('tab', { name: 'Link' })).toHaveAttribute('aria-selected', 'true');
  await sharing.getByRole('button', { name: 'Make a link' }).click();
  await sharing.getByRole('button', { name: 'Create link' }).click();
  const url = await sharing.getByRole('textbox', { name: 'Link address' }).inputValue();
  await sharing.getByRole('button', { name: 'Close' }).click();
  await expect(bar(page)).toBeHidden();
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const someone = await browser.newContext({ baseURL, viewport, deviceScaleFactor, isMobile, hasTouch, userAgent });
  const visitor = await someone.newPage();
  await visitor.goto(new URL(url).pathname);
  await expect(visitor.getByRole('heading', { name: 'August 2024', level: 1 })).toBeVisible();
  await expect(visitor.locator('img[src*="/thumbnail"]')).toHaveCount(3, { timeout: 15_000 });
  await someone.close();

  // A whole month from its heading, without choosing Select first: the same bar.
  await page.getByRole('button', { name: 'Select all of July 2024' }).click();
  await expect(page.getByRole('heading', { name: '2 selected' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Unselect July 2024' })).toBeVisible();
  await captureScreen(page, testInfo, 'photo-actions-month');
  await expect(bar(page).getByRole('button', { name: 'Download' })).toBeEnabled();
});

test("in an album someone shared to look at, the bar offers only what a viewer may do: download and favourite, never share, move or trash the owner's photos", async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const beach = await upload(hearth.api, emma, await photo('2024:08:03 10:15:00', 800, 600), 'Beach.jpg');
  const dinner = await upload(hearth.api, emma, await photo('2024:08:04 19:40:00', 800, 600), 'Dinner.jpg');
  await processed(hearth.api, emma, [beach, dinner]);
  const album = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Holiday 2024', node_ids: [beach, dinner] });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, emma.access, { user_id: mum.id, role: 'viewer' });

  await signIn(page, mum);
  await page.goto(`/albums/${album.id}`);
  await expect(page.getByRole('heading', { name: 'Holiday 2024', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await tile(page, 'Beach.jpg').click();
  await tile(page, 'Dinner.jpg').click();
  await expect(page.getByRole('heading', { name: '2 selected' })).toBeVisible();
  // Buttons that are there to be pressed (getByRole leaves out what is not displayed).
  const offered = await bar(page)
    .getByRole('button')
    .evaluateAll((buttons) => buttons.map((button) => button.getAttribute('aria-label')));
  expect(offered).toEqual(['Stop selecting', 'Download', 'Favourite']);
  await captureScreen(page, testInfo, 'photo-actions-album-viewer');

  const arriving = page.waitForEvent('download');
  await act(page, 'Download');
  expect((await arriving).suggestedFilename()).toBe('Holiday 2024.zip');
});

test("a contributor's selection of her photo and the owner's: she may move hers, and the folder picker says plainly why the other stays", async ({
  page,
  hearth,
  owner,
}) => {
  const emma = await hearth.api.member(owner, uniqueName('emma'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const emmaName = await callThem(hearth, emma, 'Emma');
  const beach = await upload(hearth.api, emma, await photo('2024:08:03 10:15:00', 800, 600), 'Beach.jpg');
  const picnic = await upload(hearth.api, mum, await photo('2024:08:04 13:00:00', 800, 600), 'Picnic.jpg');
  await processed(hearth.api, emma, [beach]);
  await processed(hearth.api, mum, [picnic]);
  const album = await hearth.api.ok('POST', '/albums', emma.access, { name: 'Holiday 2024', node_ids: [beach] });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, emma.access, { user_id: mum.id, role: 'contributor' });
  await hearth.api.ok('POST', `/albums/${album.id}/items`, mum.access, { node_ids: [picnic] });

  await signIn(page, mum);
  await page.goto(`/albums/${album.id}`);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await tile(page, 'Beach.jpg').click();
  await tile(page, 'Picnic.jpg').click();
  // Take out stays as it was: only what she added, so not now.
  await expect(bar(page).getByRole('button', { name: 'Take out' })).toBeDisabled();
  await act(page, 'Move to a folder');
  const moving = page.getByRole('dialog', { name: 'Move this photo to a folder' });
  // The dialog's folders may still be loading (a spinner is a status too): the notice by its words.
  await expect(moving.getByRole('status').filter({ hasText: 'can move' })).toHaveText(
    `One is ${emmaName}’s: only ${emmaName} can move it.`,
  );
  await moving.getByRole('button', { name: 'Cancel' }).click();
  await act(page, 'Move to trash');
  const question = page.getByRole('dialog', { name: 'Move this photo to the trash?' });
  await expect(question).toContainText(`One is ${emmaName}’s: only ${emmaName} can put it in the trash.`);
});
