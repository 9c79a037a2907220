import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { blobHolding, holdContentFile } from '../server/test/helpers/backup.ts';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * A backup under way says, in words a parent reads, how much of how much it has copied, how many
 * files of how many, and about how long it has left, with a bar. The run is held at a known
 * point: its last file is a pipe on the server's disk until the test lets it through.
 */
test('a backup under way says "… of … · … of … files · … left" with a bar, then "Backed up"', async ({ page, hearth, owner }, testInfo) => {
  test.setTimeout(120_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-backup-progress-')));
  // The worker's server is shared: start from no destination, whatever an earlier spec left.
  for (const left of (await hearth.api.ok('GET', '/admin/backup', owner.access)).destinations) {
    await hearth.api.ok('DELETE', `/admin/backup/destinations/${left.id}`, owner.access);
  }
  const photos: Buffer[] = [];
  for (let i = 0; i < 8; i++) {
    const bytes = Buffer.alloc(1_500_000 + i * 1000, i + 1);
    await uploadAs(hearth.api, owner, `garden-${i}.jpg`, bytes);
    photos.push(bytes);
  }
  const name = 'Blue USB disk';
  const destination = await hearth.api.ok('POST', '/admin/backup/destinations', owner.access, {
    kind: 'folder',
    path: folder,
    encrypt: false,
    name,
  });
  // The newest upload is copied last (content goes in the order of its ids): the run waits there.
  const held = holdContentFile(blobHolding(hearth.dataDir, photos.at(-1)!));
  try {
    await signIn(page, owner);
    await openConsole(page, 'Backups');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await card.getByRole('button', { name: `Back up now to ${name}` }).click();
    await held.reached;
    // The pace needs a few seconds before the server guesses the time left; then the page is opened again.
    await expect
      .poll(async () => (await hearth.api.ok('GET', '/admin/backup', owner.access)).running?.seconds_left ?? null, { timeout: 30_000 })
      .not.toBeNull();
    await page.reload();
    const status = card.getByRole('status').filter({ hasText: ' files' });
    await expect(status).toHaveText(
      /^\d[\d.]* (bytes|KB|MB|GB) of \d[\d.]* (KB|MB|GB) · \d+ of [\d,]+ files · (about .+|less than a minute) left$/,
    );
    await expect(card.getByRole('progressbar', { name: 'Copied so far' })).toBeVisible();
    await expect(card.getByText('Backing up now', { exact: true })).toBeVisible();
    // Nothing is in the folder yet: its size is promised, not "0 bytes".
    const size = card.getByRole('term').filter({ hasText: 'Size' }).locator('xpath=following-sibling::dd');
    await expect(size).toHaveText('After the first backup');
    await captureScreen(page, testInfo, 'console-backups-running');
    await held.release();
    await expect(card.getByText('Backed up', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('progressbar')).toHaveCount(0);
    await expect(size).toHaveText(/^\d[\d.]* (MB|KB)$/);
    const run = (await hearth.api.ok('GET', '/admin/backup', owner.access)).destinations.find(
      (d: { id: string }) => d.id === destination.id,
    ).last_run;
    expect(run.files).toBe(run.files_total);
    expect(run.bytes_copied).toBe(run.bytes_to_copy);
  } finally {
    held.restore();
    await hearth.api.ok('DELETE', `/admin/backup/destinations/${destination.id}`, owner.access).catch(() => {});
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
