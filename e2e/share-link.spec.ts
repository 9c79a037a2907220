import type { BrowserContext, Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';
import { makeLink } from './support/share.ts';

/**
 * What the browser's clipboard holds. A plain-HTTP page has no async clipboard to read it
 * with, so it is read from a page of the same browser at 127.0.0.1, a secure context.
 */
async function clipboardText(context: BrowserContext, secureOrigin: string): Promise<string> {
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: secureOrigin });
  const reader = await context.newPage();
  try {
    await reader.goto(`${secureOrigin}/icon.svg`);
    return await reader.evaluate(() => navigator.clipboard.readText());
  } finally {
    await reader.close();
  }
}

async function openSharing(page: Page, name: string) {
  await page.goto('/shared/links');
  await page.getByRole('button', { name: `Manage the links to ${name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Share “${name}”` });
  await expect(dialog).toBeVisible();
  return dialog;
}

test.describe('share links @lan', () => {
  test('a link made in the app is copied, opens with its password in a browser with no account, changes its settings keeping its address, and is turned off', async ({
    page,
    member,
    hearth,
    browser,
    world,
    baseURL,
  }, testInfo) => {
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Garden plans' });
    await makeLink(hearth, member, folder.id);
    await signIn(page, member);
    const dialog = await openSharing(page, 'Garden plans');
    const links = dialog.getByRole('list', { name: 'Links' });
    await expect(links.getByRole('listitem').filter({ has: page.getByRole('textbox', { name: 'Link address' }) })).toHaveCount(1);

    // A second link, for one week, with a password.
    await dialog.getByRole('button', { name: 'Make another link' }).click();
    await dialog.getByLabel('Link works').selectOption({ label: 'For 1 week' });
    await dialog.getByLabel('Ask for a password').check();
    await dialog.getByLabel('Password', { exact: true }).fill('carrots and peas');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    const cards = links.locator(':scope > li');
    await expect(cards).toHaveCount(2);
    const card = cards.filter({ hasText: 'Password needed' });
    await expect(card.getByRole('list', { name: 'What this link allows' })).toContainText('Works until');
    await expect(card.getByRole('list', { name: 'What this link allows' })).toContainText('Downloads allowed');
    const url = await card.getByRole('textbox', { name: 'Link address' }).inputValue();
    const made = (await hearth.api.ok('GET', `/nodes/${folder.id}/shares`, member.access)).items.find(
      (l: { password_protected: boolean }) => l.password_protected,
    );
    expect(url).toBe(made.url);
    expect(made.expires_at - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

    // Copy: the async clipboard at 127.0.0.1; the selected field and the copy command under a LAN name.
    await card.getByRole('button', { name: 'Copy link' }).click();
    await expect(card.getByRole('status')).toHaveText('Link copied. Paste it in a message to share it.');
    expect(await clipboardText(page.context(), hearth.url)).toBe(url);

    await card.getByRole('button', { name: 'QR code' }).click();
    const qr = card.getByRole('img', { name: 'QR code of the link' });
    await expect(qr).toBeVisible();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    if (world === 'secure') await captureScreen(page, testInfo, 'share-links-qr');
    await card.getByRole('button', { name: 'QR code' }).click();

    // Someone without an account opens the copied link (on the LAN name, as a phone would: no secure context there either).
    const visitor = await browser.newContext();
    const guest = await visitor.newPage();
    await guest.goto(world === 'lan' ? `${baseURL}${new URL(url).pathname}` : url);
    await guest.getByLabel('Password').fill('carrots and peas');
    await guest.getByRole('button', { name: 'Open' }).click();
    await expect(guest.getByRole('heading', { name: 'Garden plans' })).toBeVisible();
    await expect(guest.getByText('turned off downloads')).toHaveCount(0);

    // New settings, same address: downloads off, no end date.
    await card.getByRole('button', { name: 'Settings' }).click();
    const settings = card.getByRole('form', { name: 'Link settings' });
    await settings.getByLabel('Link works').selectOption({ label: 'Until I turn it off' });
    await settings.getByLabel('Let people download').uncheck();
    await settings.getByRole('button', { name: 'Save changes' }).click();
    await expect(settings).toBeHidden();
    await expect(card.getByRole('list', { name: 'What this link allows' })).toContainText('View only');
    await expect(card.getByRole('list', { name: 'What this link allows' })).toContainText('No end date');
    expect(await card.getByRole('textbox', { name: 'Link address' }).inputValue()).toBe(url);
    await guest.reload();
    await expect(guest.getByText('turned off downloads for this link')).toBeVisible();

    // Turned off, after saying what that means.
    await card.getByRole('button', { name: 'Turn off' }).click();
    await expect(card.getByText('Anyone who has it will no longer be able to open it.')).toBeVisible();
    await card.getByRole('button', { name: 'Turn off link' }).click();
    await expect(cards).toHaveCount(1);
    await guest.reload();
    await expect(guest.getByRole('heading', { name: "This link doesn't work" })).toBeVisible();
    await visitor.close();
  });
});

test('the share dialog, its links and its family tab are clear and accessible', async ({ page, member, hearth, owner }, testInfo) => {
  const sister = await hearth.api.member(owner, `sis${Date.now() % 100000}`);
  const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Birthday party' });
  await makeLink(hearth, member, folder.id, { password: 'balloons and cake', expires_at: Date.now() + 30 * 86_400_000 });
  await makeLink(hearth, member, folder.id, { allow_download: false });
  await signIn(page, member);
  const dialog = await openSharing(page, 'Birthday party');
  await expect(dialog.getByRole('list', { name: 'Links' }).locator(':scope > li')).toHaveCount(2);
  await captureScreen(page, testInfo, 'share-links');

  await dialog.getByRole('tab', { name: 'Family' }).click();
  await dialog.getByLabel('Name').fill(sister.username);
  await dialog.getByRole('button', { name: `Add ${sister.username}` }).click();
  const people = dialog.getByRole('list', { name: 'People with access' });
  await expect(people.getByRole('listitem').filter({ hasText: sister.username })).toBeVisible();
  await expect(dialog.getByRole('status').filter({ hasText: 'can now see' })).toBeVisible();
  await captureScreen(page, testInfo, 'share-people');
  const granted = await hearth.api.ok('GET', `/nodes/${folder.id}/permissions`, member.access);
  expect(granted.items.map((g: { user_id: string; role: string }) => [g.user_id, g.role])).toEqual([[sister.id, 'viewer']]);

  await people.getByLabel(`What ${sister.username} can do`).selectOption('editor');
  await expect(dialog.getByRole('status').filter({ hasText: 'can now add and change files' })).toBeVisible();
  expect((await hearth.api.ok('GET', `/nodes/${folder.id}/permissions`, member.access)).items[0].role).toBe('editor');
  await people.getByRole('button', { name: `Remove ${sister.username}` }).click();
  await expect(people.getByRole('listitem').filter({ hasText: sister.username })).toHaveCount(0);
  expect((await hearth.api.ok('GET', `/nodes/${folder.id}/permissions`, member.access)).items).toEqual([]);
});
