/**
 * The desktop app restores a fresh install from its window: the network's POST /setup/restore
 * is refused there (as POST /setup is), and the process that started the server restores
 * through startServer's handle instead. After the server starts again on the restored data,
 * that handle still speaks for it: what listened to its events hears the restored server's, and
 * the host is told the restart happened, so the tray and the window can follow.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { login, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder, emergencyKit } from '../../helpers/backup.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import type { BusEvent } from '../../../src/events/bus.ts';

describe("a restore from the desktop app's window (hostedSetup), through the server's handle", () => {
  let source: TestServer;
  let owner: SignedIn;
  let folder: string;
  let kit: string;
  let t: TestServer;

  before(async () => {
    source = await startTestServer();
    owner = await setupOwner(source.client);
    await uploadFile(source.api, owner.access, crypto.randomBytes(80_000), { filename: 'wedding.jpg' });
    folder = destinationFolder();
    const destination = await addFolderDestination(source.client, owner.access, folder);
    assert.equal((await backUp(source.client, owner.access, destination.id)).state, 'succeeded');
    kit = (await emergencyKit(source.client, owner.access)).text;
    t = await startTestServer({ hostedSetup: true });
  });
  after(async () => {
    await t?.close();
    await source.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  test('the network (this PC included) is refused with setup_in_app; the hosting process lists the snapshots', async () => {
    assertError(await t.client.post('/setup/restore/snapshots', { kind: 'folder', path: folder }), 403, 'setup_in_app');
    assertError(await t.client.post('/setup/restore', { kind: 'folder', path: folder }), 403, 'setup_in_app');
    const found = await t.server.restoreSnapshots({ kind: 'folder', path: folder, key: kit });
    assert.equal(found.encrypted, false);
    assert.equal(found.items.length, 1);
    await assert.rejects(t.server.restoreSnapshots({ kind: 'folder', path: '/no-such-backup' }), { code: 'backup_not_found' });
  });

  test('the restore runs; the handle tells its host the server started again, and its listeners hear the restored server', async () => {
    const heard: BusEvent[] = [];
    const unsubscribe = t.server.subscribe((event) => heard.push(event));
    const restarted = new Promise<Error | null>((resolve) => t.server.onRestarted(resolve));

    const run = await t.server.startRestore({ kind: 'folder', path: folder, key: kit });
    assert.equal(run.kind, 'restore');
    assert.equal(run.state, 'running');
    await assert.rejects(t.server.startRestore({ kind: 'folder', path: folder, key: kit }), { code: 'restore_running' });
    // Progress for the window's page over HTTP: the state and counts, nothing about the folder.
    const progress = await t.client.get('/setup/restore');
    if (progress.status === 200) assert.ok(!JSON.stringify(progress.body).includes(folder));

    assert.equal(await restarted, null, 'started again on the restored data');
    const status = (await t.client.get('/status')).body;
    assert.equal(status.setup_required, false);
    assert.equal(status.restoring, false);
    const back = await login(t.client, OWNER.username, OWNER.password);

    heard.length = 0;
    await createFolder(t.client, back, 'After the restore');
    assert.ok(heard.length > 0, 'a listener from before the restore hears the restored server');
    unsubscribe();
    heard.length = 0;
    await createFolder(t.client, back, 'Unheard');
    assert.equal(heard.length, 0, 'and stops hearing it once unsubscribed');
    await assert.rejects(t.server.startRestore({ kind: 'folder', path: folder, key: kit }), { code: 'already_set_up' });
  });
});
