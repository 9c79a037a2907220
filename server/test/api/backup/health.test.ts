import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner } from '../../helpers/accounts.ts';
import { addFolderDestination, backUp, destinationFolder } from '../../helpers/backup.ts';
import { EventSocket } from '../../helpers/events.ts';
import { ApiClient, makeTempDir, startTestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const DAY_MS = 24 * 3_600_000;

/** Moves a server's backup history `days` into the past, as if the PC had run that long without a good backup. */
function agedBy(dataDir: string, days: number): void {
  const db = openConnection(path.join(dataDir, 'hearth.db'));
  const shift = days * DAY_MS;
  db.prepare('UPDATE backup_runs SET started_at = started_at - ?, finished_at = finished_at - ?').run(shift, shift);
  db.prepare('UPDATE backup_destinations SET created_at = created_at - ?').run(shift);
  db.close();
}

test('the owner is nudged to set up a backup once the server holds files, not before, and no longer once a destination exists; members are not told', async () => {
  const t = await startTestServer();
  const folder = destinationFolder();
  try {
    const owner = await setupOwner(t.client);
    const member = await createMember(t.client, owner, 'nora');
    const health = async () => (await t.client.get('/admin/backup', { token: owner.access })).body.health;

    assert.deepEqual(
      await health(),
      { state: 'ok', headline: null, reason: null, destination_id: null, last_success_at: null },
      'nothing to back up yet',
    );
    const ownerSocket = await EventSocket.open(t.url, owner.access);
    const memberSocket = await EventSocket.open(t.url, member.access);
    await uploadFile(t.api, member.access, crypto.randomBytes(5_000), { filename: 'beach.jpg' });
    // Told at once (the family's first file), not at the next minute's look.
    const told = await ownerSocket.waitFor((m) => m.type === 'backup.health');
    assert.equal(told.payload.health.state, 'no_backup_yet');
    const nudge = await health();
    assert.deepEqual(nudge, told.payload.health);
    assert.equal(nudge.headline, 'Your files have no backup yet');
    // Whatever the member was sent before their next file's event has arrived by then: no backup state among it.
    const second = await uploadFile(t.api, member.access, crypto.randomBytes(5_000), { filename: 'dunes.jpg' });
    const seen = await memberSocket.until((m) => m.type === 'node.created' && m.payload.node.id === second);
    assert.deepEqual(
      seen.filter((m) => m.type.startsWith('backup.')),
      [],
      'a member hears nothing of backups',
    );
    ownerSocket.ws.close();
    memberSocket.ws.close();
    assert.equal((await t.client.get('/admin/backup', { token: member.access })).status, 403, 'a member reads no backup state');

    await addFolderDestination(t.client, owner.access, folder);
    assert.equal((await health()).state, 'ok', 'a new destination has its 3 days before anything is overdue');
  } finally {
    await t.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
});

test('no good backup for 3 days: the owner reads "No backup for 4 days" and, after a failed run, why in words, over the WebSocket too; a good run ends the warning', async () => {
  const dataDir = await makeTempDir();
  const folder = destinationFolder();
  const unplugged = `${folder}-unplugged`;
  try {
    let t = await startTestServer({ dataDir });
    const owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(5_000), { filename: 'garden.jpg' });
    const dest = await addFolderDestination(t.client, owner.access, folder);
    assert.equal((await backUp(t.client, owner.access, dest.id)).state, 'succeeded');
    await t.server.close();
    agedBy(dataDir, 4);

    t = await startTestServer({ dataDir });
    const client = new ApiClient(t.api);
    const socket = await EventSocket.open(t.url, owner.access);
    try {
      const health = async () => (await client.get('/admin/backup', { token: owner.access })).body.health;
      const overdue = await health();
      assert.equal(overdue.state, 'overdue');
      assert.equal(overdue.headline, 'No backup for 4 days');
      assert.equal(overdue.reason, null, 'the last run worked; none has run since');
      assert.equal(overdue.destination_id, dest.id);
      assert.ok(overdue.last_success_at < Date.now() - 4 * DAY_MS + 60_000);

      // The USB disk is pulled out: the next run fails, and the warning says why.
      fs.renameSync(folder, unplugged);
      assert.equal((await backUp(client, owner.access, dest.id)).state, 'failed');
      const told = await socket.waitFor((m) => m.type === 'backup.health' && m.payload.health.reason !== null);
      assert.equal(told.payload.health.state, 'overdue');
      assert.equal(told.payload.health.headline, 'No backup for 4 days');
      assert.equal(told.payload.health.reason, `The backup folder ${folder} is not there. Is its drive connected?`);
      assert.deepEqual(await health(), told.payload.health);

      // Plugged back in: the next run works and the warning ends, at once.
      fs.renameSync(unplugged, folder);
      assert.equal((await backUp(client, owner.access, dest.id)).state, 'succeeded');
      const ended = await socket.waitFor((m) => m.type === 'backup.health' && m.payload.health.state === 'ok');
      assert.equal(ended.payload.health.headline, null);
      assert.equal((await health()).state, 'ok');
    } finally {
      socket.ws.close();
      await t.close();
    }
  } finally {
    fs.rmSync(unplugged, { recursive: true, force: true });
    fs.rmSync(folder, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a destination run only by hand never makes the warning, and with two destinations the warning names the one that is overdue', async () => {
  const dataDir = await makeTempDir();
  const nightly = destinationFolder();
  const byHand = destinationFolder();
  try {
    let t = await startTestServer({ dataDir });
    const owner = await setupOwner(t.client);
    await uploadFile(t.api, owner.access, crypto.randomBytes(5_000), { filename: 'cake.jpg' });
    const manual = await addFolderDestination(t.client, owner.access, byHand, { name: 'Attic disk' });
    await t.client.patch(`/admin/backup/destinations/${manual.id}`, { schedule: null }, { token: owner.access });
    await t.server.close();
    agedBy(dataDir, 10);

    t = await startTestServer({ dataDir });
    let client = new ApiClient(t.api);
    assert.equal((await client.get('/admin/backup', { token: owner.access })).body.health.state, 'ok');
    const usb = await addFolderDestination(client, owner.access, nightly, { name: 'USB disk' });
    await t.server.close();
    agedBy(dataDir, 5);

    t = await startTestServer({ dataDir });
    try {
      client = new ApiClient(t.api);
      const health = (await client.get('/admin/backup', { token: owner.access })).body.health;
      assert.equal(health.state, 'overdue');
      assert.equal(health.headline, 'No backup to “USB disk” for 5 days', 'never backed up: counted from when it was added');
      assert.equal(health.destination_id, usb.id);
    } finally {
      await t.close();
    }
  } finally {
    fs.rmSync(nightly, { recursive: true, force: true });
    fs.rmSync(byHand, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
