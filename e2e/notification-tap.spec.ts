import type { Page } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/** The bell on screen: in the side bar on a computer, in the slim top row on a phone. */
const bell = (page: Page) => page.getByRole('link', { name: /^Notifications/ }).locator('visible=true');

// A tap on a pushed notification: the service worker (which holds no sign-in) opens the app at
// the notification's place with its id in the address (service-worker/notification-target.ts,
// unit-tested; headless Chromium cannot tap a system notification). This is the app's side, a
// real page load at that address: it marks that notification read over the API and drops the
// id from the address.
test('a tapped push notification opens its album, is read (over the API too), and its id leaves the address; another person’s id changes nothing', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'Lakeside' });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, dad.access, { user_id: mum.id, role: 'viewer' });
  const theirs = await hearth.api.ok('POST', '/albums', mum.access, { name: 'Mum’s picks' });
  await hearth.api.ok('POST', `/albums/${theirs.id}/members`, mum.access, { user_id: dad.id, role: 'viewer' });
  const firstOf = async (who: { access: string }) =>
    (await hearth.api.ok('GET', '/notifications', who.access)).items[0] as { id: string; read_at: number | null; link: string };
  await expect.poll(async () => (await firstOf(mum))?.link).toBe(`/albums/${album.id}`);
  await expect.poll(async () => (await firstOf(dad))?.link).toBe(`/albums/${theirs.id}`);
  const told = await firstOf(mum);
  const dads = await firstOf(dad);
  expect(told.read_at).toBeNull();

  await signIn(page, mum);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');

  // Dad's notification's id in Mum's address: it stays his, unread.
  await page.goto(`/shared?notification=${dads.id}`);
  await expect(page).toHaveURL(/\/shared$/);
  expect((await firstOf(dad)).read_at).toBeNull();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');

  // As the service worker opens it after the tap.
  await page.goto(`/albums/${album.id}?notification=${told.id}`);
  await expect(page.getByRole('heading', { name: 'Lakeside', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/albums/${album.id}$`));
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  expect((await firstOf(mum)).read_at).not.toBeNull();
  expect((await hearth.api.ok('GET', '/notifications', mum.access)).unread_count).toBe(0);
  await captureScreen(page, testInfo, 'notification-tap-opened');
  // A reload does not carry the id on (nothing to read again), and Back does not return to it.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Lakeside', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/albums/${album.id}$`));
});
