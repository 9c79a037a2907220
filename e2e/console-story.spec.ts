import sharp from 'sharp';
import { devices } from '@playwright/test';
import { asDesktopWindow, openConsole } from './support/console.ts';
import { expect, mainNav, test } from './support/fixtures.ts';
import { startHearth, type Hearth } from './support/hearth.ts';

/*
 * The appliance's whole story, on a fresh server: the owner sets it up in the desktop app's
 * window (its bridge to the app stands in for the preload) and invites
 * Grandma; her phone opens the invite and registers; with approval on, her second phone waits
 * with a pairing code that the console shows live beside the request; the owner approves; the
 * phone goes on to her files and uploads a photo; the storage page shows the family's files grow.
 */
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: devices['Pixel 7']!.userAgent,
};

test.describe('the appliance story', () => {
  let hearth: Hearth;
  // Runs under the desktop project only (playwright.config.ts): it makes its own phone contexts.
  test.beforeAll(async () => {
    hearth = await startHearth();
  });
  test.afterAll(async () => {
    await hearth?.stop();
  });

  test('set up, invite, register, approve a phone by its code, upload, and see the usage change', async ({ browser }) => {
    test.setTimeout(180_000);
    // The family's phones reach the PC by a LAN name: plain HTTP, not a secure context.
    const lan = `http://hearth.local:${hearth.port}`;
    const pc = await browser.newContext({ baseURL: hearth.url, viewport: { width: 1280, height: 800 } });
    const desktopWindow = await asDesktopWindow(pc, hearth);
    const owner = await pc.newPage();

    await test.step('the owner sets Hearth up in the desktop window (no owner yet: the bridge answers null)', async () => {
      expect(await hearth.localSession()).toBeNull();
      await owner.goto('/');
      await expect(owner.getByRole('heading', { name: 'Set up Hearth' })).toBeVisible();
      await owner.getByLabel('Name of this Hearth').fill('The Millers');
      await owner.getByLabel('Your username').fill('dad');
      await owner.getByLabel('Password').fill('our family photos 1');
      await owner.getByRole('button', { name: 'Create the owner account' }).click();
      // Setup's last step offers backups; the story leaves it for later.
      await expect(owner.getByRole('heading', { level: 1, name: "Keep a copy of your family's files" })).toBeVisible();
      await owner.getByRole('button', { name: 'Later' }).click();
      await expect(owner.getByRole('heading', { level: 1, name: 'Hearth is ready' })).toBeVisible();
      await expect(owner.getByRole('heading', { name: "Connect your family's phones" })).toBeVisible();
    });

    let invitePath = '';
    await test.step('and makes an invite for Grandma, shown as a link and a QR code', async () => {
      await owner.getByLabel('Who is it for?').fill('Grandma');
      await owner.getByRole('button', { name: 'Make an invite' }).click();
      await expect(owner.getByRole('img', { name: 'QR code of the invite link for Grandma' })).toBeVisible();
      const link = new URL(await owner.getByRole('textbox', { name: 'Invite link' }).inputValue());
      expect(link.pathname).toMatch(/^\/invite\/[A-Za-z0-9_-]{20,}$/);
      invitePath = link.pathname;
      // In the window the app copies (the window grants the page no clipboard permission).
      await owner.getByRole('button', { name: 'Copy invite link' }).click();
      await expect(owner.getByText('Copied.')).toBeVisible();
      expect(desktopWindow.copied).toEqual([link.href]);
    });

    const first = await browser.newContext({ ...PHONE, baseURL: lan });
    const phone = await first.newPage();
    await test.step("Grandma's phone opens the invite and registers", async () => {
      await phone.goto(invitePath);
      await expect(phone.getByRole('heading', { name: 'Join The Millers' })).toBeVisible();
      await phone.getByLabel('Your name').fill('Grandma Rose');
      await phone.getByLabel('Username').fill('rose');
      await phone.getByLabel('Password').fill('roses are red 12');
      await phone.getByRole('button', { name: 'Create my account' }).click();
      await expect(phone.getByRole('heading', { name: 'Photos', exact: true })).toBeVisible();
    });

    await test.step('the owner turns device approval on', async () => {
      await openConsole(owner, 'Settings');
      await owner.getByLabel('New phones and computers wait for my approval').check();
      await owner.getByRole('button', { name: 'Save settings' }).click();
      await expect(owner.getByText('Saved.')).toBeVisible();
      await openConsole(owner, 'Devices');
      await expect(owner.getByText('No device is waiting.')).toBeVisible();
    });

    const second = await browser.newContext({ ...PHONE, baseURL: lan });
    const tablet = await second.newPage();
    let code = '';
    await test.step('her second phone signs in and waits, showing a pairing code', async () => {
      await tablet.goto('/');
      await tablet.getByLabel('Username').fill('rose');
      await tablet.getByLabel('Password').fill('roses are red 12');
      await tablet.getByRole('button', { name: 'Sign in' }).click();
      await expect(tablet.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
      code = (await tablet.getByLabel(/^Pairing code/).textContent())!.trim();
      expect(code).toMatch(/^\d{6}$/);
    });

    await test.step('the console shows the request at once, with the same code, and the owner approves', async () => {
      // Live: the Devices page was open before the request; no reload, no waiting for a poll.
      // By the name the family knows her by, not her username.
      const request = owner.getByRole('listitem').filter({ hasText: "wants to open Grandma Rose's account" });
      await expect(request).toBeVisible({ timeout: 5_000 });
      await expect(request.getByLabel(`Pairing code ${code.split('').join(' ')}`)).toHaveText(code);
      await expect(request.getByText('Approve only if the phone shows the same code.')).toBeVisible();
      await request.getByRole('button', { name: /^Approve / }).click();
      await expect(owner.getByText('No device is waiting.')).toBeVisible();
    });

    await test.step('the phone goes on by itself, to Photos (where a phone opens), and she goes to her files', async () => {
      await expect(tablet.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible({ timeout: 20_000 });
      await mainNav(tablet).getByRole('link', { name: 'My files' }).click();
      await expect(tablet.getByRole('heading', { name: 'My files' })).toBeVisible();
    });

    await test.step('she uploads a photo, and the storage page shows the family files grow', async () => {
      await openConsole(owner, 'Storage');
      const familyFiles = owner.getByTestId('family-files');
      await expect(familyFiles).toHaveText('0 bytes');
      const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 200, g: 120, b: 60 } } })
        .jpeg({ quality: 95 })
        .toBuffer();
      const chooser = tablet.waitForEvent('filechooser');
      await tablet.getByRole('button', { name: 'Upload' }).click();
      await (await chooser).setFiles({ name: 'garden.jpg', mimeType: 'image/jpeg', buffer: photo });
      await expect(tablet.getByRole('region', { name: 'Uploads' }).getByText('1 photo uploaded')).toBeVisible({ timeout: 30_000 });
      await expect(tablet.getByRole('list', { name: 'Files and folders' }).getByText('garden.jpg')).toBeVisible();
      // The server tells every open console that usage moved (library.changed): no reload here either.
      const expected = photo.length < 10 * 1024 ? `${(photo.length / 1024).toFixed(1)} KB` : `${Math.round(photo.length / 1024)} KB`;
      await expect(familyFiles).toHaveText(expected, { timeout: 10_000 });
    });

    await test.step('another window of the desktop app opens signed in as the owner: no password, no approval, though approval is on', async () => {
      const fresh = await browser.newContext({ baseURL: hearth.url, viewport: { width: 1280, height: 800 } });
      await asDesktopWindow(fresh, hearth);
      const again = await fresh.newPage();
      await again.goto('/console/devices');
      await expect(again.getByRole('heading', { level: 1, name: 'Devices' })).toBeVisible();
      await expect(again.getByLabel('Password')).toHaveCount(0);
      await fresh.close();
    });

    await test.step('a browser elsewhere has no such door: it gets the sign-in page', async () => {
      const elsewhere = await browser.newContext({ baseURL: lan, viewport: { width: 1280, height: 800 } });
      const page = await elsewhere.newPage();
      await page.goto('/console/devices');
      await expect(page.getByRole('heading', { name: 'Sign in to The Millers' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Open as the owner of this PC' })).toHaveCount(0);
      await elsewhere.close();
    });

    await Promise.all([pc.close(), first.close(), second.close()]);
  });
});
