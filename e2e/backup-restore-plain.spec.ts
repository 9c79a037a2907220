import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './support/fixtures.ts';
import { startHearth, uniqueName, uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/**
 * A snapshot as a release before signatures wrote it: the same files, a `hearth-backup/1`
 * manifest without a signature, dated a day earlier (keys.json stays sealed: a restore opens
 * either with the kit).
 */
function olderUnsignedCopy(folder: string, snapshot: string): void {
  const root = path.join(folder, 'hearth-backup', 'snapshots');
  const manifest = JSON.parse(fs.readFileSync(path.join(root, snapshot, 'manifest.json'), 'utf8'));
  const at = manifest.at - 24 * 60 * 60_000;
  const id = `${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-0e0e0e`;
  fs.mkdirSync(path.join(root, id));
  for (const name of ['hearth.db', 'keys.json']) fs.copyFileSync(path.join(root, snapshot, name), path.join(root, id, name));
  const files = manifest.files.map(({ library: _l, blob: _b, ...file }: Record<string, unknown>) => ({
    ...file,
    path: String(file.path).replace(`snapshots/${snapshot}/`, `snapshots/${id}/`),
  }));
  const { mac: _mac, ...rest } = manifest;
  fs.writeFileSync(
    path.join(root, id, 'manifest.json'),
    JSON.stringify({ ...rest, format: 'hearth-backup/1', snapshot: id, at, files }, null, 1),
  );
}

/*
 * A plain backup is signed with the emergency kit's key: a fresh Hearth asks for the kit to
 * prove it is the family's. A snapshot from an older Hearth (before signatures) is offered too,
 * marked, and restored only once the owner says nobody else could have changed the drive.
 */
test('a fresh Hearth asks for the kit of a plain backup, and restores an unsigned older snapshot only at the owner’s word', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(180_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-plain-')));
  const kitFile = `${folder}-kit.txt`;
  try {
    await uploadAs(hearth.api, owner, 'family-tree.txt', Buffer.from('Grandpa, Grandma, and everyone after'));
    const destination = await hearth.api.ok('POST', '/admin/backup/destinations', owner.access, {
      kind: 'folder',
      path: folder,
      name: uniqueName('USB disk'),
      // A new folder is encrypted unless asked otherwise.
      encrypt: false,
    });
    let run = await hearth.api.ok('POST', `/admin/backup/destinations/${destination.id}/run`, owner.access);
    while (run.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      run = await hearth.api.ok('GET', `/admin/backup/runs/${run.id}`, owner.access);
    }
    expect(run.state).toBe('succeeded');
    fs.writeFileSync(kitFile, (await hearth.api.ok('GET', '/admin/backup/kit', owner.access)).file_text);
    olderUnsignedCopy(folder, run.snapshot_id);

    const fresh = await startHearth();
    try {
      await page.goto(`${fresh.url}/`);
      await page.getByRole('button', { name: 'Restore from a backup' }).click();
      await page.getByLabel('Backup folder').fill(folder);
      await page.getByRole('button', { name: 'Find backups' }).click();
      await expect(page.getByText(/This backup needs the key from its emergency kit/).first()).toBeVisible();
      await page.getByLabel('Emergency kit file').setInputFiles(kitFile);
      await captureScreen(page, testInfo, 'restore-plain-asks-for-kit');
      await page.getByRole('button', { name: 'Find backups' }).click();

      await expect(page.getByRole('heading', { name: 'Choose a backup' })).toBeVisible();
      const radios = page.getByRole('radio');
      await expect(radios).toHaveCount(2);
      await expect(radios.first()).toBeChecked();
      await expect(page.getByText(/from an older Hearth/)).toHaveCount(1);
      await radios.nth(1).check();
      const restore = page.getByRole('button', { name: 'Restore this backup' });
      await expect(restore).toBeDisabled();
      await captureScreen(page, testInfo, 'restore-unsigned-snapshot');
      await page.getByRole('checkbox', { name: /Only I could change this drive/ }).check();
      await restore.click();
      await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 60_000 });
      // My files' address: the app's own opens Photos on a phone.
      await page.goto(`${fresh.url}/files`);
      await page.getByLabel('Username').fill(owner.username);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
      await expect(page.getByText('family-tree.txt')).toBeVisible();
    } finally {
      await fresh.stop();
    }
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(kitFile, { force: true });
  }
});
