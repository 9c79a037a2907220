import type { Page, TestInfo } from '@playwright/test';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

/** The bell on screen: in the side bar on a computer, in the slim top row on a phone. */
const bell = (page: Page) => page.getByRole('link', { name: /^Notifications/ }).locator('visible=true');

test('Dad shares an album with Mum: her bell counts it at once, the list says it, a tap opens the album and the count goes back to none', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const dadName = await callThem(hearth, dad, 'Dad');
  const beach = await upload(hearth.api, dad, await photo('2024:08:03 10:15:00', 800, 600), 'Beach.jpg');
  await processed(hearth.api, dad, [beach]);
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'Summer 2024', node_ids: [beach] });

  await signIn(page, mum);
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  // Dad shares it from his phone while Mum looks at her files: her bell counts it, live.
  await hearth.api.ok('POST', `/albums/${album.id}/members`, dad.access, { user_id: mum.id, role: 'viewer' });
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');

  await bell(page).click();
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const list = page.getByRole('list', { name: 'Notifications' });
  const told = list.getByRole('button', { name: new RegExp(`Unread: ${dadName} shared the album “Summer 2024” with you`) });
  await expect(told).toBeVisible();
  await captureScreen(page, testInfo, 'notifications-list');

  await told.click();
  await expect(page.getByRole('heading', { name: 'Summer 2024', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/albums/${album.id}$`));
  await expect(bell(page)).toHaveAccessibleName('Notifications');

  // Read, it stays in the list without the unread mark; "Mark all as read" has nothing left to do.
  await bell(page).click();
  await expect(list.getByRole('button', { name: `${dadName} shared the album “Summer 2024” with you` })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
});

test("a share told while Mum's app is still opening its live channel reaches her bell once the channel is up", async ({
  page,
  hearth,
  owner,
}) => {
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'Late evening' });
  // The app's event channel reaches the server only when the test lets it: the share below is
  // told while Mum's bell has already answered "none" and nothing listens for her yet.
  let letThrough!: () => void;
  const through = new Promise<void>((resolve) => (letThrough = resolve));
  await page.routeWebSocket(/\/api\/v1\/ws/, async (socket) => {
    await through;
    socket.connectToServer();
  });
  await signIn(page, mum);
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await hearth.api.ok('POST', `/albums/${album.id}/members`, dad.access, { user_id: mum.id, role: 'viewer' });
  letThrough();
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
});

test('Mum turns off "Someone shares something with me": a new share is not told, new photos in her album still are; "Mark all as read" clears the bell', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const dadName = await callThem(hearth, dad, 'Dad');
  const album = await hearth.api.ok('POST', '/albums', dad.access, { name: 'Garden' });
  await hearth.api.ok('POST', `/albums/${album.id}/members`, dad.access, { user_id: mum.id, role: 'viewer' });

  await signIn(page, mum);
  await expect(bell(page)).toHaveAccessibleName('Notifications, 1 unread');
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Notifications' });
  const shares = section.getByRole('switch', { name: 'Someone shares something with me' });
  await expect(shares).toBeChecked();
  // Owners' kinds are not offered to a family member.
  await expect(section.getByRole('switch', { name: 'A backup did not finish' })).toHaveCount(0);
  await section.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'notifications-settings');
  await shares.click();
  await expect(shares).not.toBeChecked();
  await expect.poll(async () => (await hearth.api.ok('GET', '/me/notification-settings', mum.access)).kinds.shared_with_you).toBe(false);

  await hearth.api.ok('POST', `/albums/${(await hearth.api.ok('POST', '/albums', dad.access, { name: 'Quiet' })).id}/members`, dad.access, {
    user_id: mum.id,
    role: 'viewer',
  });
  const rose = await upload(hearth.api, dad, await photo('2024:05:12 11:00:00', 800, 600), 'Rose.jpg');
  await hearth.api.ok('POST', `/albums/${album.id}/items`, dad.access, { node_ids: [rose] });
  await expect(bell(page)).toHaveAccessibleName('Notifications, 2 unread');
  await bell(page).click();
  const list = page.getByRole('list', { name: 'Notifications' });
  await expect(list.getByRole('button', { name: /New photos in “Garden”/ })).toContainText(`${dadName} added a photo.`);
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByText(/Quiet/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Mark all as read' }).click();
  await expect(bell(page)).toHaveAccessibleName('Notifications');
  await expect(list.getByText('Unread:')).toHaveCount(0);
});

/** The device the project plays, as the Account page names it: "this phone" on a phone, "this computer" on a computer. */
const thisDevice = (testInfo: TestInfo) => (testInfo.project.name.startsWith('phone') ? 'phone' : 'computer');

test('"Notify me on this phone" ("this computer" on a computer) asks the browser for permission only after the tap', async ({
  page,
  member,
}, testInfo) => {
  await page.addInitScript(() => {
    const w = window as unknown as { askedForPermission: number };
    w.askedForPermission = 0;
    if (!('Notification' in window)) return;
    const ask = Notification.requestPermission.bind(Notification);
    Notification.requestPermission = (...args: Parameters<typeof Notification.requestPermission>) => {
      w.askedForPermission += 1;
      return ask(...args);
    };
  });
  const asked = () => page.evaluate(() => (window as unknown as { askedForPermission: number }).askedForPermission);
  await signIn(page, member);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Notifications' });
  const device = thisDevice(testInfo);
  const notifyMe = section.getByRole('button', { name: `Notify me on this ${device}` });
  await expect(notifyMe).toBeVisible();
  await expect(section).toContainText(
    `Hearth can also show these on this ${device} when Hearth is closed. Your browser will ask you first.`,
  );
  // A computer is never called a phone, nor a phone a computer.
  const other = device === 'phone' ? 'computer' : 'phone';
  await expect(section.getByText(new RegExp(`this ${other}`))).toHaveCount(0);
  await notifyMe.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'notifications-this-device');
  expect(await asked()).toBe(0);
  await notifyMe.click();
  await expect.poll(asked).toBe(1);
  // This browser has no notification service to reach (or said no): it says so in words, and nothing was subscribed.
  await expect(section.getByText(/Notifications|notification service|not allowed/).last()).toBeVisible();
});

test('@lan on the plain home address (no HTTPS) the Account page says plainly what notifications on this phone need, and offers no button that cannot work', async ({
  page,
  member,
  world,
}, testInfo) => {
  await signIn(page, member);
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Notifications' });
  await expect(section.getByRole('switch', { name: 'Someone shares something with me' })).toBeChecked();
  if (world === 'lan') {
    await expect(section).toContainText(
      `Notifications on this ${thisDevice(testInfo)} need Hearth’s secure address (one starting with https://).`,
    );
    await expect(section.getByRole('button', { name: /^Notify me on this/ })).toHaveCount(0);
  } else {
    await expect(section.getByRole('button', { name: `Notify me on this ${thisDevice(testInfo)}` })).toBeVisible();
  }
});
