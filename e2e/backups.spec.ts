import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner backs the family's files up to a folder from the console, as the README says: adds
 * the folder (a wrong one is refused in words; encrypted unless they turn it off, and the card
 * says which), backs up twice in a day and keeps both snapshots, and checks them.
 */
test('the owner adds a backup folder, encrypted by default, backs up twice in a day and keeps both, and sees a successful check', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(150_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-backup-')));
  const plainFolder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-backup-plain-')));
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
    await expect(form.getByRole('switch', { name: /Encrypt this backup/ })).toBeChecked();
    await form.getByRole('button', { name: 'Add folder' }).click();
    // Encrypted: the kit that opens it is offered at once.
    const kit = page.getByRole('dialog', { name: 'Emergency kit' });
    await expect(kit.getByText(/an encrypted backup cannot be restored/)).toBeVisible();
    await kit.getByRole('button', { name: 'Done' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(card.getByText('Not backed up yet')).toBeVisible();
    await expect(card.getByText('Encrypted', { exact: true })).toBeVisible();
    await expect(card.getByText(/^Every night at 3:00\sAM$/)).toBeVisible();
    await expect(card.getByText('5 latest, 7 daily, 4 weekly, 12 monthly copies')).toBeVisible();

    // The owner moves the nightly time and keeps fewer daily copies.
    await card.getByRole('button', { name: `When to back up to ${name}` }).click();
    const dialog = page.getByRole('dialog', { name: `When to back up to ${name}` });
    await expect(dialog.getByLabel('Latest backups')).toHaveValue('5');
    await dialog.getByLabel('At', { exact: true }).fill('22:30');
    await dialog.getByLabel('Daily backups').fill('3');
    await captureScreen(page, testInfo, 'console-backups-schedule');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByText(/^Every night at 10:30\sPM$/)).toBeVisible();
    await expect(card.getByText('5 latest, 3 daily, 4 weekly, 12 monthly copies')).toBeVisible();

    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByText('Last good backup just now.')).toBeVisible();

    await card.getByRole('button', { name: `Check backup on ${name}` }).click();
    await expect(card.getByText(/^Checked just now: all \d+ files are whole\.$/)).toBeVisible({ timeout: 30_000 });

    // "Back up now" once more the same day: the morning's snapshot stays beside the new one.
    // A run with nothing new to copy can end before the card shows it under way: the second
    // snapshot in the list is what proves it ran.
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    await card.getByText('Snapshots').click();
    await expect(card.getByRole('list', { name: `Snapshots on ${name}` }).getByRole('listitem')).toHaveCount(2);
    // It really is on the disk, encrypted: two finished snapshots, whose lists of files only the kit opens.
    const snapshots = fs.readdirSync(path.join(folder, 'hearth-backup', 'snapshots'));
    expect(snapshots).toHaveLength(2);
    for (const snapshot of snapshots) {
      const manifest = fs.readFileSync(path.join(folder, 'hearth-backup', 'snapshots', snapshot, 'manifest.json'), 'utf8');
      expect(manifest.startsWith('age-encryption.org/v1\n')).toBe(true);
    }
    await captureScreen(page, testInfo, 'console-backups');

    // A second folder, plain because the owner turned encryption off: its card says what that means.
    await page.getByRole('button', { name: 'Add a backup folder' }).click();
    const second = page.getByRole('form', { name: 'Add a backup folder' });
    await second.getByLabel('Folder').fill(plainFolder);
    await second.getByLabel('Name (optional)').fill('Old laptop disk');
    await second.getByRole('switch', { name: /Encrypt this backup/ }).uncheck();
    await second.getByRole('button', { name: 'Add folder' }).click();
    const plainCard = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Old laptop disk' }) });
    await expect(plainCard.getByText('Not encrypted: anyone with this disk can read everything')).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Emergency kit' })).toHaveCount(0);
    await plainCard.scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'console-backups-plain');

    // The disk is unplugged: the next backup fails, and the page says why and since when all is well.
    fs.renameSync(folder, `${folder}-unplugged`);
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Last backup failed')).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('alert')).toHaveText(
      `The backup folder ${folder} is not there. Is its drive connected? Last good backup just now.`,
    );
    await captureScreen(page, testInfo, 'console-backups-failed');
  } finally {
    for (const made of [folder, `${folder}-unplugged`, plainFolder]) fs.rmSync(made, { recursive: true, force: true });
  }
});

/*
 * Someone who held the USB disk made its backup's temp folder a link to a home folder: the run
 * stops without touching it, and the card says what and where, in words the owner can act on.
 */
test('a link planted in a backup folder: the next backup stops, and the card says what is wrong and where', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(90_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-backup-link-')));
  const home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-home-')));
  for (const left of (await hearth.api.ok('GET', '/admin/backup', owner.access)).destinations) {
    await hearth.api.ok('DELETE', `/admin/backup/destinations/${left.id}`, owner.access);
  }
  try {
    fs.writeFileSync(path.join(home, 'letter.txt'), 'Dear family');
    await uploadAs(hearth.api, owner, 'garden.jpg', Buffer.alloc(50_000, 5));
    const name = 'USB disk from the neighbours';
    await hearth.api.ok('POST', '/admin/backup/destinations', owner.access, { kind: 'folder', path: folder, name });
    const tmp = path.join(folder, 'hearth-backup', 'tmp');
    fs.rmSync(tmp, { recursive: true });
    fs.symlinkSync(home, tmp);

    await signIn(page, owner);
    await openConsole(page, 'Backups');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Last backup failed')).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('alert')).toHaveText(
      `In the backup folder ${folder}, hearth-backup/tmp is a link to another place. Hearth did not put it there and did not follow it: nothing outside the backup folder was read, written or deleted. Remove it, or choose another folder. No backup has succeeded here yet.`,
    );
    expect(fs.readFileSync(path.join(home, 'letter.txt'), 'utf8')).toBe('Dear family');
    await captureScreen(page, testInfo, 'console-backups-unsafe');
  } finally {
    for (const made of [folder, home]) fs.rmSync(made, { recursive: true, force: true });
  }
});
