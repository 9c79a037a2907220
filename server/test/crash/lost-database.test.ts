import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { openConnection, openDatabase } from '../../src/store/database/db.ts';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnRefusedServer, spawnServer, type SpawnedServer } from '../helpers/spawn.ts';
import { uploadFile } from '../helpers/upload.ts';

/*
 * Issue 19, finding 1: a missing, emptied, fresh or foreign hearth.db beside the family's files
 * used to start as a new install, whose start-up clean-up deleted every file ("removed
 * orphaned content files", 18 of 18) and whose setup anyone could claim. Now the server
 * refuses to start, says what is wrong and how to restore, and touches nothing; with the right
 * database put back, everything is there. A database restored from an older backup starts,
 * and keeps the files it has never seen.
 */

interface Family {
  dataDir: string;
  files: { id: string; data: Buffer }[];
  /** hearth.db as it was when the server stopped cleanly: a backup. */
  backup: Buffer;
  serverId: string;
}

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await makeTempDir(prefix);
  cleanups.push(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

async function signIn(server: SpawnedServer): Promise<string> {
  const login = await new ApiClient(server.api).post('/auth/login', OWNER);
  assert.equal(login.status, 200, JSON.stringify(login.body));
  return login.body.access_token;
}

async function download(server: SpawnedServer, token: string, id: string): Promise<{ status: number; body: Buffer }> {
  const res = await fetch(`${server.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()) };
}

/** Every file under `dir`, relative, with the hash of its bytes. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, full)] = crypto
      .createHash('sha256')
      .update(await fs.readFile(full))
      .digest('hex');
  }
  return out;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** A family's server that ran, took three files (on `env`'s default library when it says so) and stopped cleanly. */
async function familyServer(
  env: Record<string, string> = {},
  beforeUploads?: (server: SpawnedServer, token: string) => Promise<void>,
): Promise<Family> {
  const dataDir = await tempDir('hearth-lost-db-');
  const server = await spawnServer(dataDir, env);
  try {
    const setup = await new ApiClient(server.api).post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const token = setup.body.access_token as string;
    await beforeUploads?.(server, token);
    const files = [];
    for (let i = 0; i < 3; i++) {
      const data = crypto.randomBytes(20_000 + i);
      files.push({ id: await uploadFile(server.api, token, data, { filename: `photo-${i}.jpg` }), data });
    }
    const status = await new ApiClient(server.api).get('/status');
    await server.stop();
    return { dataDir, files, backup: await fs.readFile(path.join(dataDir, 'hearth.db')), serverId: status.body.server_id };
  } catch (error) {
    await server.kill9();
    throw error;
  }
}

/** Puts the backup back as an owner would: the database file, without a -wal or -shm of another. */
async function restore(family: Family): Promise<void> {
  for (const suffix of ['-wal', '-shm']) await fs.rm(path.join(family.dataDir, `hearth.db${suffix}`), { force: true });
  await fs.writeFile(path.join(family.dataDir, 'hearth.db'), family.backup);
}

/** Restarts on the restored database and checks that every file of the family downloads. */
async function assertAllBack(family: Family, env: Record<string, string> = {}): Promise<void> {
  const server = await spawnServer(family.dataDir, env);
  try {
    const token = await signIn(server);
    for (const file of family.files) {
      const got = await download(server, token, file.id);
      assert.equal(got.status, 200);
      assert.ok(got.body.equals(file.data), 'byte-identical');
    }
    assert.equal((await new ApiClient(server.api).get('/status')).body.setup_required, false);
  } finally {
    await server.stop();
  }
}

function assertRefusal(refused: { code: number | null; output: string }, wording: RegExp): void {
  assert.equal(refused.code, 1, refused.output);
  assert.match(refused.output, /^Hearth did not start: /m);
  assert.match(refused.output, wording);
  assert.match(refused.output, /from your backup \(README, "Where the data lives, and backups"\)/);
  assert.doesNotMatch(refused.output, /\n\s+at /, 'a message, not a stack trace');
  assert.doesNotMatch(refused.output, /removed|orphan/i);
}

describe('a data folder whose database is lost', () => {
  test('a deleted hearth.db beside the files: refused with how to restore, nothing written or removed; with the backup put back every file downloads', async () => {
    const family = await familyServer();
    const before = await tree(family.dataDir);
    await fs.rm(path.join(family.dataDir, 'hearth.db'));

    const refused = await spawnRefusedServer(family.dataDir);
    assertRefusal(refused, /hearth\.db is missing, but the family's files are stored in this data folder/);
    assert.match(refused.output, /let anyone on the network claim the owner account/);
    assert.ok(!(await exists(path.join(family.dataDir, 'hearth.db'))), 'no new database was made');
    const after = await tree(family.dataDir);
    delete before['hearth.db'];
    assert.deepEqual(after, before, 'every content file, the keys and the seal are as they were');

    await restore(family);
    await assertAllBack(family);
  });

  test('an emptied (0-byte) hearth.db: refused likewise, and it stays 0 bytes', async () => {
    const family = await familyServer();
    const blobsBefore = await tree(path.join(family.dataDir, 'files'));
    await fs.writeFile(path.join(family.dataDir, 'hearth.db'), '');

    const refused = await spawnRefusedServer(family.dataDir);
    assertRefusal(refused, /hearth\.db is empty \(0 bytes\)/);
    assert.equal((await fs.stat(path.join(family.dataDir, 'hearth.db'))).size, 0);
    assert.deepEqual(await tree(path.join(family.dataDir, 'files')), blobsBefore);

    await restore(family);
    await assertAllBack(family);
  });

  test('the hearth.db of another Hearth install, or one made anew, beside the files: refused, files untouched', async () => {
    const family = await familyServer();
    const other = await familyServer();
    const blobsBefore = await tree(path.join(family.dataDir, 'files'));

    await fs.writeFile(path.join(family.dataDir, 'hearth.db'), other.backup);
    assertRefusal(await spawnRefusedServer(family.dataDir), /is the database of another Hearth install/);

    // What the old start-up made of a missing database: a new, empty one.
    await fs.rm(path.join(family.dataDir, 'hearth.db'));
    openDatabase(path.join(family.dataDir, 'hearth.db')).close();
    assertRefusal(await spawnRefusedServer(family.dataDir), /is a database made anew, not the one these files belong to/);

    assert.deepEqual(await tree(path.join(family.dataDir, 'files')), blobsBefore);
    await restore(family);
    await assertAllBack(family);
  });

  test('a hearth.db damaged beyond reading (not a database any more): refused with how to restore, files untouched', async () => {
    const family = await familyServer();
    const blobsBefore = await tree(path.join(family.dataDir, 'files'));
    await fs.writeFile(path.join(family.dataDir, 'hearth.db'), crypto.randomBytes(8192));

    assertRefusal(await spawnRefusedServer(family.dataDir), /hearth\.db cannot be read \(/);
    assert.deepEqual(await tree(path.join(family.dataDir, 'files')), blobsBefore);
    await restore(family);
    await assertAllBack(family);
  });

  test('a database whose accounts are gone while the files are stored: refused, so nobody can claim the owner account', async () => {
    const family = await familyServer();
    const db = openConnection(path.join(family.dataDir, 'hearth.db'));
    db.pragma('foreign_keys = ON');
    db.exec('DELETE FROM users');
    db.close();

    const refused = await spawnRefusedServer(family.dataDir);
    assertRefusal(refused, /has no accounts left, though the family's files are stored here/);
    assert.equal(
      Object.keys(await tree(path.join(family.dataDir, 'files', 'blobs'))).length,
      family.files.length,
      'the content files are all there',
    );

    await restore(family);
    await assertAllBack(family);
  });

  test("the files on a library drive and hearth.db deleted: refused; the drive's files untouched, and back with the database", async () => {
    const roots = await tempDir('hearth-lost-db-drive-');
    const libraryFolder = path.join(roots, 'usb', 'Hearth');
    await fs.mkdir(libraryFolder, { recursive: true });
    const env = { MOUNTS_ROOT: roots };
    const family = await familyServer(env, async (server, token) => {
      const res = await new ApiClient(server.api).post('/libraries', { name: 'USB', path: libraryFolder, make_default: true }, { token });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });
    assert.deepEqual(Object.keys(await tree(path.join(family.dataDir, 'files', 'blobs'))), [], 'the internal library holds nothing');
    const onDrive = await tree(libraryFolder);
    assert.equal(Object.keys(onDrive).filter((f) => f.startsWith('blobs/')).length, 3);
    await fs.rm(path.join(family.dataDir, 'hearth.db'));

    const refused = await spawnRefusedServer(family.dataDir, env);
    assertRefusal(refused, /hearth\.db is missing, but this data folder has had one/);
    assert.deepEqual(await tree(libraryFolder), onDrive);

    await restore(family);
    await assertAllBack(family, env);
  });

  test('a data folder from before the seal, its files all on a library drive, and hearth.db deleted: refused too (an old marker or the blob folder shows a database lived there)', async () => {
    const roots = await tempDir('hearth-lost-db-preseal-');
    const libraryFolder = path.join(roots, 'usb', 'Hearth');
    await fs.mkdir(libraryFolder, { recursive: true });
    const env = { MOUNTS_ROOT: roots };
    const family = await familyServer(env, async (server, token) => {
      const res = await new ApiClient(server.api).post('/libraries', { name: 'USB', path: libraryFolder, make_default: true }, { token });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    });
    const filesDir = path.join(family.dataDir, 'files');
    const seal = path.join(filesDir, '.hearth-library');
    const onDrive = await tree(libraryFolder);
    // As a version from before the seal left it: no marker in files/, the internal library empty.
    await fs.rm(seal);
    await fs.rm(path.join(family.dataDir, 'hearth.db'));
    assert.deepEqual(Object.keys(await tree(filesDir)), [], 'the internal library holds no file at all');

    let refused = await spawnRefusedServer(family.dataDir, env);
    assertRefusal(refused, /hearth\.db is missing, but this data folder has had one/);
    assert.ok(!(await exists(path.join(family.dataDir, 'hearth.db'))), 'no new database was made');

    // A marker alone (the first format: the library id on its own) shows it as well.
    await fs.rm(path.join(filesDir, 'blobs'), { recursive: true });
    await fs.rm(path.join(filesDir, 'tmp'), { recursive: true });
    await fs.writeFile(seal, 'internal');
    await fs.writeFile(path.join(family.dataDir, 'hearth.db'), '');
    refused = await spawnRefusedServer(family.dataDir, env);
    assertRefusal(refused, /hearth\.db is empty \(0 bytes\), but this data folder has had one/);
    assert.deepEqual(await tree(libraryFolder), onDrive, "the drive's files untouched");

    await restore(family);
    await assertAllBack(family, env);
  });

  test('a database restored from an older backup of the same install starts, and keeps the files newer than it where they are', async () => {
    const family = await familyServer();
    let newer!: { id: string; data: Buffer };
    const server = await spawnServer(family.dataDir);
    try {
      const data = crypto.randomBytes(30_000);
      newer = { id: await uploadFile(server.api, await signIn(server), data, { filename: 'after-the-backup.jpg' }), data };
    } finally {
      await server.stop();
    }
    const blobsBefore = await tree(path.join(family.dataDir, 'files', 'blobs'));
    assert.equal(Object.keys(blobsBefore).length, 4);
    await restore(family);

    const again = await spawnServer(family.dataDir);
    try {
      const token = await signIn(again);
      for (const file of family.files) assert.ok((await download(again, token, file.id)).body.equals(file.data));
      assert.equal((await download(again, token, newer.id)).status, 404, 'the older database does not know it');
      // The walk runs once the server answers; its report says when it is done.
      for (let i = 0; i < 200 && !/kept content files this database has no record of/.test(again.output()); i++)
        await new Promise((r) => setTimeout(r, 50));
      assert.match(again.output(), /kept content files this database has no record of.*"count":1/);
    } finally {
      await again.stop();
    }
    assert.deepEqual(await tree(path.join(family.dataDir, 'files', 'blobs')), blobsBefore, 'not one content file removed or moved');
    assert.ok(!(await exists(path.join(family.dataDir, 'files', 'holding'))), 'nothing was even held');
  });

  test('a data folder from before the seal is sealed by a database that knows its files; one that knows none of them is refused', async () => {
    const family = await familyServer();
    const seal = path.join(family.dataDir, 'files', '.hearth-library');
    assert.equal(await fs.readFile(seal, 'utf8'), `internal\ndatabase ${family.serverId}\n`);

    await fs.rm(seal);
    await assertAllBack(family);
    assert.equal(await fs.readFile(seal, 'utf8'), `internal\ndatabase ${family.serverId}\n`, 'sealed again on its first start');

    const other = await familyServer();
    await fs.rm(seal);
    await fs.writeFile(path.join(family.dataDir, 'hearth.db'), other.backup);
    assertRefusal(await spawnRefusedServer(family.dataDir), /is a database that knows none of the files stored here/);
    assert.ok(!(await exists(seal)), 'and it is not sealed to it');
  });
});
