import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import {
  addFolderDestination,
  backUp,
  blobHolding,
  destinationFolder,
  finishedRun,
  holdContentFile,
  readManifest,
  startRun,
} from '../../helpers/backup.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

describe('backup runs: a consistent, incremental, verifiable copy of the whole server in a folder', () => {
  let t: TestServer;
  let owner: SignedIn;
  const folders: string[] = [];
  const upload = async (size: number, name: string) => {
    const data = crypto.randomBytes(size);
    const id = await uploadFile(t.api, owner.access, data, { filename: name });
    return { id, data };
  };
  const destination = async (extra: object = {}) => {
    const folder = destinationFolder();
    folders.push(folder);
    return { folder, dest: await addFolderDestination(t.client, owner.access, folder, extra) };
  };

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  });

  test('a backup holds the database, keys.json and every content file, each listed in the manifest with its SHA-256; the copy restores by hand', async () => {
    const files = [await upload(200_000, 'a.bin'), await upload(1, 'b.txt'), await upload(3_000_000, 'c.bin')];
    const { folder, dest } = await destination();
    const run = await backUp(t.client, owner.access, dest.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.equal(run.kind, 'backup');
    assert.deepEqual(run.problems, []);
    assert.equal(run.error, undefined);
    assert.equal(run.files, 2 + files.length);
    assert.ok(run.finished_at >= run.started_at);

    const snapshots = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
    assert.equal(snapshots.status, 200);
    assert.equal(snapshots.body.items.length, 1);
    const [snapshot] = snapshots.body.items;
    assert.equal(snapshot.id, run.snapshot_id);
    assert.equal(snapshot.files, run.files);
    assert.equal(snapshot.bytes, run.bytes);

    // By hand: the manifest names every file, each one is there with its size and SHA-256.
    const root = path.join(folder, 'hearth-backup');
    const manifest = readManifest(folder, snapshot.id);
    assert.equal(manifest.format, 'hearth-backup/2');
    assert.equal(manifest.files.length, run.files);
    for (const file of manifest.files) {
      const bytes = fs.readFileSync(path.join(root, file.path));
      assert.equal(bytes.length, file.size, file.path);
      assert.equal(sha256(bytes), file.sha256, file.path);
    }
    for (const { data } of files)
      assert.ok(
        manifest.files.some((f) => f.sha256 === sha256(data) && f.path.startsWith('content/internal/')),
        'each upload is in the backup',
      );
    assert.ok(!manifest.files.some((f) => /thumb/.test(f.path)), 'no thumbnails');
    // keys.json is sealed to the emergency kit (backup-holds-no-clear-keys.test.ts says what it holds).
    assert.match(fs.readFileSync(path.join(root, 'snapshots', snapshot.id, 'keys.json'), 'latin1'), /^age-encryption\.org\/v1\n/);
    assert.deepEqual(fs.readdirSync(path.join(root, 'tmp')), [], 'nothing half-written left');

    // The database copy opens and knows the files and the owner, and the settings are in it.
    const db = openConnection(path.join(root, 'snapshots', snapshot.id, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      assert.equal(db.pragma('integrity_check'), 'ok');
      for (const { id } of files) assert.ok(db.prepare('SELECT id FROM nodes WHERE id = ?').get(id), `node ${id} is in the copy`);
      assert.ok(db.prepare("SELECT id FROM users WHERE username = 'owner'").get());
      assert.ok(db.prepare("SELECT name FROM sqlite_master WHERE name = 'settings'").get());
      for (const row of db.prepare('SELECT library_id, blob FROM node_versions').all() as { library_id: string; blob: string }[]) {
        assert.ok(
          manifest.files.some((f) => f.path === `content/${row.library_id}/${row.blob.slice(-2)}/${row.blob}`),
          `content ${row.blob} is listed`,
        );
      }
    } finally {
      db.close();
    }

    const overview = await t.client.get('/admin/backup', { token: owner.access });
    const shown = overview.body.destinations.find((d: any) => d.id === dest.id);
    assert.equal(shown.last_run.id, run.id);
    assert.equal(shown.last_success_at, run.finished_at);
    assert.equal(shown.stored_bytes, run.bytes, 'one snapshot: the destination holds its files, database included');
  });

  test('a second run copies only the new content: the database, keys.json and the one new photo', async () => {
    await upload(100_000, 'before.bin');
    const { folder, dest } = await destination();
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded');
    const added = await upload(500_000, 'new.bin');
    const second = await backUp(t.client, owner.access, dest.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    assert.equal(second.files, first.files + 1);
    const manifest = readManifest(folder, second.snapshot_id);
    const metadata = manifest.files.filter((f) => f.path.startsWith('snapshots/')).reduce((sum, f) => sum + f.size, 0);
    assert.equal(second.bytes_copied, metadata + added.data.length, 'only the database, keys.json and the new file were written');
    const snapshots = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access });
    // Retention keeps the latest few whatever their day: the first run of today stays beside the second.
    assert.deepEqual(
      snapshots.body.items.map((s: any) => s.id),
      [second.snapshot_id, first.snapshot_id],
    );
  });

  test('progress and the end of a run arrive over the WebSocket, to owners only', async () => {
    const member = await createMember(t.client, owner, `m${crypto.randomBytes(3).toString('hex')}`);
    const ownerSocket = await EventSocket.open(t.url, owner.access);
    const memberSocket = await EventSocket.open(t.url, member.access);
    try {
      const { dest } = await destination();
      const run = await startRun(t.client, owner.access, dest.id);
      const ended = await ownerSocket.waitFor(
        (m) => m.type === 'backup.progress' && m.payload.run.id === run.id && m.payload.run.state !== 'running',
        30_000,
      );
      assert.equal(ended.payload.run.state, 'succeeded');
      assert.deepEqual(ended.payload.run, await finishedRun(t.client, owner.access, run.id));
      assert.ok(!memberSocket.pending().some((m) => m.type === 'backup.progress'), 'a member hears nothing of backups');
    } finally {
      ownerSocket.ws.close();
      memberSocket.ws.close();
    }
  });

  test('one run at a time, and the server keeps serving while a run waits on a file', async () => {
    const held = await upload(50_000, 'held.bin');
    const { dest } = await destination();
    const { dest: other } = await destination();
    const hold = holdContentFile(blobHolding(t.dataDir, held.data));
    try {
      const run = await startRun(t.client, owner.access, dest.id);
      await hold.reached;
      const overview = await t.client.get('/admin/backup', { token: owner.access });
      assert.equal(overview.body.running.id, run.id);
      assertError(
        await t.client.post(`/admin/backup/destinations/${dest.id}/run`, undefined, { token: owner.access }),
        409,
        'backup_running',
      );
      assertError(
        await t.client.post(`/admin/backup/destinations/${other.id}/verify`, undefined, { token: owner.access }),
        409,
        'backup_running',
      );
      assertError(await t.client.delete(`/admin/backup/destinations/${dest.id}`, { token: owner.access }), 409, 'backup_running');
      const listing = await t.client.get('/nodes?parent_id=root', { token: owner.access });
      assert.equal(listing.status, 200, 'the family is served while the backup runs');
      await hold.release();
      assert.equal((await finishedRun(t.client, owner.access, run.id)).state, 'succeeded');
    } finally {
      hold.restore();
    }
  });

  test('verify reads every file back; a changed byte is named in problems', async () => {
    const photo = await upload(300_000, 'photo.bin');
    const { folder, dest } = await destination();
    assert.equal((await backUp(t.client, owner.access, dest.id)).state, 'succeeded');
    const good = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(good.kind, 'verify');
    assert.equal(good.state, 'succeeded', JSON.stringify(good));
    assert.deepEqual(good.problems, []);
    assert.ok(good.files > 2);

    const snapshot = (await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access })).body.items[0];
    const entry = readManifest(folder, snapshot.id).files.find((f) => f.sha256 === sha256(photo.data))!;
    const file = path.join(folder, 'hearth-backup', entry.path);
    const bytes = fs.readFileSync(file);
    bytes[123_456] = bytes[123_456]! ^ 0x01;
    fs.writeFileSync(file, bytes);

    const bad = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(bad.state, 'failed');
    assert.match(bad.error, /One file in the backup is damaged/);
    assert.deepEqual(bad.problems, [{ path: entry.path, reason: 'The file is damaged: its content does not match its SHA-256.' }]);
    const shown = (await t.client.get('/admin/backup', { token: owner.access })).body.destinations.find((d: any) => d.id === dest.id);
    assert.equal(shown.last_verify.id, bad.id);
  });

  test('verify of a folder with no finished backup fails in words', async () => {
    const { dest } = await destination();
    const run = await backUp(t.client, owner.access, dest.id, 'verify');
    assert.equal(run.state, 'failed');
    assert.match(run.error, /no finished backup/);
  });

  test('retention prunes old snapshots after a run, and the content only they needed, never what a kept one needs', async () => {
    const { folder, dest } = await destination();
    const patched = await t.client.patch(
      `/admin/backup/destinations/${dest.id}`,
      { retention: { last: 0, daily: 1, weekly: 0, monthly: 0 } },
      { token: owner.access },
    );
    assert.equal(patched.status, 200);
    const gone = await upload(70_000, 'deleted-later.bin');
    const kept = await upload(80_000, 'kept.bin');
    const first = await backUp(t.client, owner.access, dest.id);
    assert.equal(first.state, 'succeeded');
    const goneEntry = readManifest(folder, first.snapshot_id).files.find((f) => f.sha256 === sha256(gone.data))!;
    assert.equal((await t.client.delete(`/nodes/${gone.id}`, { token: owner.access })).status, 200);
    const purge = await t.client.delete(`/nodes/${gone.id}/permanent`, { token: owner.access });
    assert.ok([200, 204].includes(purge.status), JSON.stringify(purge.body));

    const second = await backUp(t.client, owner.access, dest.id);
    assert.equal(second.state, 'succeeded', JSON.stringify(second));
    const snapshots = (await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots`, { token: owner.access })).body.items;
    assert.deepEqual(
      snapshots.map((s: any) => s.id),
      [second.snapshot_id],
      'one per day: the newest of today',
    );
    assert.ok(!fs.existsSync(path.join(folder, 'hearth-backup', 'snapshots', first.snapshot_id)));
    assert.ok(!fs.existsSync(path.join(folder, 'hearth-backup', goneEntry.path)), 'content only the pruned snapshot needed is gone');
    const keptEntry = readManifest(folder, second.snapshot_id).files.find((f) => f.sha256 === sha256(kept.data))!;
    assert.ok(fs.existsSync(path.join(folder, 'hearth-backup', keptEntry.path)));
    assert.equal((await backUp(t.client, owner.access, dest.id, 'verify')).state, 'succeeded', 'the kept snapshot is whole');
  });

  test('an unknown destination or run is 404', async () => {
    assertError(await t.client.post('/admin/backup/destinations/nope/run', undefined, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.post('/admin/backup/destinations/nope/verify', undefined, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.get('/admin/backup/destinations/nope/snapshots', { token: owner.access }), 404, 'not_found');
    assertError(await t.client.get('/admin/backup/runs/nope', { token: owner.access }), 404, 'not_found');
  });
});
