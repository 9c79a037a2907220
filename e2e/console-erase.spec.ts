import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  createBlankLoopDevice,
  createLoopDrive,
  loopUnsupportedReason,
  setLabel,
  unmountAllUnder,
  type BlankLoopDevice,
  type LoopDrive,
} from '../server/test/helpers/loop.ts';
import { pathWithout } from '../server/test/helpers/path-without.ts';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { startHearth, type Account, type Hearth } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Erasing a drive through the dialog, for real, on a loop-device image this spec makes itself
 * (never a real disk): the dialog shows what is on it, stays asleep for a wrong phrase, and
 * after the exact one shows what was there before and what is there now.
 *
 * SAFETY: the exact phrase is typed only after losetup confirms the device is backed by this
 * spec's own image file.
 */
function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
}

function blkid(device: string): Record<string, string> {
  try {
    return Object.fromEntries(
      run('blkid', ['-p', '-o', 'export', device])
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
    );
  } catch {
    return {};
  }
}

// exFAT is chosen where this machine can both make it and open it (the kernel's own driver
// came with Linux 5.7; a container may lack it): the spec goes on to keep files on the drive.
const hasExfat = (() => {
  try {
    run('sh', ['-c', 'command -v mkfs.exfat']);
    return /\bexfat\b/.test(fs.readFileSync('/proc/filesystems', 'utf8')) || tryLoadExfat();
  } catch {
    return false;
  }
})();

function tryLoadExfat(): boolean {
  try {
    run('modprobe', ['exfat']);
    return /\bexfat\b/.test(fs.readFileSync('/proc/filesystems', 'utf8'));
  } catch {
    return false;
  }
}

test.describe('erasing a drive', () => {
  let work = '';
  let hearth: Hearth | undefined;
  let owner: Account;
  let drive: LoopDrive | undefined;
  let blank: BlankLoopDevice | undefined;

  test.beforeAll(async () => {
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-erase-')));
    const missing = loopUnsupportedReason(work);
    if (missing) {
      console.log(`e2e erase: skipped, ${missing}`);
      if (process.env.CI === 'true') throw new Error(`CI must run the erase e2e: ${missing}`);
      test.skip(true, missing);
      return;
    }
    hearth = await startHearth({ includeLoopDevices: true, mountsRoots: [path.join(work, 'media')] });
    owner = await hearth.api.setupOwner();
  });

  test.afterAll(async () => {
    await hearth?.stop();
    // The server mounted the drive as a library under the mounts root: let go of it first.
    if (work) unmountAllUnder(work);
    drive?.destroy();
    blank?.destroy();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the dialog shows what is on the drive, wakes only for the exact phrase, erases it, and shows before and after', async ({
    browser,
  }, testInfo) => {
    test.setTimeout(120_000);
    // Labels of this worker's own: a server listing loop devices sees the other workers' too.
    const tag = String(process.pid % 10_000);
    const OLD = `OLD${tag}`;
    const NEW = `FAM${tag}`;
    // This spec's own server (loop devices listed), at this project's phone or desktop size.
    const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
    const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch, userAgent, baseURL: hearth!.url });
    const page = await context.newPage();
    drive = createLoopDrive(work, 'family-usb', path.join(work, 'usb'), 48);
    const root = drive.mountPoint;
    fs.mkdirSync(path.join(root, 'Photos 2019'));
    fs.mkdirSync(path.join(root, 'Taxes'));
    for (const name of ['beach.jpg', 'cake.jpg', 'party.mp4']) fs.writeFileSync(path.join(root, 'Photos 2019', name), 'x');
    fs.writeFileSync(path.join(root, 'Taxes', '2019.pdf'), 'x');
    fs.writeFileSync(path.join(root, 'notes.txt'), 'x');
    setLabel(drive.device, OLD);

    blank = createBlankLoopDevice(work, 'blank', 8);

    await signIn(page, owner);
    await openConsole(page, 'Storage');

    // A drive Hearth cannot read is never called empty. Its card names it in words ("Disk
    // image, 8.4 MB", the same for every worker's blank image); its device, in the details, is its own.
    const blankCard = page
      .getByRole('list', { name: 'Drives' })
      .getByRole('listitem')
      .filter({ has: page.getByText(blank.device, { exact: true }) });
    await expect(blankCard.getByRole('heading')).toHaveText(/^Disk image, /);
    await expect(blankCard.getByText('It is not prepared for files yet: erase it to prepare it.')).toBeVisible();
    await blankCard.getByRole('button', { name: /^Erase / }).click();
    const unread = page.getByRole('dialog', { name: /^Erase Disk image/ });
    await expect(unread.getByText(/Hearth could not read this drive, so it cannot tell what is on it/)).toBeVisible();
    await expect(unread.getByText(/No files or folders/)).toHaveCount(0);
    await unread.getByRole('button', { name: 'Cancel' }).click();

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: OLD, exact: true }) });
    // What Linux calls it is a click away, under the words.
    await expect(card.getByText(/^Disk image, 50 MB/)).toBeVisible();
    await expect(card.getByText(drive.device, { exact: true })).toBeHidden();
    await card.getByText('Technical details').click();
    await expect(card.getByText(drive.device, { exact: true })).toBeVisible();
    await card.getByRole('button', { name: `Erase ${OLD}` }).click();

    const dialog = page.getByRole('dialog', { name: `Erase ${OLD}?` });
    await expect(dialog.getByText('Erasing deletes everything on this drive. It cannot be undone.')).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Folders at the top of the drive' })).toHaveText(/Photos 2019\s*Taxes/);
    await expect(dialog.getByRole('list', { name: 'Files at the top of the drive' })).toHaveText('notes.txt');
    await expect(dialog.getByText(/5 files, of which 3 photos and videos/)).toBeVisible();
    const button = dialog.getByRole('button', { name: 'Erase this drive' });
    await expect(button).toBeDisabled();
    await captureScreen(page, testInfo, 'console-erase');

    // A wrong phrase (another device, lower case, a missing space) leaves the button asleep.
    const phrase = dialog.getByLabel(/To erase it, type/);
    for (const wrong of ['FORMAT /dev/sda', `format ${drive.device}`, `FORMAT${drive.device}`, `FORMAT ${drive.device} `]) {
      await phrase.fill(wrong);
      await expect(dialog.getByText('Not the same yet.')).toBeVisible();
      await expect(button).toBeDisabled();
    }

    const backing = fs.realpathSync(run('losetup', ['-n', '-O', 'BACK-FILE', drive.device]).trim());
    expect(backing, 'the device is backed by this spec own image').toBe(fs.realpathSync(drive.image));
    const target = hasExfat
      ? { choice: 'Also for other computers (exFAT)', type: 'exfat' }
      : { choice: 'For Hearth on this PC (ext4)', type: 'ext4' };
    await dialog.getByLabel(target.choice).check();
    await dialog.getByLabel('New label (optional)').fill(NEW);
    await phrase.fill(`FORMAT ${drive.device}`);
    await expect(dialog.getByText('That matches.')).toBeVisible();
    await expect(button).toBeEnabled();
    await button.click();

    const done = page.getByRole('dialog', { name: `${OLD} was erased` });
    await expect(done).toBeVisible({ timeout: 60_000 });
    const before = done.getByRole('region', { name: 'Before' });
    const now = done.getByRole('region', { name: 'Now' });
    await expect(before.getByText('ext4', { exact: true })).toBeVisible();
    await expect(before.getByText(OLD, { exact: true })).toBeVisible();
    await expect(before.getByText(/, 5 files$/)).toBeVisible();
    await expect(now.getByText(target.type, { exact: true })).toBeVisible();
    await expect(now.getByText(NEW, { exact: true })).toBeVisible();
    await captureScreen(page, testInfo, 'console-erased');
    // "Before" stays what the owner saw before pressing the button, whatever the drive reads now.
    await expect(before.getByText(/, 5 files$/)).toBeVisible();

    expect(blkid(drive.device)).toMatchObject({ TYPE: target.type, LABEL: NEW });
    await done.getByRole('button', { name: 'Done' }).click();
    const driveCard = page
      .getByRole('list', { name: 'Drives' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: NEW, exact: true }) });
    await expect(driveCard).toBeVisible();

    // The fresh drive becomes a place for the family's files, then is ejected and removed.
    await driveCard.getByRole('button', { name: `Keep files on ${NEW}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Keep files here' }).click();
    const library = page
      .getByRole('list', { name: 'Storage places' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: NEW, exact: true }) });
    await expect(library.getByText('Connected')).toBeVisible({ timeout: 30_000 });
    await expect(driveCard.locator('dt:text-is("Used by Hearth") + dd')).toHaveText(NEW);
    await library.getByRole('button', { name: `Eject ${NEW}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Eject' }).click();
    await expect(library.getByText('Ejected: safe to unplug')).toBeVisible({ timeout: 30_000 });
    await library.getByRole('button', { name: `Remove ${NEW}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(library).toHaveCount(0);
    await context.close();
  });
});

test.describe('erasing a drive on a PC without mkfs.exfat', () => {
  let work = '';
  let hearth: Hearth | undefined;
  let owner: Account;
  let drive: LoopDrive | undefined;

  test.beforeAll(async () => {
    work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-noexfat-')));
    const missing = loopUnsupportedReason(work);
    if (missing) {
      console.log(`e2e erase without exFAT: skipped, ${missing}`);
      if (process.env.CI === 'true') throw new Error(`CI must run the erase e2e: ${missing}`);
      test.skip(true, missing);
      return;
    }
    // The server's PATH has every program of this machine but mkfs.exfat.
    const bin = pathWithout(path.join(work, 'bin'), ['mkfs.exfat']);
    hearth = await startHearth({ includeLoopDevices: true, mountsRoots: [path.join(work, 'media')] }, { PATH: bin });
    owner = await hearth.api.setupOwner();
  });

  test.afterAll(async () => {
    await hearth?.stop();
    if (work) unmountAllUnder(work);
    drive?.destroy();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  test('the dialog offers only ext4 and says what exFAT needs', async ({ browser }, testInfo) => {
    const label = `NOX${process.pid % 10_000}`;
    const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
    const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch, userAgent, baseURL: hearth!.url });
    const page = await context.newPage();
    drive = createLoopDrive(work, 'no-exfat-usb', path.join(work, 'usb'), 32);
    setLabel(drive.device, label);

    await signIn(page, owner);
    await openConsole(page, 'Storage');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: label, exact: true }) });
    await card.getByRole('button', { name: `Erase ${label}` }).click();
    const dialog = page.getByRole('dialog', { name: `Erase ${label}?` });
    const choices = dialog.getByRole('group', { name: 'Prepare it' });
    await expect(choices.getByRole('radio')).toHaveCount(1);
    await expect(choices.getByLabel('For Hearth on this PC (ext4)')).toBeChecked();
    await expect(
      choices.getByText(/Not offered: Also for other computers \(exFAT\)\. This computer cannot make exFAT drives: install exfatprogs/),
    ).toBeVisible();
    await captureScreen(page, testInfo, 'console-erase-no-exfat');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await context.close();
  });
});
