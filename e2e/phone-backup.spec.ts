import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { chooseForBackup } from './support/photo-backup.ts';
import type { Account, Hearth } from './support/hearth.ts';
import sharp from 'sharp';
import { captureScreen } from './support/screens.ts';
import { scratchFolder } from './support/scratch.ts';

interface NodeItem {
  id: string;
  name: string;
  type: string;
}

/**
 * A camera roll on disk: real JPEGs of noise (each its own content; by default large enough
 * that the sending can be watched under a slowed network), with a fixed last-modified time as a
 * phone's files have (the hash cache knows a file again by name, size and last modified).
 */
async function cameraRoll(names: string[], [width, height] = [240, 180]): Promise<string[]> {
  const dir = await scratchFolder('roll');
  const paths: string[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const noise = crypto.randomBytes(width * height * 3);
    await fs.writeFile(
      file,
      await sharp(noise, { raw: { width, height, channels: 3 } })
        .jpeg({ quality: 80 })
        .toBuffer(),
    );
    await fs.utimes(file, new Date('2024-06-01T10:00:00Z'), new Date('2024-06-01T10:00:00Z'));
    paths.push(file);
  }
  return paths;
}

async function childrenOf(hearth: Hearth, who: Account, parent: string): Promise<NodeItem[]> {
  return (await hearth.api.ok('GET', `/nodes?parent_id=${parent}&sort=name&limit=1000`, who.access)).items as NodeItem[];
}

/** The files in Phone backup/<device>/, with the device folder's name. */
async function backedUp(hearth: Hearth, who: Account): Promise<{ device: string; files: string[] }> {
  const top = (await childrenOf(hearth, who, 'root')).find((n) => n.type === 'folder' && n.name === 'Phone backup');
  if (!top) return { device: '', files: [] };
  const devices = (await childrenOf(hearth, who, top.id)).filter((n) => n.type === 'folder');
  expect(devices, 'one folder per device').toHaveLength(1);
  const files = (await childrenOf(hearth, who, devices[0]!.id)).filter((n) => n.type === 'file');
  return { device: devices[0]!.name, files: files.map((f) => f.name) };
}

/** Slows this page's uploads, so the sending state stays on screen long enough to look at. */
async function throttleUploads(page: Page, bytesPerSecond: number): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
  return cdp;
}

/** The folder at this path from My files down, if there is one. */
async function folderAt(hearth: Hearth, who: Account, names: string[]): Promise<NodeItem | undefined> {
  let parent = 'root';
  let found: NodeItem | undefined;
  for (const name of names) {
    found = (await childrenOf(hearth, who, parent)).find((n) => n.type === 'folder' && n.name === name);
    if (!found) return undefined;
    parent = found.id;
  }
  return found;
}

async function fileNamesIn(hearth: Hearth, who: Account, folderId: string): Promise<string[]> {
  return (await childrenOf(hearth, who, folderId)).filter((n) => n.type === 'file').map((n) => n.name);
}

/** Counts the uploads this page creates (tus POST /uploads): what a backup really sent, whatever the screen says. */
function countUploads(page: Page): string[] {
  const created: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/v1\/uploads$/.test(new URL(request.url()).pathname)) created.push(request.url());
  });
  return created;
}

const status = (page: Page) => page.getByRole('region', { name: 'Backing up this phone' });
/**
 * A run's summary before its photos are sent ("65 already here, 5 to send"), or once they are
 * ("65 already here, 5 sent", "All 5 sent"): a small run can be sent before the test looks.
 */
const sentOrToSend = (summary: string) => {
  const quoted = summary.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const first = /^(\d[\d,]*) to send$/.exec(summary);
  if (first) return new RegExp(`^(${quoted}|All ${first[1]} sent)$`);
  return new RegExp(`^(${quoted}|${quoted.replace(/ to send$/, ' sent')})$`);
};

test.describe('back up this phone @lan', () => {
  test('the camera roll chosen again sends only the new photos into Phone backup/<device>/, and a photo deleted in Hearth is skipped unless asked for', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    test.setTimeout(150_000);
    const roll = await cameraRoll(Array.from({ length: 8 }, (_, i) => `IMG_${String(1001 + i)}.jpg`));
    const created = countUploads(page);

    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();
    await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
    if (testInfo.project.name.startsWith('phone')) {
      // A phone that never backed up here is offered it before the timeline.
      await expect(page.getByRole('region', { name: 'Keep this phone’s photos safe' })).toBeVisible();
      await captureScreen(page, testInfo, 'phone-backup-card');
    }

    // First run: six photos, none here yet; all six are sent (slowly, so the sending state shows).
    const cdp = await throttleUploads(page, 20 * 1024);
    await chooseForBackup(page, roll.slice(0, 6));
    await expect(status(page).getByRole('status')).toHaveText('6 to send');
    await expect(page.getByRole('region', { name: 'Uploads' })).toBeVisible();
    await expect(status(page)).toContainText(/Into Phone backup\/.+\. Keep Hearth open until they are sent\./);
    await expect(status(page)).toContainText(/[0-5] of 6 sent\./);
    await captureScreen(page, testInfo, 'phone-backup-sending');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await expect.poll(async () => (await backedUp(hearth, member)).files.length, { timeout: 60_000 }).toBe(6);
    const first = await backedUp(hearth, member);
    expect(first.files).toEqual(roll.slice(0, 6).map((p) => path.basename(p)));
    // The folder is named after the person's device ("Kid’s phone"), not the browser ("Chrome on Pixel 7").
    expect(first.device).toMatch(/^\S+’s (phone|computer)$/);
    // Sent: the summary no longer says "6 to send".
    await expect(status(page).getByRole('status')).toHaveText('All 6 sent');
    await expect(status(page)).toContainText(`Into Phone backup/${first.device}.`);
    await expect(status(page)).not.toContainText('Keep Hearth open');
    // Nothing loose among the documents.
    expect((await childrenOf(hearth, member, 'root')).map((n) => n.name)).toEqual(['Phone backup']);
    expect(created).toHaveLength(6);

    // Second run: the same six and two new ones: exactly the two are sent.
    await status(page).getByRole('button', { name: 'Close' }).click();
    await chooseForBackup(page, roll);
    // Sending starts by itself: on a quick machine "to send" may already read "sent" (checked below).
    await expect(status(page).getByRole('status')).toHaveText(/^6 already here, 2 (to send|sent)$/);
    await expect.poll(async () => (await backedUp(hearth, member)).files.length, { timeout: 60_000 }).toBe(8);
    expect((await backedUp(hearth, member)).files).toEqual(roll.map((p) => path.basename(p)));
    expect(created).toHaveLength(8);
    await expect(status(page).getByRole('status')).toHaveText('6 already here, 2 sent');
    await captureScreen(page, testInfo, 'phone-backup-summary');

    // One backed-up photo is moved to the trash in Hearth: the next run skips it, and says so.
    const device = (await childrenOf(hearth, member, (await childrenOf(hearth, member, 'root'))[0]!.id))[0]!;
    const deleted = (await childrenOf(hearth, member, device.id)).find((n) => n.name === 'IMG_1003.jpg')!;
    await hearth.api.ok('DELETE', `/nodes/${deleted.id}`, member.access);
    await status(page).getByRole('button', { name: 'Close' }).click();
    await chooseForBackup(page, roll);
    await expect(status(page).getByRole('status')).toHaveText('7 already here, nothing new to send');
    await expect(status(page)).toContainText('1 photo you deleted before is skipped.');
    const again = status(page).getByRole('button', { name: 'Send deleted ones too' });
    await expect(again).toBeVisible();
    await captureScreen(page, testInfo, 'phone-backup-deleted');
    expect(created).toHaveLength(8);
    expect((await backedUp(hearth, member)).files).toHaveLength(7);

    // Asked for: it is sent again, this once.
    await again.click();
    await expect(status(page)).toContainText('1 photo you deleted before is sent too.');
    await expect(again).toHaveCount(0);
    await expect.poll(async () => (await backedUp(hearth, member)).files.length, { timeout: 60_000 }).toBe(8);
    await expect(status(page)).toContainText('Sent.');
    expect(created).toHaveLength(9);
  });

  test('60 photos, then the same 60 and 5 new sends exactly the 5; the device folder renamed in Files keeps receiving the backup, the folder chosen in Account receives the next, and one deleted is made again by name', async ({
    page,
    member,
    hearth,
  }, testInfo) => {
    test.setTimeout(240_000);
    const roll = await cameraRoll(
      Array.from({ length: 70 }, (_, i) => `IMG_${String(2001 + i)}.jpg`),
      [48, 36],
    );
    const created = countUploads(page);
    const workerPolicies: string[] = [];
    page.on('response', (response) => {
      if (/\/assets\/hash\.worker-[^/]+\.js$/.test(new URL(response.url()).pathname))
        workerPolicies.push(response.headers()['content-security-policy'] ?? '');
    });
    const photos = async () => {
      await mainNav(page).getByRole('link', { name: 'Photos' }).click();
      await expect(page.getByRole('heading', { name: 'Photos', level: 1 })).toBeVisible();
    };
    const backUp = async (files: string[], summary: string) => {
      await photos();
      if ((await status(page).count()) > 0) await status(page).getByRole('button', { name: 'Close' }).click();
      await chooseForBackup(page, files);
      await expect(status(page).getByRole('status')).toHaveText(sentOrToSend(summary));
    };

    const family = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Family' });
    const pixel = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Pixel photos', parent_id: family.id });
    await signIn(page, member);

    // Before any backup, Account says where this device's photos will go: Phone backup/<device>.
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    const settings = page.getByRole('region', { name: /^Back up (this phone|photos from this computer)$/ });
    await expect(settings).toContainText(/Photos backed up from this device go into Phone backup\/\S/);
    await settings.getByRole('button', { name: 'Send them again next time' }).scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'phone-backup-settings');
    await settings.getByRole('button', { name: 'Choose another folder' }).click();
    const picker = page.getByRole('dialog', { name: 'Where this device’s photos go' });
    // Never loose among the documents: My files itself cannot be chosen.
    await expect(picker.getByRole('button', { name: 'Open a folder to choose it' })).toBeDisabled();
    await picker.getByRole('button', { name: 'Open Family' }).click();
    await captureScreen(page, testInfo, 'phone-backup-settings-picker');
    await picker.getByRole('button', { name: 'Cancel' }).click();

    await backUp(roll.slice(0, 60), '60 to send');
    await expect.poll(async () => (await backedUp(hearth, member)).files.length, { timeout: 90_000 }).toBe(60);
    const { device } = await backedUp(hearth, member);
    const deviceFolder = (await folderAt(hearth, member, ['Phone backup', device]))!;
    await expect(status(page).getByRole('status')).toHaveText('All 60 sent');
    expect(created).toHaveLength(60);
    // The hashing worker ran under its own policy (server/src/http/static.ts), and hashed under it.
    expect(workerPolicies.length).toBeGreaterThan(0);
    expect(workerPolicies[0]).toBe("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; base-uri 'none'; frame-ancestors 'none'");

    // The family renames the device's folder in Files: the next backup still goes into it.
    await mainNav(page).getByRole('link', { name: 'My files' }).click();
    await page
      .getByRole('list', { name: 'Files and folders' })
      .getByRole('link', { name: /Phone backup/ })
      .click();
    await expect(page.getByRole('heading', { name: 'Phone backup' })).toBeVisible();
    await page.getByRole('button', { name: `More for ${device}` }).click();
    await page
      .getByRole('list', { name: `Actions for ${device}` })
      .getByRole('button', { name: 'Rename', exact: true })
      .click();
    await page.getByLabel('New name').fill('Dad’s Pixel');
    await page.getByRole('button', { name: 'Rename' }).click();
    await expect(page.getByRole('button', { name: 'More for Dad’s Pixel' })).toBeVisible();

    await backUp(roll.slice(0, 65), '60 already here, 5 to send');
    await expect(status(page)).toContainText('Into Phone backup/Dad’s Pixel.');
    await expect.poll(() => fileNamesIn(hearth, member, deviceFolder.id), { timeout: 60_000 }).toHaveLength(65);
    expect(created, 'exactly the 5 new ones are sent').toHaveLength(65);
    expect(await folderAt(hearth, member, ['Phone backup', device]), 'no second folder by the old name').toBeUndefined();

    // Account says where this device's photos go, and another folder is chosen there.
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await expect(settings).toContainText('Photos backed up from this device go into Phone backup/Dad’s Pixel');
    await settings.getByRole('button', { name: 'Choose another folder' }).click();
    await picker.getByRole('button', { name: 'Open Family' }).click();
    await picker.getByRole('button', { name: 'Open Pixel photos' }).click();
    await picker.getByRole('button', { name: 'Back up into Pixel photos' }).click();
    await expect(picker).toHaveCount(0);
    await expect(settings).toContainText('go into Family/Pixel photos');

    await backUp(roll.slice(0, 68), '65 already here, 3 to send');
    await expect(status(page)).toContainText('Into Family/Pixel photos.');
    await expect.poll(() => fileNamesIn(hearth, member, pixel.id), { timeout: 60_000 }).toHaveLength(3);
    expect(created).toHaveLength(68);
    expect(await fileNamesIn(hearth, member, deviceFolder.id)).toHaveLength(65);

    // That folder is deleted: Account says so, and the next backup makes Phone backup/<device> again.
    await hearth.api.ok('DELETE', `/nodes/${pixel.id}`, member.access);
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await expect(settings).toContainText(`go into Phone backup/${device}`);
    await expect(settings).toContainText('The folder chosen before was deleted');
    await backUp(roll, '65 already here, 2 to send');
    await expect(status(page)).toContainText('3 photos you deleted before are skipped.');
    await expect.poll(async () => (await folderAt(hearth, member, ['Phone backup', device]))?.id, { timeout: 30_000 }).toBeTruthy();
    const remade = (await folderAt(hearth, member, ['Phone backup', device]))!;
    await expect.poll(() => fileNamesIn(hearth, member, remade.id), { timeout: 60_000 }).toHaveLength(2);
    expect(created).toHaveLength(70);

    // "Send them again next time": the photos deleted in Hearth go with the next backup.
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await settings.getByRole('button', { name: 'Send them again next time' }).click();
    await expect(settings).toContainText('The next backup sends them again.');
    await backUp(roll, '67 already here, 3 to send');
    await expect.poll(() => fileNamesIn(hearth, member, remade.id), { timeout: 60_000 }).toHaveLength(5);
    expect(created).toHaveLength(73);
  });
});

test.describe('back up an old phone @lan', () => {
  // The app's service worker would answer the worker script from its cache, past page.route.
  test.use({ serviceWorkers: 'block' });

  test('where the browser refuses WebAssembly under the worker’s policy (Safari before 16), photos are hashed in JavaScript and backed up all the same', async ({
    page,
    member,
    hearth,
  }) => {
    test.setTimeout(120_000);
    const roll = await cameraRoll(['IMG_9001.jpg', 'IMG_9002.jpg', 'IMG_9003.jpg'], [64, 48]);
    // The worker's answer as iOS 15 Safari reads it: it does not know 'wasm-unsafe-eval', so no WebAssembly may compile.
    await page.route(/\/assets\/hash\.worker-[^/]+\.js$/, async (route) => {
      // Fetched from the test's side, where the LAN name does not resolve: the same server at its loopback address.
      const url = new URL(route.request().url());
      url.hostname = '127.0.0.1';
      const response = await route.fetch({ url: url.href });
      await route.fulfill({
        response,
        headers: { ...response.headers(), 'content-security-policy': "default-src 'none'; script-src 'self'; base-uri 'none'" },
      });
    });
    const workerPolicies: string[] = [];
    page.on('response', (response) => {
      if (/\/assets\/hash\.worker-[^/]+\.js$/.test(new URL(response.url()).pathname))
        workerPolicies.push(response.headers()['content-security-policy'] ?? '');
    });
    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();
    await chooseForBackup(page, roll);
    await expect(status(page).getByRole('status')).toHaveText(sentOrToSend('3 to send'));
    await expect.poll(async () => (await backedUp(hearth, member)).files.length, { timeout: 60_000 }).toBe(3);
    await expect(status(page).getByRole('status')).toHaveText('All 3 sent');
    // The worker ran under a policy where Chromium refuses to compile WebAssembly (before the
    // JavaScript hasher, this backup said every photo could not be read): the JavaScript one did the work.
    expect(workerPolicies).not.toHaveLength(0);
    for (const policy of workerPolicies) expect(policy).not.toContain('wasm-unsafe-eval');
  });
});
