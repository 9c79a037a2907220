import { captureScreen } from './support/screens.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';

test("changing one's password in Account stops the drive passwords too, and the page says so", async ({
  page,
  member,
  hearth,
}, testInfo) => {
  const made = await hearth.api.ok('POST', '/me/dav-passwords', member.access, { name: 'Study computer' });
  const authorization = `Basic ${Buffer.from(`${member.username}:${made.password}`).toString('base64')}`;
  const propfind = () => fetch(`${hearth.url}/dav/`, { method: 'PROPFIND', headers: { Authorization: authorization, Depth: '0' } });
  expect((await propfind()).status).toBe(207);

  // The fixture's own session (member.access) is another device: it is signed out, and the
  // browser that changed the password, which hears that end too, stays signed in.
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  await page.getByLabel('Current password').fill(member.password);
  await page.getByLabel('New password').fill('a brand new password');
  await page.getByRole('button', { name: 'Change password' }).click();
  const notice = page.getByText('Password changed. Your other devices were signed out, and your drive passwords no longer work');
  await expect(notice).toBeVisible();
  await notice.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'dav-password-changed');

  expect((await propfind()).status).toBe(401);
  expect((await hearth.api.call('GET', '/me', member.access)).status).toBe(401);
  await page.reload();
  await expect(mainNav(page).getByRole('link', { name: 'Account' })).toBeVisible();
});
