import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner backs the family's files up to a folder from the console, as the README says: adds
 * the folder (a wrong one is refused in words), backs up, sees the snapshot, and checks it.
 */
test('the owner adds a backup folder, backs up, sees the snapshot and a successful check', async ({ page, hearth, owner }, testInfo) => {
  test.setTimeout(120_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-backup-')));
  // The worker's server is shared: start from no destination, whatever an earlier spec left.
  for (const left of (await hearth.api.ok('GET', '/admin/backup', owner.access)).destinations) {
    await hearth.api.ok('DELETE', `/admin/backup/destinations/${left.id}`, owner.access);
  }
  try {
    await uploadAs(hearth.api, owner, 'beach.jpg', Buffer.alloc(200_000, 7));
    await uploadAs(hearth.api, owner, 'letter.txt', Buffer.from('Dear family'));
    await signIn(page, owner);
    await openConsole(page, 'Backups');
    await expect(page.getByText('Nothing is backed up yet.')).toBeVisible();
    await captureScreen(page, testInfo, 'console-backups-empty');

    await page.getByRole('button', { name: 'Add a backup folder' }).click();
    const form = page.getByRole('form', { name: 'Add a backup folder' });
    await form.getByLabel('Folder').fill('backups');
    await form.getByRole('button', { name: 'Add folder' }).click();
    await expect(form.getByRole('alert')).toHaveText('Give the full path of a folder, such as /media/usb-disk/backups.');
    await captureScreen(page, testInfo, 'console-backups-refused');

    const name = 'Blue USB disk in the hall cupboard';
    await form.getByLabel('Folder').fill(folder);
    await form.getByLabel('Name (optional)').fill(name);
    await form.getByRole('button', { name: 'Add folder' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(card.getByText('Not backed up yet')).toBeVisible();
    await expect(card.getByText(/^Every night at 3:00\sAM$/)).toBeVisible();

    // The owner moves the nightly time and keeps fewer daily copies.
    await card.getByRole('button', { name: `When to back up to ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `When to back up to ${name}` });
    await dialog.getByLabel('At').fill('22:30');
    await dialog.getByLabel('Daily backups').fill('3');
    await captureScreen(page, testInfo, 'console-backups-schedule');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByText(/^Every night at 10:30\sPM$/)).toBeVisible();
    await expect(card.getByText('3 daily, 4 weekly, 12 monthly copies')).toBeVisible();

    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText('Last good backup just now.')).toBeVisible();

    await card.getByRole('button', { name: `Check backup on ${name}` }).click();
    await expect(card.getByText(/^Checked just now: all \d+ files are whole\.$/)).toBeVisible({ timeout: 30_000 });

    await card.getByText('Snapshots').click();
    await expect(card.getByRole('list', { name: `Snapshots on ${name}` }).getByRole('listitem')).toHaveCount(1);
    // It really is on the disk: one finished snapshot, whose manifest lists what the page counts
    // (the whole server: this worker's other specs have files there too).
    const snapshots = fs.readdirSync(path.join(folder, 'hearth-backup', 'snapshots'));
    expect(snapshots).toHaveLength(1);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(folder, 'hearth-backup', 'snapshots', snapshots[0]!, 'manifest.json'), 'utf8'),
    ) as { files: unknown[] };
    expect(manifest.files.length).toBeGreaterThanOrEqual(4);
    await expect(card.getByRole('list', { name: `Snapshots on ${name}` })).toContainText(`${manifest.files.length} files`);
    await captureScreen(page, testInfo, 'console-backups');

    // The disk is unplugged: the next backup fails, and the page says why and since when all is well.
    fs.renameSync(folder, `${folder}-unplugged`);
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Last backup failed')).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('alert')).toHaveText(
      `The backup folder ${folder} is not there. Is its drive connected? Last good backup just now.`,
    );
    await captureScreen(page, testInfo, 'console-backups-failed');
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(`${folder}-unplugged`, { recursive: true, force: true });
  }
});
