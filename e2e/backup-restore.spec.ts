import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner makes an encrypted backup from the console and keeps its emergency kit: the switch
 * when adding the folder, the kit offered at once with its warning, downloaded as a file.
 */
test('the owner adds an encrypted backup folder, downloads the emergency kit, and backs up', async ({ page, hearth, owner }, testInfo) => {
  test.setTimeout(120_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-encrypted-')));
  try {
    await uploadAs(hearth.api, owner, 'secret-recipe.txt', Buffer.from('Three eggs, a lot of butter'));
    await signIn(page, owner);
    await openConsole(page, 'Backups');
    await page.getByRole('button', { name: 'Add a backup folder' }).click();
    const form = page.getByRole('form', { name: 'Add a backup folder' });
    await form.getByLabel('Folder').fill(folder);
    await form.getByLabel('Name (optional)').fill('Encrypted USB disk');
    await form.getByRole('switch', { name: /Encrypt this backup/ }).check();
    await captureScreen(page, testInfo, 'console-backups-add-encrypted');
    await form.getByRole('button', { name: 'Add folder' }).click();

    const kit = page.getByRole('dialog', { name: 'Emergency kit' });
    await expect(kit.getByText(/an encrypted backup cannot be restored/)).toBeVisible();
    await expect(kit.getByRole('img', { name: 'QR code of the backup key' })).toBeVisible();
    await captureScreen(page, testInfo, 'console-backups-kit');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      kit.getByRole('button', { name: 'Download emergency kit' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^hearth-emergency-kit-\d{4}-\d\d-\d\d\.txt$/);
    const text = fs.readFileSync(await download.path(), 'utf8');
    expect(text).toMatch(/^AGE-SECRET-KEY-1[0-9A-Z]+$/m);
    expect(text).toContain('cannot be restored');
    await kit.getByRole('button', { name: 'Done' }).click();

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Encrypted USB disk' }) });
    await expect(card.getByText('Encrypted', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: 'Back up now to Encrypted USB disk' }).click();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    await card.getByRole('button', { name: 'Check backup on Encrypted USB disk' }).click();
    await expect(card.getByText(/^Checked just now: all \d+ files are whole\.$/)).toBeVisible({ timeout: 30_000 });
    await captureScreen(page, testInfo, 'console-backups-encrypted');
    expect(fs.readFileSync(path.join(folder, 'hearth-backup', 'age-recipient.txt'), 'utf8')).toMatch(/^age1/);
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
