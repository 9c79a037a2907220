/**
 * A backup folder is someone else's disk: whoever held the USB disk for a minute, a shared NAS
 * folder, a drive handed over "with our old backup on it". A link planted inside it never makes
 * a run write, delete or read outside it: the run stops, and the owner reads on the Backups
 * page what is wrong and where, with the code destination_unsafe.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder, readManifest } from '../../helpers/backup.ts';
import { homeFolder, treeOf } from '../../helpers/file-tree.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

describe('a backup run never follows a link inside the backup folder: nothing outside is written or deleted, and the owner reads why', () => {
  let t: TestServer;
  let owner: SignedIn;
  let family: Buffer;
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    family = crypto.randomBytes(40_000);
    await uploadFile(t.api, owner.access, family, { filename: 'holiday.jpg' });
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /** A new destination (its hearth-backup folder made by Hearth) and a home folder outside it. */
  async function destinationAndHome(): Promise<{ folder: string; root: string; home: string; dest: any }> {
    const folder = destinationFolder();
    const home = homeFolder();
    temps.push(folder, home);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    return { folder, root: path.join(folder, 'hearth-backup'), home, dest };
  }

  /** Replaces a folder of the backup with a link to `target`. */
  function plantLink(at: string, target: string): void {
    fs.rmSync(at, { recursive: true, force: true });
    fs.symlinkSync(target, at);
  }

  /** The run failed with destination_unsafe, naming the place, and the Backups page says the same. */
  async function refused(dest: any, run: any, where: string): Promise<void> {
    assert.equal(run.state, 'failed', JSON.stringify(run));
    assert.equal(run.error_code, 'destination_unsafe');
    assert.ok(run.error.includes(where), `the owner is told where: ${run.error}`);
    assert.match(run.error, /Hearth did not put it there and did not follow it/);
    const shown = (await t.client.get('/admin/backup', { token: owner.access })).body.destinations.find((d: any) => d.id === dest.id);
    const last = run.kind === 'verify' ? shown.last_verify : shown.last_run;
    assert.equal(last.id, run.id);
    assert.equal(last.error_code, 'destination_unsafe');
    assert.equal(last.error, run.error);
  }

  test('a folder holding an old backup with a link in it is refused when added, in words, and its link is left alone', async () => {
    const folder = destinationFolder();
    const home = homeFolder();
    temps.push(folder, home);
    for (const sub of ['content', 'snapshots']) fs.mkdirSync(path.join(folder, 'hearth-backup', sub), { recursive: true });
    fs.symlinkSync(home, path.join(folder, 'hearth-backup', 'tmp'));
    const before = treeOf(home);
    const res = await t.client.post('/admin/backup/destinations', { kind: 'folder', path: folder }, { token: owner.access });
    assertError(res, 409, 'destination_unsafe', 'path');
    assert.match(res.body.error.message, /hearth-backup\/tmp is a link to another place/);
    assert.deepEqual(treeOf(home), before);
    assert.equal(fs.readlinkSync(path.join(folder, 'hearth-backup', 'tmp')), home);
  });

  test('hearth-backup itself made a link to a home folder: the run stops there', async () => {
    const { folder, root, home, dest } = await destinationAndHome();
    fs.mkdirSync(path.join(home, 'tmp'));
    const before = treeOf(home);
    plantLink(root, home);
    await refused(dest, await backUp(t.client, owner.access, dest.id), `${folder}, hearth-backup is a link to another place`);
    assert.deepEqual(treeOf(home), before);
  });

  test('tmp/ made a link to a home folder: the run stops, and the home folder is not emptied', async () => {
    const { root, home, dest } = await destinationAndHome();
    const before = treeOf(home);
    plantLink(path.join(root, 'tmp'), home);
    await refused(dest, await backUp(t.client, owner.access, dest.id), 'hearth-backup/tmp is a link to another place');
    assert.deepEqual(treeOf(home), before);
  });

  test('snapshots/ made a link to a home folder: its folders are not removed, and no snapshot is written there', async () => {
    const { root, home, dest } = await destinationAndHome();
    const before = treeOf(home);
    plantLink(path.join(root, 'snapshots'), home);
    await refused(dest, await backUp(t.client, owner.access, dest.id), 'hearth-backup/snapshots is a link to another place');
    assert.deepEqual(treeOf(home), before);
  });

  test('content/internal made a link to a home folder: no family file is written there', async () => {
    const { root, home, dest } = await destinationAndHome();
    fs.mkdirSync(path.join(root, 'content', 'internal'));
    const before = treeOf(home);
    plantLink(path.join(root, 'content', 'internal'), home);
    await refused(dest, await backUp(t.client, owner.access, dest.id), 'hearth-backup/content/internal is a link to another place');
    assert.deepEqual(treeOf(home), before);
  });

  test("content/ made a link to the destination's own parent folder: nothing beside the destination is removed or written", async () => {
    // The destination's parent, as on a USB disk: the backup folder beside the family's other folders.
    const disk = homeFolder();
    temps.push(disk);
    const folder = path.join(disk, 'backups');
    fs.mkdirSync(folder);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const before = treeOf(disk);
    const content = path.join(folder, 'hearth-backup', 'content');
    plantLink(content, '../..');
    delete before['backups/hearth-backup/content'];
    await refused(dest, await backUp(t.client, owner.access, dest.id), 'hearth-backup/content is a link to another place');
    const after = treeOf(disk);
    assert.equal(after['backups/hearth-backup/content'], 'link -> ../..');
    delete after['backups/hearth-backup/content'];
    assert.deepEqual(after, before);
  });

  test('a link planted between runs (a shard of content, and a file) stops the next run; the earlier snapshot and the home folder stay as they were', async () => {
    const { folder, root, home, dest } = await destinationAndHome();
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded', JSON.stringify(first));
    const entry = readManifest(folder, first.snapshot_id).files.find((f) => f.path.startsWith('content/'))!;
    const shard = path.dirname(path.join(root, entry.path));

    // A shard replaced by a link to a copy of it at home: same names, same bytes, somewhere else.
    const copy = path.join(home, 'copy-of-shard');
    fs.cpSync(shard, copy, { recursive: true });
    plantLink(shard, copy);
    const before = treeOf(home);
    const inBackup = treeOf(root);
    await refused(dest, await backUp(t.client, owner.access, dest.id), `hearth-backup/${path.dirname(entry.path)} is a link`);
    assert.deepEqual(treeOf(home), before);
    const now = treeOf(root);
    for (const [name, what] of Object.entries(inBackup)) assert.equal(now[name], what, `${name} is as it was`);

    // The shard back, and one file of it made a link to its copy at home.
    fs.rmSync(shard);
    fs.cpSync(copy, shard, { recursive: true });
    plantLink(path.join(root, entry.path), path.join(copy, path.basename(entry.path)));
    await refused(dest, await backUp(t.client, owner.access, dest.id), `hearth-backup/${entry.path} is a link`);
    await refused(dest, await backUp(t.client, owner.access, dest.id, 'verify'), `hearth-backup/${entry.path} is a link`);
    assert.deepEqual(treeOf(home), before);
    assert.ok(fs.existsSync(path.join(root, 'snapshots', first.snapshot_id, 'manifest.json')), 'the earlier snapshot is still there');
  });
});
