/**
 * An encrypted backup is worthless without its emergency kit, and a plain one is signed with it:
 * until the owner says the kit is kept, GET /admin/backup reminds them, and fetching the kit alone does not end the reminder.
 * The record belongs to the key it was made for, survives a restart, and only the owner makes it.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, destinationFolder } from '../../helpers/backup.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

const REMINDER = 'Download your emergency kit: without it this backup cannot be restored.';
const PLAIN_REMINDER =
  'Download your emergency kit: a new Hearth needs it to restore these backups, with their links and two-step sign-in.';

describe('the emergency kit: kept, or a reminder on the Backups page', () => {
  let t: TestServer;
  let owner: SignedIn;
  let dataDir: string;
  const temps: string[] = [];
  const kitState = async () => {
    const overview = await t.client.get('/admin/backup', { token: owner.access });
    assert.equal(overview.status, 200, JSON.stringify(overview.body));
    return overview.body.kit;
  };

  before(async () => {
    // Its own data folder, kept across the restarts below.
    dataDir = await makeTempDir();
    temps.push(dataDir);
    t = await startTestServer({ dataDir });
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test('no reminder without a destination; a plain folder is reminded of too, since a new Hearth restores it with the kit', async () => {
    assert.deepEqual(await kitState(), { saved_at: null, reminder: null });
    const plain = destinationFolder();
    temps.push(plain);
    await addFolderDestination(t.client, owner.access, plain);
    assert.deepEqual(await kitState(), { saved_at: null, reminder: PLAIN_REMINDER });
  });

  test('an encrypted destination whose kit was never kept is reminded of, and fetching the kit is not keeping it', async () => {
    const encrypted = destinationFolder();
    temps.push(encrypted);
    await addFolderDestination(t.client, owner.access, encrypted, { encrypt: true });
    assert.deepEqual(await kitState(), { saved_at: null, reminder: REMINDER });
    assert.equal((await t.client.get('/admin/backup/kit', { token: owner.access })).status, 200);
    assert.deepEqual(await kitState(), { saved_at: null, reminder: REMINDER }, 'a kit only looked at may never have been saved');
  });

  test('the owner says the kit is kept: the reminder ends, and stays ended after a restart', async () => {
    const before = Date.now();
    const saved = await t.client.post('/admin/backup/kit/saved', undefined, { token: owner.access });
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.reminder, null);
    assert.ok(saved.body.saved_at >= before);
    assert.deepEqual(await kitState(), saved.body);

    await t.server.close();
    t = await startTestServer({ dataDir });
    assert.deepEqual(await kitState(), saved.body);
  });

  test('a kit kept for another key proves nothing for this one: a new key brings the reminder back', async () => {
    // The key file replaced (a server whose key was lost and made again): its kit is a new one.
    fs.rmSync(`${dataDir}/backup-key.txt`);
    await t.server.close();
    t = await startTestServer({ dataDir });
    assert.equal((await t.client.get('/admin/backup/kit', { token: owner.access })).status, 200);
    assert.deepEqual(await kitState(), { saved_at: null, reminder: REMINDER });
  });

  test('only the owner says so: a member gets 403, no session 401; without any key yet, 404', async () => {
    const member = await createMember(t.client, owner, 'kid');
    assertError(await t.client.post('/admin/backup/kit/saved', undefined, { token: member.access }), 403, 'forbidden');
    assertError(await t.client.post('/admin/backup/kit/saved'), 401, 'unauthorized');
    const fresh = await startTestServer();
    try {
      const freshOwner = await setupOwner(fresh.client);
      assertError(await fresh.client.post('/admin/backup/kit/saved', undefined, { token: freshOwner.access }), 404, 'not_found');
    } finally {
      await fresh.close();
    }
  });
});
