import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName, uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner gets one photo back as it was on a date: backs up, deletes the photo for good, browses
 * the snapshot from the Backups page, puts the photo back in its place, and finds it in Files.
 */
test('the owner backs up, deletes a photo, browses the snapshot, restores the photo and sees it back in Files', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(120_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-restore-item-')));
  try {
    const holiday = await hearth.api.ok('POST', '/nodes/folder', owner.access, { name: uniqueName('Holiday') });
    const photoId = await uploadAs(hearth.api, owner, 'beach at sunset with the whole family.jpg', Buffer.alloc(120_000, 9), {
      parent_id: holiday.id,
    });
    await uploadAs(hearth.api, owner, 'boat.jpg', Buffer.alloc(90_000, 3), { parent_id: holiday.id });
    const name = uniqueName('Red USB disk');
    await hearth.api.ok('POST', '/admin/backup/destinations', owner.access, { kind: 'folder', path: folder, name });
    await signIn(page, owner);
    await openConsole(page, 'Backups');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    expect((await hearth.api.call('DELETE', `/nodes/${photoId}/permanent`, owner.access)).status).toBe(204);

    await card.getByText('Snapshots').click();
    const snapshots = card.getByRole('list', { name: `Snapshots on ${name}` });
    await snapshots
      .getByRole('button', { name: /^Browse files of / })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: /^Files on / });
    await expect(dialog.getByLabel('Whose files')).toBeVisible();
    await dialog.getByRole('button', { name: `Open ${holiday.name}` }).click();
    await expect(dialog.getByRole('navigation', { name: 'Folder path' })).toContainText(holiday.name);
    const photo = dialog.getByRole('listitem').filter({ hasText: 'beach at sunset with the whole family.jpg' });
    await expect(photo.getByText('Deleted since')).toBeVisible();
    await photo.getByRole('radio', { name: 'Choose beach at sunset with the whole family.jpg' }).check();
    await captureScreen(page, testInfo, 'console-backup-browse');

    await dialog.getByRole('button', { name: 'Put back in its place' }).click();
    await expect(dialog.getByText(`Restored 1 file to ${holiday.name}/beach at sunset with the whole family.jpg.`)).toBeVisible({
      timeout: 30_000,
    });
    await captureScreen(page, testInfo, 'console-backup-restored');
    await dialog.getByRole('button', { name: 'Close' }).last().click();

    await page.goto(`/files/${holiday.id}`);
    await expect(page.getByText('beach at sunset with the whole family.jpg').first()).toBeVisible();
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
