import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fillDisk, mountTmpfs, tmpfsUnsupportedReason, type SmallDisk } from '../server/test/helpers/small-disk.ts';
import { captureScreen } from './support/screens.ts';
import { expect, test } from './support/fixtures.ts';
import { startHearth, uniqueName, type Account, type Hearth } from './support/hearth.ts';

const MiB = 1024 * 1024;

/**
 * When Hearth's disk is full, the family reads it in plain words at the top of every page and
 * in the upload panel ("waiting", never "failed"), the owner sees it in the console with what to
 * do, and once space is freed the banner goes and the waiting upload finishes by itself, with
 * the right bytes.
 */
test.describe('a full disk', () => {
  let work: string;
  let disk: SmallDisk | undefined;
  let hearth: Hearth | undefined;
  let owner: Account;
  let filler: string;

  test.beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-full-'));
    const missing = tmpfsUnsupportedReason(work);
    if (missing) {
      console.log(`e2e full disk: skipped, ${missing}`);
      if (process.env.CI === 'true') throw new Error(`CI must run the full-disk e2e: ${missing}`);
      test.skip(true, missing);
      return;
    }
    disk = mountTmpfs(path.join(work, 'disk'), 48);
    filler = path.join(disk.mountPoint, 'someone-elses-big-file');
    hearth = await startHearth({ dataDir: path.join(disk.mountPoint, 'data'), storageReserveBytes: MiB, storageRecheckMs: 500 });
    owner = await hearth.api.setupOwner();
  });

  test.afterAll(async () => {
    await hearth?.stop();
    disk?.destroy();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the family is told in plain words, the upload waits instead of failing, and goes on by itself once space is freed', async ({
    page,
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    const member = await hearth!.api.member(owner, uniqueName('kid'));
    // My files' address: the app's own opens Photos on a phone.
    await page.goto(`${hearth!.url}/files`);
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();

    // A slow link, so the disk can fill up under the upload: someone else's file takes the
    // rest of it once the first bytes have arrived.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 1 * MiB });
    const video = crypto.randomBytes(6 * MiB);
    const chooser = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Upload' }).click();
    await (await chooser).setFiles([{ name: 'Birthday party.mp4', mimeType: 'video/mp4', buffer: video }]);
    const panel = page.getByRole('region', { name: 'Uploads' });
    await panel.getByRole('button', { name: /^Uploading 1 video/, expanded: false }).click();
    await expect(panel.getByRole('listitem').getByText(/^[1-9]\d?%$/)).toBeVisible({ timeout: 30_000 });
    fillDisk(filler);
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

    const banner = page.getByRole('status').filter({ hasText: 'Hearth is full.' });
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText('Everything already saved is safe');
    await expect(panel.getByRole('button', { name: /^Waiting for space on Hearth/ })).toBeVisible();
    await expect(panel.getByText('Waiting: Hearth is full. It goes on by itself once space is freed.')).toBeVisible();
    await expect(panel.getByText(/not uploaded|failed/i)).toHaveCount(0);
    await captureScreen(page, testInfo, 'storage-full');

    // The owner sees the same, with what to do, and the console's status says it.
    const ownerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
    const ownerPage = await ownerContext.newPage();
    await ownerPage.goto(`${hearth!.url}/files`);
    await ownerPage.getByLabel('Username').fill(owner.username);
    await ownerPage.getByLabel('Password').fill(owner.password);
    await ownerPage.getByRole('button', { name: 'Sign in' }).click();
    await expect(ownerPage.getByRole('heading', { name: 'My files' })).toBeVisible();
    await ownerPage.goto(`${hearth!.url}/console/status`);
    await expect(ownerPage.getByRole('heading', { name: 'Status' })).toBeVisible();
    await expect(ownerPage.getByRole('status').filter({ hasText: 'Hearth is full.' })).toContainText('empty the trash');
    await expect(ownerPage.getByText('Disk full: waiting for space')).toBeVisible();
    await captureScreen(ownerPage, testInfo, 'console-storage-full');
    await ownerPage.getByRole('status').getByRole('link', { name: 'Storage' }).click();
    await expect(ownerPage.getByRole('heading', { name: 'Where files are kept' })).toBeVisible();
    await expect(ownerPage.getByRole('status').filter({ hasText: 'Hearth is full.' })).toBeVisible();
    await captureScreen(ownerPage, testInfo, 'console-storage-page-full');
    await ownerContext.close();

    fs.rmSync(filler);
    await expect(banner).toBeHidden({ timeout: 30_000 });
    await expect(panel.getByText('1 video uploaded')).toBeVisible({ timeout: 60_000 });
    const listed = await hearth!.api.ok('GET', '/nodes?parent_id=root', member.access);
    const node = listed.items.find((n: { name: string }) => n.name === 'Birthday party.mp4');
    expect(node).toBeTruthy();
    const response = await fetch(`${hearth!.api.base}/nodes/${node.id}/download`, {
      headers: { authorization: `Bearer ${member.access}` },
    });
    expect(Buffer.from(await response.arrayBuffer()).equals(video)).toBe(true);
  });
});
