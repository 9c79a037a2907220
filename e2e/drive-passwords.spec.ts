import type { Page } from '@playwright/test';
import { captureScreen } from './support/screens.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';

/*
 * Issue 34: Account → "Use Hearth as a drive". A person makes a drive password for a computer
 * there, the computer opens /dav/ with it (a real WebDAV request, HTTP Basic, as Finder or
 * Explorer sends it), and revoking it in the app shuts that computer out at once.
 */

async function openDrivePage(page: Page): Promise<void> {
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  await page.getByRole('link', { name: 'Set up a computer' }).click();
  await expect(page.getByRole('heading', { name: 'Use Hearth as a drive', level: 1 })).toBeVisible();
}

test('@lan a drive password made in Account opens /dav/ for a computer, a file it saves is in My files, and revoking it shuts the computer out', async ({
  page,
  member,
  hearth,
  baseURL,
}, testInfo) => {
  await signIn(page, member);
  await openDrivePage(page);
  await expect(page.getByRole('textbox', { name: "The drive's address" })).toHaveValue(`${baseURL}/dav/`);
  await expect(page.getByText('No drive passwords yet.')).toBeVisible();

  await page.getByLabel('Which computer is it for?').fill("Dad's laptop");
  await page.getByRole('button', { name: 'Make a drive password' }).click();
  const shown = page.getByRole('textbox', { name: "Drive password for Dad's laptop" });
  await expect(shown).toHaveValue(/\S/);
  const password = await shown.inputValue();
  await expect(page.getByText('It will not be shown again')).toBeVisible();
  await page.evaluate(() => document.getElementById('drive-passwords-title')?.scrollIntoView({ block: 'start' }));
  await captureScreen(page, testInfo, 'drive-password-made');

  const authorization = `Basic ${Buffer.from(`${member.username}:${password}`).toString('base64')}`;
  const dav = (method: string, path: string, body?: string) =>
    fetch(`${hearth.url}/dav/${path}`, {
      method,
      headers: { Authorization: authorization, ...(method === 'PROPFIND' && { Depth: '1' }) },
      ...(body !== undefined && { body }),
    });
  expect((await dav('PROPFIND', '')).status).toBe(207);
  expect((await dav('PUT', 'from-dads-laptop.txt', 'Saved from the laptop')).status).toBe(201);

  await page.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toHaveCount(0);
  await mainNav(page).getByRole('link', { name: 'My files' }).click();
  await expect(page.getByRole('list', { name: 'Files and folders' }).getByText('from-dads-laptop.txt')).toBeVisible();

  await openDrivePage(page);
  const row = page.getByRole('list', { name: 'Drive passwords' }).getByRole('listitem').filter({ hasText: "Dad's laptop" });
  await expect(row.getByText(/Made on .* · Last used just now/)).toBeVisible();
  await page
    .locator('summary')
    .filter({ hasText: /^Windows$/ })
    .click();
  await expect(page.getByText('Map network drive…')).toBeVisible();
  await page
    .getByRole('heading', { name: 'Use Hearth as a drive', level: 1 })
    .evaluate((heading) => heading.scrollIntoView({ block: 'end' }));
  await captureScreen(page, testInfo, 'drive-page');

  await row.getByRole('button', { name: "Revoke Dad's laptop" }).click();
  const ask = page.getByRole('dialog', { name: "Revoke “Dad's laptop”?" });
  await ask.getByRole('button', { name: 'Revoke' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page.getByText('No drive passwords yet.')).toBeVisible();
  expect((await dav('PROPFIND', '')).status).toBe(401);
  expect((await dav('PUT', 'after-revoking.txt', 'refused')).status).toBe(401);
});

test('the twenty-first drive password is refused in words, and making it works again once one is revoked', async ({
  page,
  member,
  hearth,
}) => {
  for (let i = 1; i <= 20; i++) await hearth.api.ok('POST', '/me/dav-passwords', member.access, { name: `Computer ${i}` });
  await signIn(page, member);
  await openDrivePage(page);
  await page.getByLabel('Which computer is it for?').fill('One too many');
  await page.getByRole('button', { name: 'Make a drive password' }).click();
  await expect(page.getByText('You have 20 drive passwords already. Revoke one you no longer use, then make the new one.')).toBeVisible();

  await page.getByRole('button', { name: 'Revoke Computer 1', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByRole('button', { name: 'Revoke Computer 1', exact: true })).toHaveCount(0);
  await page.getByRole('button', { name: 'Make a drive password' }).click();
  await expect(page.getByRole('textbox', { name: 'Drive password for One too many' })).toHaveValue(/\S/);
});
