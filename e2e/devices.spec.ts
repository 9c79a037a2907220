import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import type { Account, Hearth } from './support/hearth.ts';
import { uniqueName } from './support/hearth.ts';
import { openConsole } from './support/console.ts';
import { captureScreen } from './support/screens.ts';
import { callThem } from './support/share.ts';

/*
 * Issue 19, findings 15 and 17: the devices list showed four identical "Chrome on Android ·
 * 127.0.0.1", the console's request card the username; and a phone waiting for the owner's OK
 * was invisible unless the owner happened to be on Devices.
 */

// A server of this spec's own: the waiting list is counted, so no other spec's phones are in it.
test.use({ serverConfig: { hostNames: ['family-pc.home.arpa'] } });

const PIXEL_7 = 'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const EDGE =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0';

/** A sign-in from another device, as its browser would send it. */
async function signInFrom(hearth: Hearth, account: Account, userAgent: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${hearth.api.base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({
      username: account.username,
      password: account.password,
      platform: /iPhone/.test(userAgent) ? 'iOS' : 'Android',
    }),
  });
  return { status: res.status, body: await res.json() };
}

const devices = (page: Page) => page.getByRole('list', { name: 'Signed-in devices' });

test('Account lists each device by a name a person knows, with when it was last used, and renames one', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  for (const ua of [PIXEL_7, IPHONE, EDGE]) expect((await signInFrom(hearth, member, ua)).status).toBe(200);
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  const list = devices(page);
  // The phone project's own browser is a Pixel 7 too: one of them is this device.
  await expect(
    list.getByRole('listitem').filter({ hasNotText: 'This device' }).getByText('Chrome on Pixel 7', { exact: true }),
  ).toBeVisible();
  await expect(list.getByText('Safari on iPhone', { exact: true })).toBeVisible();
  await expect(list.getByText('Edge on Windows', { exact: true })).toBeVisible();
  const current = list.getByRole('listitem').filter({ hasText: 'This device' });
  await expect(current.getByText('In use now')).toBeVisible();
  await expect(list.getByRole('listitem').filter({ hasText: 'Safari on iPhone' }).getByText('Used just now')).toBeVisible();
  // No address a family member cannot read.
  await expect(list.getByText('127.0.0.1')).toHaveCount(0);

  await list.getByRole('button', { name: 'Rename Safari on iPhone' }).click();
  const field = list.getByLabel('New name for Safari on iPhone');
  await field.fill('');
  await expect(list.getByRole('button', { name: 'Save' })).toBeDisabled();
  await field.fill('Grandma’s iPhone');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(list.getByText('Grandma’s iPhone', { exact: true })).toBeVisible();
  await expect(list.getByText('Safari on iPhone', { exact: true })).toHaveCount(0);
  const names = (await hearth.api.ok('GET', '/sessions', member.access)).items.map((s: { device_name: string }) => s.device_name);
  expect(names).toContain('Grandma’s iPhone');
  await captureScreen(page, testInfo, 'account-devices');
});

test('a phone waiting for approval shows on Manage and as a notice anywhere in the app, live; the request names the person, not the username', async ({
  page,
  owner,
  hearth,
}, testInfo) => {
  test.setTimeout(90_000);
  const grandma = await hearth.api.member(owner, uniqueName('rose'));
  const grandmaName = await callThem(hearth, grandma, 'Grandma Rose');
  await signIn(page, owner);
  await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: true });
  try {
    const manage = mainNav(page)
      .locator('visible=true')
      .getByRole('link', { name: /^Manage/ });
    await expect(manage).toHaveAccessibleName('Manage');

    // Her new phone asks while the owner is in My files: the notice and the count arrive without a reload.
    const first = await signInFrom(hearth, grandma, PIXEL_7);
    expect(first.status).toBe(202);
    const notice = page.getByRole('region', { name: 'A new phone is waiting for your OK' });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(`Chrome on Pixel 7 wants to open ${grandmaName}'s account.`);
    await expect(manage).toHaveAccessibleName('Manage 1 device waiting');
    await captureScreen(page, testInfo, 'waiting-phone');

    // A second one; then it is refused elsewhere (the account's own session): the count follows.
    const second = await signInFrom(hearth, grandma, IPHONE);
    await expect(page.getByRole('region', { name: '2 new devices are waiting for your OK' })).toBeVisible();
    await expect(manage).toHaveAccessibleName('Manage 2 devices waiting');
    await hearth.api.ok('POST', `/devices/${second.body.session_id}/deny`, grandma.access);
    await expect(page.getByRole('region', { name: 'A new phone is waiting for your OK' })).toBeVisible();
    await expect(manage).toHaveAccessibleName('Manage 1 device waiting');

    // Other pages show it too; "Not now" puts it away until another phone asks.
    await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
    await expect(notice).toBeVisible();
    await notice.getByRole('button', { name: 'Not now' }).click();
    await expect(notice).toHaveCount(0);
    await expect(manage).toHaveAccessibleName('Manage 1 device waiting');

    await page.goto('/files');
    await page.getByRole('region', { name: 'A new phone is waiting for your OK' }).getByRole('link', { name: 'See the request' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Devices' })).toBeVisible();
    const request = page.getByRole('listitem').filter({ hasText: `Chrome on Pixel 7 wants to open ${grandmaName}'s account` });
    await expect(request.getByText(`(signs in as ${grandma.username})`)).toBeVisible();
    await expect(request.getByLabel(`Pairing code ${first.body.pairing_code.split('').join(' ')}`)).toBeVisible();
    // On Devices the request itself is the notice.
    await expect(page.getByRole('region', { name: /waiting for your OK/ })).toHaveCount(0);
    await captureScreen(page, testInfo, 'console-request');
    await request.getByRole('button', { name: `Approve Chrome on Pixel 7 for ${grandmaName}` }).click();
    await expect(page.getByText('No device is waiting.')).toBeVisible();
    await expect(manage).toHaveAccessibleName('Manage');

    // Her devices are under her name; the owner names the new one for her.
    const hers = page.getByRole('region', { name: `Devices of ${grandmaName}` });
    await hers.getByRole('button', { name: `Rename Chrome on Pixel 7 of ${grandmaName}` }).click();
    await hers.getByLabel('New name for Chrome on Pixel 7').fill('Grandma’s phone');
    await hers.getByRole('button', { name: 'Save' }).click();
    await expect(hers.getByText('Grandma’s phone', { exact: true })).toBeVisible();
    await captureScreen(page, testInfo, 'console-devices-named');
  } finally {
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: false });
  }
  await openConsole(page, 'Devices');
});

test('on the console, a phone asking to connect has the waiting list read once, not once per listener', async ({ page, owner, hearth }) => {
  const rose = await hearth.api.member(owner, uniqueName('rose'));
  await signIn(page, owner);
  await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: true });
  try {
    await openConsole(page, 'Devices');
    await expect(page.getByText('No device is waiting.')).toBeVisible();
    const reads: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/v1/devices/pending') reads.push(request.url());
    });
    const asked = await signInFrom(hearth, rose, PIXEL_7);
    expect(asked.status).toBe(202);
    await expect(page.getByRole('listitem').filter({ hasText: 'Chrome on Pixel 7 wants to open' })).toBeVisible();
    expect(reads).toHaveLength(1);
    await hearth.api.ok('POST', `/devices/${asked.body.session_id}/deny`, owner.access);
    await expect(page.getByText('No device is waiting.')).toBeVisible();
    expect(reads).toHaveLength(2);
  } finally {
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: false });
  }
});
