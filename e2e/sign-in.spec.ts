import { expect, signIn, test } from './support/fixtures.ts';

test.describe('sign-in @lan', () => {
  test('a family member signs in with username and password and lands on My files; a reload keeps them signed in', async ({
    page,
    member,
  }) => {
    await signIn(page, member);
    await expect(page.getByText('Nothing here yet.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  });

  test('a wrong password says so in plain words and signs nobody in', async ({ page, member }) => {
    await page.goto('/');
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('That username or password is not right.');
    await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
  });

  test('signing out returns to the sign-in screen and ends the session on the server', async ({ page, member, hearth }) => {
    await signIn(page, member);
    const before = await hearth.api.ok('GET', '/sessions', member.access);
    await page.getByRole('navigation', { name: 'Main' }).locator('visible=true').getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
    const after = await hearth.api.ok('GET', '/sessions', member.access);
    expect(after.items.filter((s: { status: string }) => s.status === 'active').length).toBe(
      before.items.filter((s: { status: string }) => s.status === 'active').length - 1,
    );
  });
});

test('a device signed out from elsewhere goes back to the sign-in screen at once, saying why', async ({ page, member, hearth }) => {
  await signIn(page, member);
  const sessions = await hearth.api.ok('GET', '/sessions', member.access);
  const browser = sessions.items.find(
    (s: { current: boolean; user_agent: string | null }) => !s.current && s.user_agent?.includes('Chrome'),
  );
  await hearth.api.ok('DELETE', `/sessions/${browser.id}`, member.access);
  await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
  // By the socket when it was up (the usual case), else by the refused handshake's check.
  await expect(page.getByText(/You were signed out on this device\.|Your sign-in expired\. Please sign in again\./)).toBeVisible();
});
