import { uniqueName } from './support/hearth.ts';
import { expect, test } from './support/fixtures.ts';

test.describe('invite registration', () => {
  test('an invite link opens the form with the code filled in; the new member lands on Photos, with Back up this phone', async ({
    page,
    hearth,
    owner,
    isMobile,
  }) => {
    const invite = await hearth.api.ok('POST', '/admin/invites', owner.access, {});
    const username = uniqueName('grandma');
    await page.goto(`/invite/${invite.code}`);
    await expect(page.getByRole('heading', { name: 'Join Home' })).toBeVisible();
    await page.getByLabel('Your name').fill('Grandma Rose');
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password').fill('roses are red 1');
    await page.getByRole('button', { name: 'Create my account' }).click();
    // Not an empty My files: Photos, where a phone backs up its camera roll.
    await expect(page.getByRole('heading', { name: 'Photos', exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/gallery$/);
    if (isMobile) await expect(page.getByRole('button', { name: 'Back up this phone' }).first()).toBeVisible();
    const account = await hearth.api.login(username, 'roses are red 1');
    const me = await hearth.api.ok('GET', '/me', account.access);
    expect(me.display_name).toBe('Grandma Rose');
    // The invite is used up now: someone else opening the link is told so.
    await page.evaluate(() => localStorage.clear());
    await page.goto(`/invite/${invite.code}`);
    await expect(page.getByRole('heading', { name: "This invite can't be used" })).toBeVisible();
  });
});
