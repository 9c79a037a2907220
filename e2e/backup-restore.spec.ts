import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { startHearth, uniqueName, uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner makes an encrypted backup from the console and keeps its emergency kit: the switch
 * when adding the folder, the kit offered at once with its warning, downloaded as a file. Then
 * a fresh Hearth is restored from it on its first screen, and the family signs in as before.
 */
test('the owner backs up encrypted and keeps the kit; a fresh Hearth restores it from its first screen and the family signs in', async ({
  page,
  browser,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const kid = await hearth.api.member(owner, uniqueName('kid'));
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-encrypted-')));
  let kitFile = '';
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
    kitFile = `${folder}-${download.suggestedFilename()}`;
    await download.saveAs(kitFile);
    const text = fs.readFileSync(kitFile, 'utf8');
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

    // A new PC: a fresh Hearth, whose first screen offers the restore.
    const fresh = await startHearth();
    const context = await browser.newContext({ baseURL: fresh.url });
    try {
      const newPage = await context.newPage();
      await newPage.goto('/');
      await expect(newPage.getByRole('heading', { name: 'Set up Hearth' })).toBeVisible();
      await captureScreen(newPage, testInfo, 'first-screen-restore-offered');
      await newPage.getByRole('button', { name: 'Restore from a backup' }).click();
      await newPage.getByLabel('Backup folder').fill(folder);
      await newPage.getByRole('button', { name: 'Find backups' }).click();
      await expect(newPage.getByText('This backup needs the key from its emergency kit.').first()).toBeVisible();
      await newPage.getByLabel('Emergency kit file').setInputFiles(kitFile);
      await expect(newPage.getByLabel('Emergency kit key')).toHaveValue(/^AGE-SECRET-KEY-1/);
      await captureScreen(newPage, testInfo, 'restore-folder-and-kit');
      await newPage.getByRole('button', { name: 'Find backups' }).click();
      await expect(newPage.getByRole('heading', { name: 'Choose a backup' })).toBeVisible();
      await expect(newPage.getByRole('radio')).toHaveCount(1);
      await captureScreen(newPage, testInfo, 'restore-choose-snapshot');
      await newPage.getByRole('button', { name: 'Restore this backup' }).click();
      // The restored server asks for a sign-in: the kid's old password works.
      await expect(newPage.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
      await newPage.getByLabel('Username').fill(kid.username);
      await newPage.getByLabel('Password').fill(kid.password);
      await newPage.getByRole('button', { name: 'Sign in' }).click();
      // Where the app opens: Photos on a phone, My files on a computer.
      const landing = testInfo.project.name === 'desktop' ? 'My files' : 'Photos';
      await expect(newPage.getByRole('heading', { name: landing, level: 1 })).toBeVisible();
      const ownerPage = await (await browser.newContext({ baseURL: fresh.url })).newPage();
      // My files' address: the app's own opens Photos on a phone.
      await ownerPage.goto('/files');
      await ownerPage.getByLabel('Username').fill(owner.username);
      await ownerPage.getByLabel('Password').fill(owner.password);
      await ownerPage.getByRole('button', { name: 'Sign in' }).click();
      await expect(ownerPage.getByRole('heading', { name: 'My files' })).toBeVisible();
      await expect(ownerPage.getByText('secret-recipe.txt')).toBeVisible();
    } finally {
      await context.close();
      await fresh.stop();
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    if (kitFile) fs.rmSync(kitFile, { force: true });
  }
});
