import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startS3 } from '../server/test/helpers/s3.ts';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { startHearth, uniqueName, uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner adds an off-site bucket from the console, as the README says: a wrong secret key is
 * refused under its field in the bucket's words, the kit is offered at once, the card shows the
 * bucket, and a backup succeeds. Then a fresh Hearth is restored from the bucket on its first
 * screen ("An online bucket (S3)"), and the family signs in as before.
 */
test('the owner backs up to an S3 bucket; a fresh Hearth restores from the bucket and the family signs in', async ({
  page,
  browser,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const s3 = await startS3();
  const kid = await hearth.api.member(owner, uniqueName('kid'));
  const kitFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-s3-kit-'));
  try {
    await uploadAs(hearth.api, owner, 'holiday-plans.txt', Buffer.from('Seaside in August'));
    await signIn(page, owner);
    await openConsole(page, 'Backups');
    await page.getByRole('button', { name: 'Add a backup folder' }).click();
    await page.getByRole('radio', { name: 'Off-site (S3 bucket)' }).check();
    const form = page.getByRole('form', { name: 'Add an off-site bucket' });
    await expect(form.getByText(/always encrypted/)).toBeVisible();
    await captureScreen(page, testInfo, 'console-backups-s3-add');
    await form.getByLabel('S3 address').fill(s3.endpoint);
    await form.getByLabel('Bucket', { exact: true }).fill(s3.bucket);
    await form.getByLabel('Folder in the bucket (optional)').fill('hearth');
    await form.getByLabel('Access key ID').fill(s3.accessKeyId);
    await form.getByLabel('Secret access key').fill('not-the-secret');
    await form.getByLabel('Name (optional)').fill("Off-site at Grandpa's");
    await form.getByRole('button', { name: 'Add bucket' }).click();
    await expect(form.getByRole('alert')).toHaveText('The bucket answered: the secret key does not match the access key.');
    await captureScreen(page, testInfo, 'console-backups-s3-refused');

    await form.getByLabel('Secret access key').fill(s3.secretAccessKey);
    await form.getByRole('button', { name: 'Add bucket' }).click();
    const kit = page.getByRole('dialog', { name: 'Emergency kit' });
    await expect(kit.getByText(/an encrypted backup cannot be restored/)).toBeVisible();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      kit.getByRole('button', { name: 'Download emergency kit' }).click(),
    ]);
    const kitFile = path.join(kitFolder, download.suggestedFilename());
    await download.saveAs(kitFile);
    await kit.getByRole('button', { name: 'Done' }).click();

    const name = "Off-site at Grandpa's";
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(card.getByText(`Bucket ${s3.bucket}/hearth at ${new URL(s3.endpoint).host}`)).toBeVisible();
    await expect(card.getByText('Encrypted', { exact: true })).toBeVisible();
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    await captureScreen(page, testInfo, 'console-backups-s3');
    const keys = (await s3.objects('hearth/')).map((o) => o.key);
    expect(keys.some((k) => k.endsWith('manifest.json'))).toBe(true);
    expect(keys.some((k) => k.includes('holiday'))).toBe(false);

    // A new PC: its first screen restores from the bucket with the kit.
    const fresh = await startHearth();
    const context = await browser.newContext({ baseURL: fresh.url });
    try {
      const newPage = await context.newPage();
      await newPage.goto('/');
      await newPage.getByRole('button', { name: 'Restore from a backup' }).click();
      await newPage.getByRole('radio', { name: 'An online bucket (S3)' }).check();
      await newPage.getByLabel('S3 address').fill(s3.endpoint);
      await newPage.getByLabel('Bucket', { exact: true }).fill(s3.bucket);
      await newPage.getByLabel('Folder in the bucket (optional)').fill('hearth');
      await newPage.getByLabel('Access key ID').fill(s3.accessKeyId);
      await newPage.getByLabel('Secret access key').fill(s3.secretAccessKey);
      await newPage.getByLabel('Emergency kit file').setInputFiles(kitFile);
      await expect(newPage.getByLabel('Emergency kit key')).toHaveValue(/^AGE-SECRET-KEY-1/);
      await captureScreen(newPage, testInfo, 'restore-s3');
      await newPage.getByRole('button', { name: 'Find backups' }).click();
      await expect(newPage.getByRole('heading', { name: 'Choose a backup' })).toBeVisible();
      await newPage.getByRole('button', { name: 'Restore this backup' }).click();
      await expect(newPage.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
      await newPage.getByLabel('Username').fill(kid.username);
      await newPage.getByLabel('Password').fill(kid.password);
      await newPage.getByRole('button', { name: 'Sign in' }).click();
      // Where the app opens: Photos on a phone, My files on a computer.
      const landing = testInfo.project.name === 'desktop' ? 'My files' : 'Photos';
      await expect(newPage.getByRole('heading', { name: landing, level: 1 })).toBeVisible();
    } finally {
      await context.close();
      await fresh.stop();
    }
  } finally {
    // The worker's server is shared with the other backup specs, which begin with no destination.
    const overview = await hearth.api.call('GET', '/admin/backup', owner.access);
    for (const destination of overview.body?.destinations ?? [])
      if (destination.kind === 's3') await hearth.api.call('DELETE', `/admin/backup/destinations/${destination.id}`, owner.access);
    await s3.stop();
    fs.rmSync(kitFolder, { recursive: true, force: true });
  }
});
