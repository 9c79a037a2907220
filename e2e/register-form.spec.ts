import { uniqueName } from './support/hearth.ts';
import { expect, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Issue 19, finding 18: registration showed one error at a time, and its hint ("3 to 32
 * letters or digits") disagreed with its error on which characters a username may hold
 * (api-decisions: 3-32 characters of [A-Za-z0-9._-]). Every problem now shows at once beside
 * its field, in the words of its hint.
 */
test('every problem of the form shows at once beside its field, and the username hint and error name the same characters @lan', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const taken = await hearth.api.member(owner, uniqueName('rose'));
  const invite = await hearth.api.ok('POST', '/admin/invites', owner.access, {});
  await page.goto(`/invite/${invite.code}`);
  const username = page.getByLabel('Username');
  const password = page.getByLabel('Password');
  await expect(username).toHaveAccessibleDescription(
    /3 to 32 characters: letters a–z, digits, dots \(\.\), dashes \(-\) or underscores \(_\)/,
  );

  // Other specs on this worker's server may have a Grandma Rose already: a display name is unique.
  await page.getByLabel('Your name').fill(`Grandma ${uniqueName('rose')}`);
  await username.fill('Grandma Rose');
  await password.fill('short');
  await page.getByRole('button', { name: 'Create my account' }).click();
  // Both problems at once, each beside its own field and tied to it.
  await expect(username).toHaveAccessibleDescription(/Use only letters a–z, digits, dots, dashes or underscores: not spaces\./);
  await expect(password).toHaveAccessibleDescription(/A password needs at least 10 characters; this one has 5\./);
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await captureScreen(page, testInfo, 'register-problems');

  // Each goes away as it is fixed; nothing was sent.
  await password.fill('roses are red 1');
  await expect(password).not.toHaveAttribute('aria-invalid', 'true');
  await expect(username).toHaveAttribute('aria-invalid', 'true');
  expect((await hearth.api.call('GET', `/invites/${invite.code}/check`)).body.valid).toBe(true);

  // What only the server knows (the name is taken) shows beside its field too.
  await username.fill(taken.username);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(username).toHaveAccessibleDescription(/That username is taken\. Try another\./);
  const mine = uniqueName('grandma');
  await username.fill(mine);
  await expect(username).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', exact: true })).toBeVisible();
});

test('an empty form says what each field needs, instead of a button that does nothing', async ({ page, hearth, owner }) => {
  const invite = await hearth.api.ok('POST', '/admin/invites', owner.access, {});
  await page.goto(`/invite/${invite.code}`);
  await page.getByRole('button', { name: 'Create my account' }).click();
  await expect(page.getByLabel('Username')).toHaveAccessibleDescription(/Choose a username\./);
  await expect(page.getByLabel('Password')).toHaveAccessibleDescription(/Choose a password\./);
});
