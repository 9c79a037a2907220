import type { Locator, Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const bar = (page: Page) => page.getByRole('toolbar', { name: 'Selected in Private' });
const inPrivate = (page: Page) => page.getByRole('region', { name: 'Photos in Private' });
const tile = (page: Page, name: string) => inPrivate(page).getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) });

async function openPrivate(page: Page, password: string): Promise<void> {
  await page.goto('/private');
  await page.getByLabel('Your password').fill(password);
  await page.getByRole('button', { name: 'Open Private' }).click();
  await expect(page.getByText(/Only you can see what is here/)).toBeVisible();
}

/** A finger held on a tile (a phone's long press), as Chromium gets it from a touch screen. */
async function longPress(page: Page, target: Locator): Promise<void> {
  const box = (await target.boundingBox())!;
  const point = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [point] });
  await page.waitForTimeout(700);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

test('three photos chosen at once in Private go back to their own folders in one “Move out”, and are in Photos again', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  test.setTimeout(120_000);
  const holidays = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holidays' });
  const garden = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Garden' });
  // Newest first in Private: Rose, Pier, Beach (the three), then Snow, which stays.
  const rose = await upload(hearth.api, member, await photo('2024:09:20 10:00:00', 800, 600), 'Rose.jpg', garden.id);
  const pier = await upload(hearth.api, member, await photo('2024:08:14 10:00:00', 800, 600), 'Pier.jpg', holidays.id);
  const beach = await upload(hearth.api, member, await photo('2024:08:02 10:00:00', 800, 600), 'Beach.jpg', holidays.id);
  const snow = await upload(hearth.api, member, await photo('2023:02:10 10:00:00', 600, 800), 'Snow.jpg');
  await processed(hearth.api, member, [rose, pier, beach, snow]);
  for (const id of [rose, pier, beach, snow]) await hearth.api.ok('POST', `/nodes/${id}/private`, member.access);

  await signIn(page, member);
  await openPrivate(page, member.password);
  await expect(tile(page, 'Snow.jpg')).toBeVisible();
  if (testInfo.project.use.isMobile) {
    // On a phone: a long press starts selecting with that photo, then taps choose more.
    await longPress(page, tile(page, 'Rose.jpg'));
    await expect(page.getByRole('heading', { name: '1 selected' })).toBeVisible();
    await tile(page, 'Pier.jpg').click();
    await tile(page, 'Beach.jpg').click();
  } else {
    // On a computer: the check in a tile's corner, then shift-click chooses the run up to Beach.
    await tile(page, 'Rose.jpg').hover();
    await tile(page, 'Rose.jpg').click({ position: { x: 19, y: 19 } });
    await expect(page.getByRole('heading', { name: '1 selected' })).toBeVisible();
    await tile(page, 'Beach.jpg').click({ modifiers: ['Shift'] });
  }
  await expect(page.getByRole('heading', { name: '3 selected' })).toBeVisible();
  await expect(tile(page, 'Pier.jpg')).toHaveAttribute('aria-pressed', 'true');
  await expect(tile(page, 'Snow.jpg')).toHaveAttribute('aria-pressed', 'false');
  await captureScreen(page, testInfo, 'private-select-many');

  await bar(page).getByRole('button', { name: 'Move out of Private' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'moved out' })).toHaveText(
    /3 photos moved out of Private, back to the folders they came from\.\s*Undo/,
  );
  await expect(bar(page)).toHaveCount(0);
  await expect(inPrivate(page).getByRole('button', { name: /^Photo / })).toHaveCount(1);
  await captureScreen(page, testInfo, 'private-select-many-moved');

  // In Photos again, and each in the folder it came from.
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  const timeline = page.getByRole('button', { name: /^Photo (Rose|Pier|Beach)\.jpg/ });
  await expect(timeline).toHaveCount(3);
  await expect(page.getByRole('button', { name: /^Photo Snow\.jpg/ })).toHaveCount(0);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'My files' }).click();
  const files = page.getByRole('list', { name: 'Files and folders' });
  await files.getByText('Holidays').click();
  await expect(files.getByText('Beach.jpg')).toBeVisible();
  await expect(files.getByText('Pier.jpg')).toBeVisible();
  await expect(files.getByText('Rose.jpg')).toHaveCount(0);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'My files' }).click();
  await files.getByText('Garden').click();
  await expect(files.getByText('Rose.jpg')).toBeVisible();
});

test('in Private a photo and a file chosen together go to the trash in one action, with the count, and Undo brings them back into Private', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  test.setTimeout(90_000);
  const beach = await upload(hearth.api, member, await photo('2024:08:02 10:00:00', 800, 600), 'Beach.jpg');
  const pier = await upload(hearth.api, member, await photo('2024:08:14 10:00:00', 800, 600), 'Pier.jpg');
  const letter = await upload(hearth.api, member, Buffer.from('dear diary'), 'Letter.txt');
  await processed(hearth.api, member, [beach, pier]);
  for (const id of [beach, pier, letter]) await hearth.api.ok('POST', `/nodes/${id}/private`, member.access);

  await signIn(page, member);
  await openPrivate(page, member.password);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Select photos or files' })).toBeVisible();
  await tile(page, 'Beach.jpg').click();
  // A file is chosen by a tap on its picture as well as on its tick box.
  await page
    .getByRole('list', { name: 'Files in Private' })
    .getByRole('listitem')
    .filter({ hasText: 'Letter.txt' })
    .click({ position: { x: 40, y: 40 } });
  await expect(page.getByRole('checkbox', { name: 'Select Letter.txt' })).toBeChecked();
  await expect(page.getByRole('heading', { name: '2 selected' })).toBeVisible();
  await captureScreen(page, testInfo, 'private-select-files');
  // While selecting, a tap chooses: nothing opens, and each one's own "Move out" steps aside.
  await expect(page.getByRole('dialog', { name: 'Photo viewer' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Move .+ out of Private$/ })).toHaveCount(0);

  await bar(page).getByRole('button', { name: 'Move to trash' }).click();
  const question = page.getByRole('dialog', { name: 'Move 1 photo and 1 file to the trash?' });
  await question.getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'trash' })).toContainText('1 photo and 1 file moved to the trash.');
  await expect(inPrivate(page).getByRole('button', { name: /^Photo / })).toHaveCount(1);
  await expect(page.getByRole('list', { name: 'Files in Private' })).toHaveCount(0);
  // In the trash, still Private's: a session that has not opened Private is not shown them there.
  expect(JSON.stringify(await hearth.api.ok('GET', '/trash', member.access))).not.toContain(letter);

  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'restored' })).toContainText('1 photo and 1 file restored.');
  await expect(inPrivate(page).getByRole('button', { name: /^Photo / })).toHaveCount(2);
  await expect(page.getByRole('list', { name: 'Files in Private' }).getByText('Letter.txt')).toBeVisible();
});

test('Undo after moving several out of Private puts them all back in Private, and out of Photos again', async ({
  page,
  hearth,
  member,
}) => {
  test.setTimeout(90_000);
  const holidays = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holidays' });
  const ids = [
    await upload(hearth.api, member, await photo('2024:08:02 10:00:00', 800, 600), 'Beach.jpg', holidays.id),
    await upload(hearth.api, member, await photo('2024:08:14 10:00:00', 800, 600), 'Pier.jpg', holidays.id),
  ];
  await processed(hearth.api, member, ids);
  for (const id of ids) await hearth.api.ok('POST', `/nodes/${id}/private`, member.access);

  await signIn(page, member);
  await openPrivate(page, member.password);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await tile(page, 'Beach.jpg').click();
  await tile(page, 'Pier.jpg').click();
  await bar(page).getByRole('button', { name: 'Move out of Private' }).click();
  // One folder for both: it is named.
  const said = page.getByRole('status').filter({ hasText: 'Private' });
  await expect(said).toContainText('2 photos moved out of Private, back to Holidays.');
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  expect((await hearth.api.ok('GET', `/nodes?parent_id=${holidays.id}`, member.access)).items).toHaveLength(2);

  await said.getByRole('button', { name: 'Undo' }).click();
  await expect(said).toContainText('2 photos are back in Private.');
  await expect(inPrivate(page).getByRole('button', { name: /^Photo / })).toHaveCount(2);
  expect((await hearth.api.ok('GET', `/nodes?parent_id=${holidays.id}`, member.access)).items).toHaveLength(0);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'No photos yet' })).toBeVisible();
});
