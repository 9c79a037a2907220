import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, destinationFolder } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/** The next time the server's local clock reads hh:mm, as the server computes it. */
function nextLocal(hour: number, minute: number, from = Date.now()): number {
  const at = new Date(from);
  at.setHours(hour, minute, 0, 0);
  if (at.getTime() <= from) {
    at.setDate(at.getDate() + 1);
    at.setHours(hour, minute, 0, 0);
  }
  return at.getTime();
}

describe('backup destinations: the owner adds, changes and forgets folders; nobody else can', () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;
  let mounts: string;
  const folders: string[] = [];

  before(async () => {
    mounts = destinationFolder('hearth-backup-mounts-');
    t = await startTestServer({ mountsRoots: [mounts] });
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'member');
  });
  after(async () => {
    await t.close();
    for (const folder of [...folders, mounts]) fs.rmSync(folder, { recursive: true, force: true });
  });

  function folder(): string {
    const made = destinationFolder();
    folders.push(made);
    return made;
  }

  test('a folder destination is added encrypted, with a nightly 03:00 schedule and retention of the 5 latest, 7 daily, 4 weekly and 12 monthly, and listed', async () => {
    const dest = folder();
    const before = Date.now();
    // As a client that says nothing of encryption: a disk that leaves the house must not hand anyone the family's files.
    const res = await t.client.post(
      '/admin/backup/destinations',
      { kind: 'folder', path: dest, name: 'USB disk' },
      { token: owner.access },
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const added = res.body;
    assert.equal(added.kind, 'folder');
    assert.equal(added.name, 'USB disk');
    assert.equal(added.path, dest);
    assert.equal(added.encrypted, true);
    assert.ok(fs.existsSync(path.join(dest, 'hearth-backup', 'age-recipient.txt')), 'the folder is marked encrypted');
    assert.deepEqual(added.schedule, { daily_at: '03:00' });
    assert.deepEqual(added.retention, { last: 5, daily: 7, weekly: 4, monthly: 12 });
    assert.equal(added.last_run, null);
    assert.equal(added.last_success_at, null);
    assert.ok(fs.statSync(path.join(dest, 'hearth-backup')).isDirectory(), 'the backup folder is made while the drive is surely there');
    assert.ok([nextLocal(3, 0, before), nextLocal(3, 0)].includes(added.next_run_at), 'the next run is the next 03:00 of this PC');

    const list = await t.client.get('/admin/backup', { token: owner.access });
    assert.equal(list.status, 200);
    assert.equal(list.body.running, null);
    assert.deepEqual(
      list.body.destinations.find((d: any) => d.id === added.id),
      added,
    );
  });

  test('a destination without a name is named after its folder', async () => {
    const dest = folder();
    const added = await addFolderDestination(t.client, owner.access, dest);
    assert.equal(added.name, path.basename(dest));
  });

  test('a folder that cannot hold a backup is refused with invalid_destination and words saying why', async () => {
    const refused = async (body: object, words: RegExp) => {
      const res = await t.client.post('/admin/backup/destinations', { kind: 'folder', ...body }, { token: owner.access });
      assertError(res, 400, 'invalid_destination', 'path');
      assert.match(res.body.error.message, words);
    };
    await refused({ path: 'backups/here' }, /full path/);
    await refused({ path: path.join(folder(), 'not-there') }, /does not exist/);
    await refused({ path: t.dataDir }, /inside the Hearth data folder/);
    fs.mkdirSync(path.join(t.dataDir, 'backups'));
    await refused({ path: path.join(t.dataDir, 'backups') }, /inside the Hearth data folder/);

    const libraryFolder = path.join(mounts, 'library');
    fs.mkdirSync(libraryFolder);
    const library = await t.client.post('/libraries', { name: 'Big disk', path: libraryFolder }, { token: owner.access });
    assert.equal(library.status, 201, JSON.stringify(library.body));
    fs.mkdirSync(path.join(libraryFolder, 'backups'));
    await refused({ path: path.join(libraryFolder, 'backups') }, /inside the storage place "Big disk"/);

    const file = path.join(folder(), 'a-file');
    fs.writeFileSync(file, 'x');
    await refused({ path: file }, /a file, not a folder/);

    const taken = folder();
    await addFolderDestination(t.client, owner.access, taken);
    await refused({ path: taken }, /already a backup destination/);
  });

  test('a folder the server cannot write to is refused', async (ctx) => {
    const dest = folder();
    if (process.getuid?.() === 0) {
      // Root writes through permissions: a read-only file system is what refuses it.
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', dest]);
      ctx.after(() => execFileSync('umount', [dest]));
    } else fs.chmodSync(dest, 0o500);
    const res = await t.client.post('/admin/backup/destinations', { kind: 'folder', path: dest }, { token: owner.access });
    assertError(res, 400, 'invalid_destination', 'path');
    assert.match(res.body.error.message, /cannot write/);
  });

  test('encrypt true (or nothing) makes an encrypted destination, only false a plain one', async () => {
    const encrypted = await addFolderDestination(t.client, owner.access, folder(), { encrypt: true });
    assert.equal(encrypted.encrypted, true);
    const plain = await addFolderDestination(t.client, owner.access, folder(), { encrypt: false });
    assert.equal(plain.encrypted, false);
    const unsaid = await t.client.post('/admin/backup/destinations', { kind: 'folder', path: folder() }, { token: owner.access });
    assert.equal(unsaid.status, 201, JSON.stringify(unsaid.body));
    assert.equal(unsaid.body.encrypted, true);
  });

  test('the owner renames a destination, moves its time, changes its retention, or makes it manual only', async () => {
    const added = await addFolderDestination(t.client, owner.access, folder());
    const changed = await t.client.patch(
      `/admin/backup/destinations/${added.id}`,
      { name: 'Shed disk', schedule: { daily_at: '22:30' }, retention: { daily: 3, weekly: 2, monthly: 1 } },
      { token: owner.access },
    );
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal(changed.body.name, 'Shed disk');
    assert.deepEqual(changed.body.schedule, { daily_at: '22:30' });
    assert.deepEqual(
      changed.body.retention,
      { last: 5, daily: 3, weekly: 2, monthly: 1 },
      'a client that knows only days, weeks and months leaves the latest as they were',
    );
    assert.ok(changed.body.next_run_at > Date.now() - 60_000 && new Date(changed.body.next_run_at).getHours() === 22);
    assert.equal(new Date(changed.body.next_run_at).getMinutes(), 30);

    const manual = await t.client.patch(`/admin/backup/destinations/${added.id}`, { schedule: null }, { token: owner.access });
    assert.equal(manual.status, 200);
    assert.equal(manual.body.schedule, null);
    assert.equal(manual.body.next_run_at, null);
    const fewer = await t.client.patch(
      `/admin/backup/destinations/${added.id}`,
      { retention: { last: 2, daily: 3, weekly: 2, monthly: 1 } },
      { token: owner.access },
    );
    assert.deepEqual(fewer.body.retention, { last: 2, daily: 3, weekly: 2, monthly: 1 });

    assertError(
      await t.client.patch(`/admin/backup/destinations/${added.id}`, { schedule: { daily_at: '25:00' } }, { token: owner.access }),
      400,
      'invalid_input',
    );
    assertError(
      await t.client.patch(
        `/admin/backup/destinations/${added.id}`,
        { retention: { daily: -1, weekly: 0, monthly: 0 } },
        { token: owner.access },
      ),
      400,
      'invalid_input',
    );
    assertError(
      await t.client.patch(
        `/admin/backup/destinations/${added.id}`,
        { retention: { last: 101, daily: 1, weekly: 0, monthly: 0 } },
        { token: owner.access },
      ),
      400,
      'invalid_input',
    );
    assertError(
      await t.client.patch(`/admin/backup/destinations/${added.id}`, { name: '  ' }, { token: owner.access }),
      400,
      'invalid_input',
      'name',
    );
    assertError(await t.client.patch('/admin/backup/destinations/nope', { name: 'x' }, { token: owner.access }), 404, 'not_found');
  });

  test('forgetting a destination leaves the folder and what is in it', async () => {
    const dest = folder();
    fs.writeFileSync(path.join(dest, 'keep-me'), 'family');
    const added = await addFolderDestination(t.client, owner.access, dest);
    const res = await t.client.delete(`/admin/backup/destinations/${added.id}`, { token: owner.access });
    assert.equal(res.status, 204);
    const list = await t.client.get('/admin/backup', { token: owner.access });
    assert.ok(!list.body.destinations.some((d: any) => d.id === added.id));
    assert.equal(fs.readFileSync(path.join(dest, 'keep-me'), 'utf8'), 'family');
    assertError(await t.client.delete(`/admin/backup/destinations/${added.id}`, { token: owner.access }), 404, 'not_found');
  });

  test('a family member gets what every owner-only route answers, and no token gets 401', async () => {
    const dest = folder();
    const added = await addFolderDestination(t.client, owner.access, dest);
    const asMember = { token: member.access };
    // The answer the existing console routes give a member.
    const users = await t.client.get('/admin/users', asMember);
    assertError(users, 403, 'forbidden');
    assertError(await t.client.get('/admin/backup', asMember), 403, 'forbidden');
    assertError(await t.client.post('/admin/backup/destinations', { kind: 'folder', path: folder() }, asMember), 403, 'forbidden');
    assertError(await t.client.patch(`/admin/backup/destinations/${added.id}`, { name: 'mine' }, asMember), 403, 'forbidden');
    assertError(await t.client.delete(`/admin/backup/destinations/${added.id}`, asMember), 403, 'forbidden');
    assertError(await t.client.post(`/admin/backup/destinations/${added.id}/run`, undefined, asMember), 403, 'forbidden');
    assertError(await t.client.post(`/admin/backup/destinations/${added.id}/verify`, undefined, asMember), 403, 'forbidden');
    assertError(await t.client.get(`/admin/backup/destinations/${added.id}/snapshots`, asMember), 403, 'forbidden');
    assertError(await t.client.get('/admin/backup/runs/whatever', asMember), 403, 'forbidden');
    assertError(await t.client.get('/admin/backup'), 401, 'unauthorized');
    assert.deepEqual(fs.readdirSync(path.join(dest, 'hearth-backup', 'snapshots')), [], 'nothing was backed up for the member');
  });
});
