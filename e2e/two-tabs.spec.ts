import { expect, signIn, test } from './support/fixtures.ts';

// Access tokens of 4 s: every few seconds both tabs must refresh, and the refresh token rotates each time.
test.use({ serverConfig: { accessTokenTtlMs: 4_000 } });

test.describe('two tabs @lan', () => {
  test('two tabs refreshing at once stay signed in: the refresh token is never spent twice', async ({
    page,
    context,
    member,
    hearth,
    world,
  }) => {
    test.setTimeout(90_000);
    await signIn(page, member);
    // The lock under test: Web Locks in a secure context, the IndexedDB lease on a LAN name.
    expect(await page.evaluate(() => 'locks' in navigator)).toBe(world === 'secure');
    const second = await context.newPage();
    await second.goto('/files');
    await expect(second.getByRole('heading', { name: 'My files' })).toBeVisible();

    for (let round = 0; round < 4; round++) {
      await page.waitForTimeout(4_200);
      // Both tabs find their token expired at the same moment and refresh together.
      await Promise.all([page.reload(), second.reload()]);
      await Promise.all([
        expect(page.getByRole('heading', { name: 'My files' })).toBeVisible(),
        expect(second.getByRole('heading', { name: 'My files' })).toBeVisible(),
      ]);
    }
    // The server saw no reuse: the browser's session is still active.
    const sessions = await hearth.api.ok('GET', '/sessions', (await hearth.api.login(member.username, member.password)).access);
    const browser = sessions.items.filter((s: { user_agent: string | null }) => s.user_agent?.includes('Chrome'));
    expect(browser.map((s: { status: string }) => s.status)).toEqual(['active']);
    await expect(page.getByRole('heading', { name: /Sign in/ })).toHaveCount(0);
    await expect(second.getByRole('heading', { name: /Sign in/ })).toHaveCount(0);
  });
});
