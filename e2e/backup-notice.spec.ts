import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import type { Api, Account } from './support/hearth.ts';
import { uploadAs } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

const DAY_MS = 24 * 3_600_000;

/** Backs up to a destination through the API and answers the finished run. */
async function backUp(api: Api, owner: Account, destinationId: string): Promise<{ state: string }> {
  const run = await api.ok('POST', `/admin/backup/destinations/${destinationId}/run`, owner.access);
  for (;;) {
    const now = await api.ok('GET', `/admin/backup/runs/${run.id}`, owner.access);
    if (now.state !== 'running') return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/*
 * The console's header tells the owner, in words, that the family's files have no backup (a calm
 * offer with a link to set one up), and warns on every page when no backup worked for 3 days,
 * saying why: the server decides both (GET /admin/backup's health).
 */
test("the console's header offers to set up a backup, and warns when none worked for days, with the reason", async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  test.setTimeout(120_000);
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-notice-')));
  const unplugged = `${folder}-unplugged`;
  // The worker's server is shared: start from no destination, whatever an earlier spec left.
  for (const left of (await hearth.api.ok('GET', '/admin/backup', owner.access)).destinations) {
    await hearth.api.ok('DELETE', `/admin/backup/destinations/${left.id}`, owner.access);
  }
  let destinationId: string | null = null;
  try {
    await uploadAs(hearth.api, owner, 'first-steps.jpg', Buffer.alloc(50_000, 3));
    await signIn(page, owner);
    await openConsole(page, 'Status');
    const notice = page.getByRole('status').filter({ hasText: 'no backup yet' });
    await expect(notice).toHaveText(
      'Your files have no backup yet. They are on this PC only: if its disk dies, they are gone. Set up backups',
    );
    await captureScreen(page, testInfo, 'console-backup-notice-none');
    await notice.getByRole('link', { name: 'Set up backups' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();
    await expect(page.getByText('Your files have no backup yet')).toHaveCount(0);

    // A USB disk backed up once, then unplugged; the last good backup was 4 days ago.
    const destination = await hearth.api.ok('POST', '/admin/backup/destinations', owner.access, {
      kind: 'folder',
      path: folder,
      name: 'USB disk',
    });
    destinationId = destination.id;
    expect((await backUp(hearth.api, owner, destination.id)).state).toBe('succeeded');
    fs.renameSync(folder, unplugged);
    expect((await backUp(hearth.api, owner, destination.id)).state).toBe('failed');
    const db = new Database(path.join(hearth.dataDir, 'hearth.db'));
    db.pragma('busy_timeout = 5000');
    db.prepare('UPDATE backup_runs SET started_at = started_at - ?, finished_at = finished_at - ? WHERE destination_id = ?').run(
      4 * DAY_MS,
      4 * DAY_MS,
      destination.id,
    );
    db.prepare('UPDATE backup_destinations SET created_at = created_at - ? WHERE id = ?').run(4 * DAY_MS, destination.id);
    db.close();

    await openConsole(page, 'People');
    await page.reload();
    const warning = page.getByRole('status').filter({ hasText: 'No backup for 4 days.' });
    await expect(warning).toHaveText(
      `No backup for 4 days. The backup folder ${folder} is not there. Is its drive connected? Open Backups`,
    );
    await captureScreen(page, testInfo, 'console-backup-notice-overdue');
    await warning.getByRole('link', { name: 'Open Backups' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Backups' })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'No backup for 4 days.' })).toBeVisible();

    // Plugged back in, "Back up now": the warning goes, on the page the owner is on.
    fs.renameSync(unplugged, folder);
    await page.getByRole('button', { name: 'Back up now to USB disk' }).click();
    await expect(page.getByText('No backup for 4 days.')).toHaveCount(0, { timeout: 30_000 });
  } finally {
    if (destinationId) await hearth.api.call('DELETE', `/admin/backup/destinations/${destinationId}`, owner.access);
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(unplugged, { recursive: true, force: true });
  }
});
