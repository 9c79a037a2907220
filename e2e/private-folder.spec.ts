import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const tile = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^Photo ${name.replace('.', '\\.')}`) });
const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

async function openPhotos(page: Page): Promise<void> {
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
}

/** From My files' views (there on a phone and a computer alike). */
async function openPrivate(page: Page): Promise<void> {
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'My files' }).click();
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Private' }).click();
  await expect(page.getByRole('heading', { name: 'Private', level: 1 })).toBeVisible();
}

test('a photo moved to Private from the viewer leaves Photos; Private asks for the password, then shows it; moved out, it is back in Photos', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  test.setTimeout(120_000);
  const secret = await upload(hearth.api, member, await photo('2024:06:01 10:00:00', 800, 600), 'Secret.jpg');
  const garden = await upload(hearth.api, member, await photo('2024:05:01 10:00:00', 800, 600), 'Garden.jpg');
  await processed(hearth.api, member, [secret, garden]);

  await signIn(page, member);
  await openPhotos(page);
  await tile(page, 'Secret.jpg').click();
  await expect(viewer(page)).toBeVisible();
  await viewer(page).getByRole('button', { name: 'Move to Private' }).click();
  // The viewer goes on to the next photo; Secret is gone from the timeline behind it.
  await expect(page).toHaveURL(new RegExp(`/gallery/${garden}`));
  await viewer(page).getByRole('button', { name: 'Back to photos' }).click();
  await expect(tile(page, 'Garden.jpg')).toBeVisible();
  await expect(tile(page, 'Secret.jpg')).toHaveCount(0);
  // Not there after a reload either: the server keeps it out, not the page.
  await page.reload();
  await expect(tile(page, 'Garden.jpg')).toBeVisible();
  await expect(tile(page, 'Secret.jpg')).toHaveCount(0);

  await openPrivate(page);
  await expect(page.getByRole('heading', { name: 'Private is locked' })).toBeVisible();
  await expect(page.getByText('Only you can open this. It locks again after 5 minutes.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Photos in Private' })).toHaveCount(0);
  await captureScreen(page, testInfo, 'private-unlock');
  await page.getByLabel('Your password').fill('not my password');
  await page.getByRole('button', { name: 'Open Private' }).click();
  await expect(page.getByText('That password is not right.')).toBeVisible();
  await page.getByLabel('Your password').fill(member.password);
  await page.getByRole('button', { name: 'Open Private' }).click();
  const inPrivate = page.getByRole('region', { name: 'Photos in Private' });
  await expect(tile(page, 'Secret.jpg')).toBeVisible();
  // Its thumbnail, served now that Private is open.
  await expect(inPrivate.locator('img')).toHaveCount(1);
  await expect.poll(() => inPrivate.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await captureScreen(page, testInfo, 'private-open');

  // Lock now, then open again: the photo is there, and moves out in one tap.
  await page.getByRole('button', { name: 'Lock now' }).click();
  await expect(page.getByRole('heading', { name: 'Private is locked' })).toBeVisible();
  await page.getByLabel('Your password').fill(member.password);
  await page.getByRole('button', { name: 'Open Private' }).click();
  await inPrivate.getByRole('button', { name: 'Move Secret.jpg out of Private' }).click();
  await expect(page.getByText('Moved to My files.')).toBeVisible();
  await expect(page.getByText('Nothing here yet.', { exact: false })).toBeVisible();

  await openPhotos(page);
  await expect(tile(page, 'Secret.jpg')).toBeVisible();
  await expect(tile(page, 'Garden.jpg')).toBeVisible();
});

test('a PIN set in Account opens Private; a wrong one is refused', async ({ page, hearth, member }) => {
  const id = await upload(hearth.api, member, await photo('2024:04:01 10:00:00'), 'Note.jpg');
  await hearth.api.ok('POST', `/nodes/${id}/private`, member.access);
  await signIn(page, member);
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Account' }).click();
  const section = page.getByRole('region', { name: 'PIN for Private' });
  await section.getByLabel('PIN', { exact: true }).fill('2468');
  await section.getByLabel('Your password').fill(member.password);
  await section.getByRole('button', { name: 'Set PIN' }).click();
  await expect(section.getByText('PIN saved.', { exact: false })).toBeVisible();

  await openPrivate(page);
  await page.getByLabel('Your PIN').fill('1111');
  await page.getByRole('button', { name: 'Open Private' }).click();
  await expect(page.getByText('That PIN is not right.')).toBeVisible();
  await page.getByLabel('Your PIN').fill('2468');
  await page.getByRole('button', { name: 'Open Private' }).click();
  await expect(tile(page, 'Note.jpg')).toBeVisible();
});

test('“Move to Private” from a file’s menu in My files and from a selection in Photos: each is one action, and both are in Private after', async ({
  page,
  hearth,
  member,
}) => {
  test.setTimeout(90_000);
  const letter = await upload(hearth.api, member, Buffer.from('dear diary'), 'Letter.txt');
  const kiss = await upload(hearth.api, member, await photo('2023:02:14 20:00:00'), 'Kiss.jpg');
  await processed(hearth.api, member, [kiss]);
  expect(letter).toBeTruthy();
  await signIn(page, member);

  const files = page.getByRole('list', { name: 'Files and folders' });
  await expect(files.getByText('Letter.txt')).toBeVisible();
  await page.getByRole('button', { name: 'More for Letter.txt' }).click();
  await page.getByRole('list', { name: 'Actions for Letter.txt' }).getByRole('button', { name: 'Move to Private', exact: true }).click();
  await expect(files.getByText('Letter.txt')).toHaveCount(0);

  await openPhotos(page);
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await tile(page, 'Kiss.jpg').click();
  const bar = page.getByRole('toolbar', { name: 'Selected photos' });
  const direct = bar.getByRole('button', { name: 'Move to Private', exact: true });
  if (await direct.isVisible()) await direct.click();
  else {
    await bar.getByRole('button', { name: 'More', exact: true }).click();
    await page.getByRole('list', { name: 'More actions' }).getByRole('button', { name: 'Move to Private', exact: true }).click();
  }
  await expect(page.getByText('Moved to Private. Only you can open it there.')).toBeVisible();
  await expect(tile(page, 'Kiss.jpg')).toHaveCount(0);

  await openPrivate(page);
  await page.getByLabel('Your password').fill(member.password);
  await page.getByRole('button', { name: 'Open Private' }).click();
  await expect(page.getByRole('list', { name: 'Files in Private' }).getByText('Letter.txt')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Photos in Private' }).getByRole('button', { name: /^Photo Kiss\.jpg/ })).toBeVisible();
});
