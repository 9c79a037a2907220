import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Every main screen, photographed at phone and desktop size in light and dark, and checked
 * with axe. The pictures are for people to look at: is each screen clear to a parent?
 */
test.describe('screens', () => {
  test('sign-in, and its error, are clear and accessible', async ({ page, member }, testInfo) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Sign in to Home' })).toBeVisible();
    await captureScreen(page, testInfo, 'sign-in');
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await captureScreen(page, testInfo, 'sign-in-error');
  });

  test('My files: empty, then with folders, files and a very long name', async ({ page, member, hearth }, testInfo) => {
    await signIn(page, member);
    await captureScreen(page, testInfo, 'files-empty');
    await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holidays' });
    await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'School reports and letters from the council about the new bus timetable 2024' });
    await page.reload();
    await expect(page.getByText('Holidays')).toBeVisible();
    await captureScreen(page, testInfo, 'files');
    await page.getByRole('link', { name: /Holidays/ }).click();
    await expect(page.getByRole('heading', { name: 'Holidays' })).toBeVisible();
    await captureScreen(page, testInfo, 'folder-empty');
  });

  test('account', async ({ page, member }, testInfo) => {
    await signIn(page, member);
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Account' })).toBeVisible();
    await captureScreen(page, testInfo, 'account');
  });
});
