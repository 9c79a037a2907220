import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 19, finding 1: the clean-up takes away only what the database itself says is gone, and
 * moves it to the library's holding folder for 30 days instead of deleting it; maintenance
 * empties what has been held longer. Removing a library never deletes a file the database
 * has no record of.
 */

const DAY = 24 * 60 * 60_000;

function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe('the holding folder', () => {
  let roots: string;
  let t: TestServer;
  let owner: SignedIn;
  let dataDir: string;

  before(async () => {
    roots = tempDir('hearth-holding-');
    t = await startTestServer({ mountsRoots: [roots] });
    dataDir = t.dataDir;
    owner = await setupOwner(t.client);
  });
  after(async () => {
    await t.close();
    fs.rmSync(roots, { recursive: true, force: true });
  });

  async function internalId(): Promise<string> {
    return (await t.client.get('/libraries', { token: owner.access })).body.items.find((l: any) => l.kind === 'internal').id;
  }

  test("a file deleted for good while its drive was away is moved to the drive's holding folder at the next start, not deleted", async () => {
    const folder = path.join(roots, 'usb');
    fs.mkdirSync(folder);
    const lib = (await t.client.post('/libraries', { name: 'USB', path: folder, make_default: true }, { token: owner.access })).body;
    const data = crypto.randomBytes(12_345);
    const fileId = await uploadFile(t.api, owner.access, data, { filename: 'gone.bin' });
    const [blobFile] = filesUnder(path.join(folder, 'blobs'));
    assert.ok(blobFile);
    assert.equal((await t.client.patch(`/libraries/${await internalId()}/set-default`, undefined, { token: owner.access })).status, 204);

    // The drive is away while the file is deleted for good: its content cannot go yet.
    fs.renameSync(folder, `${folder}-away`);
    await t.server.runMaintenance();
    assert.equal((await t.client.delete(`/nodes/${fileId}`, { token: owner.access })).status, 200);
    assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: owner.access })).status, 204);
    fs.renameSync(`${folder}-away`, folder);
    await t.server.runMaintenance();
    assert.deepEqual(filesUnder(path.join(folder, 'blobs')), [blobFile], 'still there until the clean-up');

    await t.server.close();
    t = await startTestServer({ mountsRoots: [roots], dataDir });
    owner = await login(t.client, owner.username, owner.password);
    const held = () => filesUnder(path.join(folder, 'holding'));
    await until(() => held().length === 1, 'the deleted file to be held');
    assert.deepEqual(filesUnder(path.join(folder, 'blobs')), [], 'gone from the library');
    const [heldFile] = held();
    assert.match(heldFile!, new RegExp(`^\\d{4}-\\d{2}-\\d{2}/blobs/${path.basename(blobFile!)}$`));
    assert.ok(fs.readFileSync(path.join(folder, 'holding', heldFile!)).equals(data), 'held whole, byte for byte');
    assert.equal(lib.id.length > 0, true);
  });

  test('maintenance empties the days held longer than 30 days and keeps the others (and what is not the server’s)', async () => {
    const holding = path.join(dataDir, 'files', 'holding');
    const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const days = { old: '2000-01-01', month: dayOf(Date.now() - 32 * DAY), recent: dayOf(Date.now() - 29 * DAY), today: dayOf(Date.now()) };
    for (const day of Object.values(days)) {
      fs.mkdirSync(path.join(holding, day, 'blobs'), { recursive: true });
      fs.writeFileSync(path.join(holding, day, 'blobs', `01JHELD${day.replaceAll('-', '')}0000000`), day);
    }
    fs.mkdirSync(path.join(holding, 'notes'));
    fs.writeFileSync(path.join(holding, 'notes', 'owner.txt'), 'mine');
    await t.server.runMaintenance();
    assert.deepEqual(fs.readdirSync(holding).sort(), [days.recent, days.today, 'notes'].sort());
  });

  test('removing a library is refused while its holding folder keeps what a clean-up took, saying from which day it can go; then the held days go and what is not the server’s stays', async () => {
    const folder = path.join(roots, 'holding-removal');
    fs.mkdirSync(folder);
    const lib = (await t.client.post('/libraries', { name: 'Held', path: folder }, { token: owner.access })).body;
    const today = new Date().toISOString().slice(0, 10);
    const held = path.join(folder, 'holding', today, 'blobs', '01JHELDBYTHECLEANUP000000');
    fs.mkdirSync(path.dirname(held), { recursive: true });
    fs.writeFileSync(held, 'taken by a clean-up today');
    fs.mkdirSync(path.join(folder, 'holding', 'notes'));
    fs.writeFileSync(path.join(folder, 'holding', 'notes', 'owner.txt'), 'mine');

    const refused = await t.client.delete(`/libraries/${lib.id}`, { token: owner.access });
    assertError(refused, 409, 'library_not_empty');
    const removable = new Date(Date.parse(`${today}T00:00:00Z`) + 31 * DAY).toISOString().slice(0, 10);
    assert.match(refused.body.error.message, new RegExp(`can be removed from ${removable}`));
    assert.equal(fs.readFileSync(held, 'utf8'), 'taken by a clean-up today', 'the held file stays');
    assert.ok(
      (await t.client.get('/libraries', { token: owner.access })).body.items.some((l: any) => l.id === lib.id),
      'the library stays',
    );

    // Held past the period (maintenance has not emptied it yet): nothing of it is needed any more.
    fs.renameSync(path.join(folder, 'holding', today), path.join(folder, 'holding', '2000-01-01'));
    assert.equal((await t.client.delete(`/libraries/${lib.id}`, { token: owner.access })).status, 204);
    assert.deepEqual(
      filesUnder(folder),
      ['holding/notes/owner.txt'],
      'the held days, marker, blobs/ and tmp/ gone; the owner’s own note stays',
    );
  });

  test('removing a library whose folder holds a content file this server has no record of is refused, and the file stays', async () => {
    const folder = path.join(roots, 'newer');
    fs.mkdirSync(folder);
    const lib = (await t.client.post('/libraries', { name: 'Newer', path: folder }, { token: owner.access })).body;
    const stranger = path.join(folder, 'blobs', 'zz', '01JNEWERTHANTHEDATABASE0zz');
    fs.mkdirSync(path.dirname(stranger), { recursive: true });
    fs.writeFileSync(stranger, 'a photo from after the backup');
    assertError(await t.client.delete(`/libraries/${lib.id}`, { token: owner.access }), 409, 'library_not_empty');
    assert.equal(fs.readFileSync(stranger, 'utf8'), 'a photo from after the backup');
    fs.rmSync(stranger);
    assert.equal((await t.client.delete(`/libraries/${lib.id}`, { token: owner.access })).status, 204);
  });
});
