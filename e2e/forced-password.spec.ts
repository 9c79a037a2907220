import { expect, test } from './support/fixtures.ts';

test('a temporary password from the owner must be replaced before anything else, and the new one works', async ({
  page,
  member,
  hearth,
  owner,
}) => {
  const reset = await hearth.api.ok('POST', `/admin/users/${member.id}/reset-password`, owner.access, {});
  // My files' address: the app's own opens Photos on a phone.
  await page.goto('/files');
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password').fill(reset.temporary_password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  // Nothing else is reachable meanwhile.
  await page.goto('/files');
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();

  await page.getByLabel('Temporary password').fill(reset.temporary_password);
  await page.getByLabel('New password', { exact: true }).fill('my own new password');
  await page.getByLabel('New password again').fill('my own new password');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  const again = await hearth.api.login(member.username, 'my own new password');
  expect(again.access).toBeTruthy();
});
