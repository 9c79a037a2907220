import { expect, signIn, test } from './support/fixtures.ts';

/*
 * Issue 19, finding 11, the other side: once PUBLIC_URL names an address outside the home,
 * the share dialog says a link opens wherever its receiver is. (Nothing is sent there: the
 * address only shapes the links' text.)
 */
test.use({ serverConfig: { publicUrl: 'https://hearth.example.org' } });

test('with an outside address, the dialog says anyone with the link can open it wherever they are', async ({ page, member, hearth }) => {
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Recipes' });
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Recipes' }).click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Recipes”' });
  await expect(
    dialog.getByText('Anyone you send a link to can see this folder and everything in it, without an account, wherever they are.'),
  ).toBeVisible();
  await expect(dialog.getByText('Links work at home only.')).toHaveCount(0);
});
