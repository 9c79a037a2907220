import { expect, signIn, test } from './support/fixtures.ts';

test.describe('offline @lan', () => {
  test('offline, the app says it cannot reach the server instead of going blank, and recovers by itself', async ({
    page,
    context,
    member,
  }) => {
    await signIn(page, member);
    await context.setOffline(true);
    await expect(page.getByRole('status').filter({ hasText: "You're offline. Can't reach Home" })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
    await context.setOffline(false);
    await expect(page.getByRole('status').filter({ hasText: "Can't reach" })).toHaveCount(0, { timeout: 40_000 });
  });

  test('the app is installable where the browser allows it: a manifest, icons, and a service worker for the app shell only', async ({
    page,
    member,
    world,
  }) => {
    await signIn(page, member);
    const manifest = await page.evaluate(() => fetch('/manifest.webmanifest').then((r) => r.json()));
    expect(manifest.name).toBe('Hearth');
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    if (world === 'secure') {
      await expect
        .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? null), {
          timeout: 20_000,
        })
        .toBe('activated');
      // Nothing of the API is ever cached: only the shell.
      await page.reload();
      const cached = await page.evaluate(async () => {
        const urls: string[] = [];
        for (const name of await caches.keys())
          for (const request of await (await caches.open(name)).keys()) urls.push(new URL(request.url).pathname);
        return urls;
      });
      expect(cached.length).toBeGreaterThan(0);
      expect(cached.filter((p) => p.startsWith('/api/'))).toEqual([]);
    } else {
      expect(await page.evaluate(() => window.isSecureContext)).toBe(false);
    }
  });
});
