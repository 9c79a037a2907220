import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Issue 19, finding 11: the share dialog said "Anyone you send a link to can see this file"
 * while the server was reachable only at home. Until Hearth has an outside address (PUBLIC_URL
 * naming one), it says a link works on the home network only. (share-reach-internet.spec.ts
 * has the server with an outside address.)
 */
test('a server reachable only at home says, before a link is made, that links work at home only @lan', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Garden photos' });
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Garden photos' }).click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Garden photos”' });
  const note = dialog.getByRole('note');
  await expect(note).toContainText('Links work at home only.');
  await expect(note).toContainText("Someone away from home can't open it");
  await expect(dialog.getByText(/Anyone you send a link to/)).toHaveCount(0);
  await captureScreen(page, testInfo, 'share-home-only');
  // Still true once a link exists.
  await dialog.getByRole('button', { name: 'Make a link' }).click();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Link address' })).toBeVisible();
  await expect(note).toContainText('Links work at home only.');
});
