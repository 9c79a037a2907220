import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, devices, type BrowserContext, type TestInfo } from '@playwright/test';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';
import { expectSharedListed, saveSharedInto, shareToHearth } from './support/app-install.ts';
import { mediaFixture } from './support/media.ts';

/*
 * Issue 24: over plain HTTP a phone's browser gives Hearth no secure context, so it cannot be an
 * app. A phone opens the guided page from the Connect page's QR code, installs Hearth's
 * authority, the page checks the phone trusts it, and from then on the phone opens Hearth over
 * HTTPS at `hearth.local`: a secure context with its service worker, installable.
 *
 * The phone here is Chromium with its own NSS database (its HOME), in which the test installs
 * the server's authority as Android's Settings would: nothing is ignored, the certificate is
 * verified for real.
 */

const pixel = { ...devices['Pixel 7']!, defaultBrowserType: undefined };
const iphoneUserAgent =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/**
 * The server's authority as a phone gets it, once its first certificate is ready: downloaded
 * from the guided page's link (which tells the server phones may now hold it, so it is kept).
 */
async function authorityPem(hearth: { url: string }): Promise<string> {
  await expect
    .poll(async () => ((await (await fetch(`${hearth.url}/api/v1/server/https`)).json()) as { available: boolean }).available, {
      timeout: 30_000,
    })
    .toBe(true);
  const download = await fetch(`${hearth.url}/api/v1/server/https/authority.crt`);
  expect(download.status).toBe(200);
  return new crypto.X509Certificate(Buffer.from(await download.arrayBuffer())).toString();
}

/**
 * A phone: Chromium with a profile on disk (Chromium's installability check refuses the
 * incognito-like contexts a test browser usually makes) whose user certificate store (NSS, as
 * on a Linux desktop) holds `caPem`, or nothing.
 */
async function phone(
  testInfo: TestInfo,
  caPem: string | null,
  userAgent = pixel.userAgent,
): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const home = await fs.mkdtemp(path.join(os.tmpdir(), 'hearth-phone-'));
  const nssdb = path.join(home, '.pki', 'nssdb');
  await fs.mkdir(nssdb, { recursive: true });
  execFileSync('certutil', ['-N', '-d', `sql:${nssdb}`, '--empty-password']);
  if (caPem) {
    const caFile = path.join(home, 'hearth-ca.pem');
    await fs.writeFile(caFile, caPem);
    execFileSync('certutil', ['-A', '-d', `sql:${nssdb}`, '-n', 'Hearth test authority', '-t', 'C,,', '-i', caFile]);
  }
  // The project's Chromium and its flags (hearth.local mapped to 127.0.0.1), with this phone's HOME.
  const { launchOptions } = testInfo.project.use;
  const context = await chromium.launchPersistentContext(path.join(home, 'profile'), {
    ...launchOptions,
    env: { ...process.env, HOME: home },
    viewport: pixel.viewport,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    userAgent,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await fs.rm(home, { recursive: true, force: true });
    },
  };
}

// The phones open the server at hearth.local (mapped to 127.0.0.1), a name the owner gave it.
test.use({ serverConfig: { hostNames: ['hearth.local'] } });

test.describe('HTTPS at home: the guided page makes Hearth an app (issue 24)', () => {
  test('a phone that installs the authority passes the check, is sent to HTTPS, and there Hearth is a secure, installable app', async ({
    hearth,
    owner,
  }, testInfo) => {
    const device = await phone(testInfo, await authorityPem(hearth));
    try {
      const page = device.context.pages()[0] ?? (await device.context.newPage());
      const host = `hearth.local:${hearth.port}`;
      await page.goto(`http://${host}/app-setup`);
      await expect(page.getByRole('heading', { name: 'Make Hearth an app on this phone' })).toBeVisible();
      const steps = page.getByRole('list', { name: 'Steps' });
      await expect(steps).toContainText('Encryption & credentials');
      await expect(steps).toContainText('Install a certificate → CA certificate');
      await expect(page.getByRole('link', { name: 'Download the certificate' })).toHaveAttribute(
        'href',
        '/api/v1/server/https/authority.crt',
      );
      await captureScreen(page, testInfo, 'app-setup-android');

      await page.getByRole('button', { name: 'Check this phone' }).click();
      await expect(page.getByRole('heading', { name: 'Done: this phone trusts Hearth' })).toBeVisible();
      await captureScreen(page, testInfo, 'app-setup-done');

      // From now on this phone opening Hearth's plain address lands on HTTPS.
      await page.goto(`http://${host}/files`);
      await expect(page).toHaveURL(`https://${host}/files`);
      expect(await page.evaluate(() => window.isSecureContext)).toBe(true);
      // Live updates ride a WebSocket over TLS on the same port (the page's CSP lets it connect).
      const liveSocket = page.waitForEvent('websocket', (socket) => socket.url().startsWith(`wss://${host}/`));
      await page.getByLabel('Username').fill(owner.username);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
      const socket = await liveSocket;
      const frame = socket.waitForEvent('framereceived');
      await hearth.api.ok('POST', '/nodes/folder', owner.access, { name: 'Arrived live over TLS' });
      await frame;
      await expect(
        page.getByRole('link', { name: 'Arrived live over TLS' }).or(page.getByText('Arrived live over TLS')).first(),
      ).toBeVisible();

      // The app's service worker runs there, and Chromium's own check finds it installable.
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      await page.reload();
      await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
      const cdp = await device.context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
      expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
      // The clipboard and Web Locks exist only in a secure context.
      expect(
        await page.evaluate(() => typeof navigator.clipboard?.writeText === 'function' && typeof navigator.locks?.request === 'function'),
      ).toBe(true);

      // Share → Hearth from the phone's gallery: the posted photo is received and saved over HTTPS.
      const photo = { name: 'Paris.jpg', mimeType: 'image/jpeg', buffer: await mediaFixture('paris-canon.jpg') };
      // The test's stand-in for the Share sheet is a form it adds to a page without fixed bars over it.
      await page.goto(`https://${host}/app-setup`);
      await shareToHearth(page, `https://${host}`, [photo]);
      await expectSharedListed(page, ['Paris.jpg'], ['Paris.jpg']);
      await saveSharedInto(page, null);
    } finally {
      await device.close();
    }
  });

  test('the owner’s Connect card shows the fingerprint a phone shows when installing the authority, the same as the guided page', async ({
    page,
    hearth,
    owner,
  }, testInfo) => {
    const fingerprint = new crypto.X509Certificate(await authorityPem(hearth)).fingerprint256;
    await signIn(page, owner);
    await openConsole(page, 'Connect phones');
    const card = page.getByRole('region', { name: 'Make Hearth an app on each phone' });
    await expect(card.getByLabel('Fingerprint of Hearth home network')).toHaveText(fingerprint);
    await card.getByLabel('Fingerprint of Hearth home network').scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'console-connect-fingerprint');
    await page.goto(`http://hearth.local:${hearth.port}/app-setup`);
    await page.getByText('For the careful: the certificate’s fingerprint').click();
    await expect(page.getByLabel('Fingerprint of Hearth home network')).toHaveText(fingerprint);
  });

  test('a phone that has not installed it yet is told "not yet", and plain HTTP keeps working for it', async ({ hearth }, testInfo) => {
    await authorityPem(hearth);
    const device = await phone(testInfo, null);
    try {
      const page = device.context.pages()[0] ?? (await device.context.newPage());
      const host = `hearth.local:${hearth.port}`;
      await page.goto(`http://${host}/app-setup`);
      await page.getByRole('button', { name: 'Check this phone' }).click();
      await expect(page.getByText('Not yet: this phone does not trust Hearth’s certificate.')).toBeVisible();
      await captureScreen(page, testInfo, 'app-setup-not-yet');
      await page.goto(`http://${host}/files`);
      await expect(page).toHaveURL(`http://${host}/files`);
      await expect(page.getByLabel('Username')).toBeVisible();
    } finally {
      await device.close();
    }
  });

  test('an iPhone gets the profile and the taps of its iOS version, and is asked to use Safari from another browser', async ({
    hearth,
  }, testInfo) => {
    await authorityPem(hearth);
    const iphone = await phone(testInfo, null, iphoneUserAgent);
    try {
      const page = iphone.context.pages()[0] ?? (await iphone.context.newPage());
      await page.goto(`http://hearth.local:${hearth.port}/app-setup`);
      const steps = page.getByRole('list', { name: 'Steps' });
      await expect(steps).toContainText('General → VPN & Device Management');
      await expect(steps).toContainText('Certificate Trust Settings');
      const profile = page.getByRole('link', { name: 'Download the profile' });
      await expect(profile).toHaveAttribute('href', '/api/v1/server/https/profile.mobileconfig');
      await captureScreen(page, testInfo, 'app-setup-iphone');
      const download = page.waitForEvent('download');
      await profile.click();
      expect((await download).suggestedFilename()).toMatch(/Hearth\.mobileconfig$/);
    } finally {
      await iphone.close();
    }
    const chromeOnIphone = await phone(testInfo, null, iphoneUserAgent.replace('Version/17.4', 'CriOS/131.0.6778.73'));
    try {
      const page = chromeOnIphone.context.pages()[0] ?? (await chromeOnIphone.context.newPage());
      await page.goto(`http://hearth.local:${hearth.port}/app-setup`);
      await expect(page.getByText('Open this page in Safari')).toBeVisible();
    } finally {
      await chromeOnIphone.close();
    }
  });
});
