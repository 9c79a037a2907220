import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder } from '../../helpers/backup.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// What time alone makes news, told by the hourly job (it also runs as the server starts): a
// scheduled backup with no success for two days (its owners), a phone that has not run "Back
// up this phone" for a week (its person). Each silence is told once.

const DAY_MS = 24 * 3_600_000;

/** Moves the backups' history and the phones' last backups into the past, as if the PC had run that long. */
function agedBy(dataDir: string, backupDays: number, phones: Record<string, number>): void {
  const db = openConnection(path.join(dataDir, 'hearth.db'));
  const backups = backupDays * DAY_MS;
  db.prepare('UPDATE backup_runs SET started_at = started_at - ?, finished_at = finished_at - ?').run(backups, backups);
  db.prepare('UPDATE backup_destinations SET created_at = created_at - ?').run(backups);
  for (const [userId, days] of Object.entries(phones)) {
    db.prepare('UPDATE phone_backups SET backed_up_at = backed_up_at - ? WHERE user_id = ?').run(days * DAY_MS, userId);
  }
  db.close();
}

test('two days without a good backup tell the owners; a week without "Back up this phone" tells that phone\'s person; each once, and a phone backed up within the week nothing', async () => {
  const dataDir = await makeTempDir();
  const folder = destinationFolder();
  try {
    let t = await startTestServer({ dataDir });
    const owner = await setupOwner(t.client);
    const mum = await createMember(t.client, owner, 'mum');
    const dad = await createMember(t.client, owner, 'dad');
    await uploadFile(t.api, owner.access, crypto.randomBytes(5_000), { filename: 'garden.jpg' });
    const dest = await addFolderDestination(t.client, owner.access, folder);
    assert.equal((await backUp(t.client, owner.access, dest.id)).state, 'succeeded');
    assert.equal((await t.client.post('/me/phone-backups', undefined, { token: mum.access })).status, 204);
    assert.equal((await t.client.post('/me/phone-backups', undefined, { token: dad.access })).status, 204);
    const told = async (who: { access: string }) => (await t.client.get('/notifications', { token: who.access })).body.items;
    assert.deepEqual(await told(owner), []);
    await t.server.close();
    agedBy(dataDir, 3, { [mum.userId]: 8, [dad.userId]: 6 });

    t = await startTestServer({ dataDir });
    let owners: any[] = [];
    for (let i = 0; i < 200 && owners.length === 0; i++) {
      owners = (await told(owner)).filter((n: any) => n.kind === 'backup_stale');
      if (owners.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(owners.length, 1);
    assert.equal(owners[0].title, `No backup to “${dest.name}” for 3 days`);
    assert.equal(owners[0].link, '/console/backups');
    const mums = await told(mum);
    assert.deepEqual(
      mums.map((n: any) => [n.kind, n.link]),
      [['phone_backup_stale', '/gallery']],
    );
    assert.match(mums[0].title, /has not backed up for 8 days$/);
    assert.equal(mums[0].body, 'Open Photos on that phone and tap “Back up this phone”.');
    assert.deepEqual(await told(dad), [], 'his phone backed up 6 days ago');
    await t.server.close();

    // Another start (the job looks again): the same silences are not told twice.
    t = await startTestServer({ dataDir });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await told(owner)).filter((n: any) => n.kind === 'backup_stale').length, 1);
    assert.equal((await told(mum)).length, 1);
    await t.close();
  } finally {
    fs.rmSync(folder, { recursive: true, force: true });
  }
});
