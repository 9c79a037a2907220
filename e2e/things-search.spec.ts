import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test/fixtures/things');

// Face (and thing) finding is off in the other specs' servers (e2e/support/serve.ts): this one looks.
test.use({ serverConfig: { findFaces: true } });

test('typing "boats" into Photos’ search shows the photo of boats, found on this PC, and not the others; a neighbour finds nothing', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const neighbour = await hearth.api.member(owner, uniqueName('neighbour'));
  const ids = [
    await upload(hearth.api, mum, await fs.readFile(path.join(FIXTURES, 'nagasaki-boats.jpg')), 'harbour.jpg'),
    await upload(hearth.api, mum, await fs.readFile(path.join(FIXTURES, 'airplane-from-above.jpg')), 'flight.jpg'),
  ];
  await processed(hearth.api, mum, ids);
  // Things are found in the background, in the face finder's pass: it has looked at every photo
  // when People says nothing is waiting.
  await expect.poll(async () => (await hearth.api.ok('GET', '/people', mum.access)).progress.waiting, { timeout: 120_000 }).toBe(0);

  await signIn(page, mum);
  await mainNav(page).getByRole('link', { name: 'Photos' }).click();
  await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search photos' }).fill('boats');
  const results = page.getByRole('region', { name: /found for “boats”/ });
  await expect(results.getByRole('button', { name: /^Photo harbour\.jpg/ })).toBeVisible();
  await expect(results.locator('.tile[aria-label]')).toHaveCount(1);
  await expect(page.getByRole('status').filter({ hasText: '1 photo found for “boats”' })).toBeVisible();
  await expect(page).toHaveURL(/\/gallery\?q=boats$/);
  await captureScreen(page, testInfo, 'things-search');

  // A thing in none of the photos finds nothing.
  await page.getByRole('searchbox', { name: 'Search photos' }).fill('dog');
  await expect(page.getByRole('heading', { name: 'Nothing found for “dog”' })).toBeVisible();
  await expect(page.getByText('a thing (dog, bike, boat)')).toBeVisible();
  await captureScreen(page, testInfo, 'things-search-empty');

  // Someone who cannot see the photo never finds it by what is in it.
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
  await signIn(page, neighbour);
  await page.goto('/gallery?q=boats');
  await expect(page.getByRole('heading', { name: 'Nothing found for “boats”' })).toBeVisible();
  await expect(page.locator('.tile[aria-label]')).toHaveCount(0);
});
