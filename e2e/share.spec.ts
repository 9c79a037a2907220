import sharp from 'sharp';
import { uniqueName, uploadAs } from './support/hearth.ts';
import { expect, signIn, test } from './support/fixtures.ts';

test.describe('share @lan', () => {
  test('a password-protected link opens in a fresh browser with no account; downloads can be switched off; a stopped or expired link gets a plain page', async ({ browser, page, member, hearth, baseURL }) => {
    test.setTimeout(120_000);
    const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Wedding photos' });
    const picture = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#884466' } }).jpeg().toBuffer();
    await uploadAs(hearth.api, member, 'first-dance.jpg', picture, { parent_id: folder.id });
    await signIn(page, member);
    await page.getByRole('button', { name: 'More for Wedding photos' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Share “Wedding photos”' });
    await dialog.getByRole('tab', { name: 'Public link' }).click();
    await dialog.getByRole('button', { name: 'Create a link' }).click();
    const address = dialog.getByLabel('Link address');
    await expect(address).toHaveValue(/\/s\//);
    const url = await address.inputValue();
    // Links are built from the server's own origin, and open the web app's public page.
    expect(new URL(url).pathname).toMatch(/^\/s\/[^/]+$/);
    await dialog.getByLabel('Password', { exact: true }).fill('confetti and cake');
    await dialog.getByRole('button', { name: 'Save link settings' }).click();
    await expect(dialog.getByText('Needs a password.')).toBeVisible();
    await expect(address).toHaveValue(url);
    await dialog.getByRole('button', { name: 'QR code' }).click();
    await expect(dialog.getByRole('img', { name: /QR code of the link/ })).toBeVisible();
    await dialog.getByRole('button', { name: 'Copy link' }).click();
    await expect(dialog.getByRole('status').filter({ hasText: /Copied|blocked/ })).toBeVisible();

    // A guest: a fresh browser, no account, the link as it would arrive in a message.
    const guestContext = await browser.newContext({ baseURL });
    const guest = await guestContext.newPage();
    await guest.goto(new URL(new URL(url).pathname, baseURL).href);
    await expect(guest.getByRole('heading', { name: 'This link is protected' })).toBeVisible();
    await guest.getByLabel('Password').fill('wrong password!');
    await guest.getByRole('button', { name: 'Open' }).click();
    await expect(guest.getByRole('alert')).toBeVisible();
    await guest.getByLabel('Password').fill('confetti and cake');
    await guest.getByRole('button', { name: 'Open' }).click();
    await expect(guest.getByRole('heading', { name: 'Wedding photos' })).toBeVisible();
    const shared = guest.getByRole('list', { name: 'Shared files' });
    await expect(shared.locator('img.node-thumb')).toHaveCount(1, { timeout: 30_000 });
    await shared.getByRole('button', { name: /first-dance.jpg/ }).click();
    const viewer = guest.getByRole('dialog', { name: 'first-dance.jpg' });
    await expect(viewer.getByRole('img', { name: 'first-dance.jpg' })).toBeVisible();
    const download = guest.waitForEvent('download');
    await viewer.getByRole('link', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('first-dance.jpg');

    // The owner turns downloads off: the same link, no download button.
    await dialog.getByLabel('Allow downloads').uncheck();
    await expect(dialog.getByText('Viewing only, no downloads.')).toBeVisible();
    await guest.reload();
    await shared.getByRole('button', { name: /first-dance.jpg/ }).click();
    await expect(viewer.getByText('The person who shared this turned downloads off.')).toBeVisible();
    await expect(viewer.getByRole('link', { name: 'Download' })).toHaveCount(0);

    // Expired, then stopped: plain pages, no stack trace.
    const links = await hearth.api.ok('GET', `/nodes/${folder.id}/shares`, member.access);
    await hearth.api.ok('PATCH', `/shares/${links.items[0].id}`, member.access, { expires_at: Date.now() - 1000 });
    await guest.reload();
    await expect(guest.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
    await hearth.api.ok('PATCH', `/shares/${links.items[0].id}`, member.access, { expires_at: null });
    await page.reload();
    await page.getByRole('button', { name: 'More for Wedding photos' }).click();
    await page.getByRole('button', { name: 'Share', exact: true }).click();
    await dialog.getByRole('tab', { name: 'Public link' }).click();
    await dialog.getByRole('button', { name: 'Stop sharing this link' }).click();
    await expect(dialog.getByText('No public link yet.')).toBeVisible();
    await guest.reload();
    await expect(guest.getByRole('heading', { name: "This link doesn't work" })).toBeVisible();
    await guestContext.close();
  });
});

test('sharing with a family member: find them, viewer then editor, then remove', async ({ page, member, hearth, owner }) => {
  const cousinName = uniqueName('cousin');
  const cousin = await hearth.api.member(owner, cousinName);
  const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Recipes' });
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Recipes' }).click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Recipes”' });
  await dialog.getByLabel('Find a family member').fill(cousinName.slice(0, 6));
  await dialog.getByRole('button', { name: `Share with ${cousinName}` }).click();
  const people = dialog.getByRole('list', { name: 'People with access' });
  await expect(people.getByText(cousinName)).toBeVisible();
  await expect(people.getByLabel(`Access for ${cousinName}`)).toHaveValue('viewer');
  const seen = await hearth.api.ok('GET', '/nodes?filter=shared', cousin.access);
  expect(seen.items.map((n: { id: string }) => n.id)).toEqual([folder.id]);
  await people.getByLabel(`Access for ${cousinName}`).selectOption('editor');
  await expect.poll(async () => (await hearth.api.ok('GET', `/nodes/${folder.id}/permissions`, member.access)).items[0]?.role).toBe('editor');
  await people.getByRole('button', { name: `Remove ${cousinName}` }).click();
  await expect(people.getByText('Only you can see this.')).toBeVisible();
  const after = await hearth.api.ok('GET', '/nodes?filter=shared', cousin.access);
  expect(after.items).toEqual([]);
});
