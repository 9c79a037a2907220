// The same photo is stored once: two accounts (or two folders) that upload the same bytes share
// one content file, each account still has its own file and is charged for it, and the file
// goes only with the last version that refers to it. A stored file whose bytes changed on disk
// is never shared, and versions stored by an older release get their SHA-256 in the background,
// their duplicates merged.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { createFolder, unique } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let members = 0;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

function freshAccount(): Promise<SignedIn> {
  return createMember(t.client, owner, `sharer${++members}`);
}

/** An upload, once the server has merged its file with any other holding the same bytes (after the answer). */
async function upload(
  who: SignedIn,
  data: Buffer,
  options: { parentId?: string; nodeId?: string; chunkSize?: number } = {},
): Promise<string> {
  const id = await uploadFile(t.api, who.access, data, { filename: `${unique('IMG')}.jpg`, ...options });
  await t.server.contentIdle();
  return id;
}

async function download(who: SignedIn, id: string): Promise<Buffer> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${who.access}` } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

async function usedBytes(who: SignedIn): Promise<number> {
  const res = await t.client.get('/me', { token: who.access });
  assert.equal(res.status, 200);
  return res.body.quota.used as number;
}

async function deleteForGood(who: SignedIn, id: string): Promise<void> {
  assert.equal((await t.client.delete(`/nodes/${id}/permanent`, { token: who.access })).status, 204);
}

/** Every content file on disk under blobs/, whatever its name. */
async function contentFiles(dataDir = t.dataDir): Promise<string[]> {
  const base = path.join(dataDir, 'files', 'blobs');
  const entries = await fs.readdir(base, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** The content files on disk holding exactly these bytes. */
async function filesHolding(data: Buffer, dataDir = t.dataDir): Promise<string[]> {
  const found: string[] = [];
  for (const file of await contentFiles(dataDir)) {
    const stat = await fs.stat(file);
    if (stat.size === data.length && (await fs.readFile(file)).equals(data)) found.push(file);
  }
  return found;
}

function blobOf(nodeId: string, dataDir = t.dataDir): string {
  const db = openConnection(path.join(dataDir, 'hearth.db'), { fileMustExist: true, readonly: true });
  try {
    const row = db
      .prepare('SELECT v.blob FROM node_versions v JOIN nodes n ON n.id = v.node_id AND n.version = v.version WHERE n.id = ?')
      .get(nodeId) as { blob: string } | undefined;
    assert.ok(row, `no version of ${nodeId}`);
    return row.blob;
  } finally {
    db.close();
  }
}

describe('the same bytes stored once', () => {
  test('two accounts uploading the same photo share one content file; each has its own file and is charged for it', async () => {
    const mum = await freshAccount();
    const dad = await freshAccount();
    const data = crypto.randomBytes(200_000);
    const mumBefore = await usedBytes(mum);
    const dadBefore = await usedBytes(dad);
    const mine = await upload(mum, data);
    const his = await upload(dad, data);
    assert.notEqual(mine, his);
    assert.equal((await filesHolding(data)).length, 1);
    assert.equal(blobOf(mine), blobOf(his));
    assert.equal(await usedBytes(mum), mumBefore + data.length);
    assert.equal(await usedBytes(dad), dadBefore + data.length);
    assert.deepEqual(await download(mum, mine), data);
    assert.deepEqual(await download(dad, his), data);
    // Neither sees the other's file.
    assertError(await t.client.get(`/nodes/${his}`, { token: mum.access }), 404, 'not_found');
  });

  test('deleting one account’s copy for good leaves the other’s whole; the file goes with the last one', async () => {
    const mum = await freshAccount();
    const dad = await freshAccount();
    const data = crypto.randomBytes(150_000);
    const mine = await upload(mum, data);
    const his = await upload(dad, data);
    const [file] = await filesHolding(data);
    const dadBefore = await usedBytes(dad);

    await deleteForGood(mum, mine);
    assert.deepEqual(await download(dad, his), data);
    assert.deepEqual(await filesHolding(data), [file]);
    assert.equal(await usedBytes(dad), dadBefore);

    await deleteForGood(dad, his);
    assert.deepEqual(await filesHolding(data), []);
  });

  test('two phones sending the same photo at the same moment keep one file between them', async () => {
    const mum = await freshAccount();
    const dad = await freshAccount();
    for (let attempt = 0; attempt < 4; attempt++) {
      const data = crypto.randomBytes(400_000);
      const [mine, his] = await Promise.all([upload(mum, data), upload(dad, data)]);
      assert.equal(blobOf(mine), blobOf(his));
      assert.equal((await filesHolding(data)).length, 1);
    }
  });

  test('an upload sent in several requests and one resumed share content as a whole upload does', async () => {
    const me = await freshAccount();
    const data = crypto.randomBytes(300_000);
    const whole = await upload(me, data);
    const chunked = await upload(me, data, { chunkSize: 64 * 1024 });
    assert.equal(blobOf(whole), blobOf(chunked));
    assert.equal((await filesHolding(data)).length, 1);
  });

  test('the same photo in two folders of one account is stored once, and trashing one keeps the other', async () => {
    const me = await freshAccount();
    const data = crypto.randomBytes(120_000);
    const folder = (await createFolder(t.client, me, 'Holiday')).id as string;
    const a = await upload(me, data);
    const b = await upload(me, data, { parentId: folder });
    assert.equal((await filesHolding(data)).length, 1);
    assert.equal((await t.client.delete(`/nodes/${a}`, { token: me.access })).status, 200);
    await deleteForGood(me, a);
    assert.deepEqual(await download(me, b), data);
  });

  test('a quota counts a shared photo in full: content already stored does not let an account pass its quota', async () => {
    const rich = await freshAccount();
    const tight = await freshAccount();
    const data = crypto.randomBytes(100_000);
    await upload(rich, data);
    const res = await t.client.patch(`/admin/users/${tight.userId}`, { quota_bytes: 50_000 }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await assert.rejects(upload(tight, data), /507|quota/i);
    assert.equal((await filesHolding(data)).length, 1);
  });

  test('restoring an earlier version refers to its content file instead of copying it', async () => {
    const me = await freshAccount();
    const first = crypto.randomBytes(90_000);
    const second = crypto.randomBytes(90_000);
    const id = await upload(me, first);
    await upload(me, second, { nodeId: id });
    const versions = await t.client.get(`/nodes/${id}/versions`, { token: me.access });
    const v1 = versions.body.items.find((v: { version: number }) => v.version === 1);
    const used = await usedBytes(me);
    const restored = await t.client.post(`/nodes/${id}/versions/${v1.id}/restore`, {}, { token: me.access });
    assert.equal(restored.status, 200, JSON.stringify(restored.body));
    assert.equal(restored.body.version, 3);
    assert.deepEqual(await download(me, id), first);
    assert.equal((await filesHolding(first)).length, 1);
    // The account is charged for the restored version, as for any version.
    assert.equal(await usedBytes(me), used + first.length);
    await deleteForGood(me, id);
    assert.deepEqual(await filesHolding(first), []);
    assert.deepEqual(await filesHolding(second), []);
  });

  test('a stored file whose bytes changed on disk is never shared: the new upload keeps its own bytes', async () => {
    const me = await freshAccount();
    const other = await freshAccount();
    const data = crypto.randomBytes(80_000);
    const first = await upload(me, data);
    const [file] = await filesHolding(data);
    // Damage on disk: same size, other bytes (a bad sector, a tool that wrote where it should not).
    await fs.writeFile(file!, crypto.randomBytes(data.length));
    const second = await upload(other, data);
    assert.notEqual(blobOf(second), blobOf(first));
    assert.deepEqual(await download(other, second), data);
  });
});

describe('versions stored by an older release', () => {
  test('get their SHA-256 in the background after a start, and two files with the same bytes become one', async () => {
    const server = await startTestServer();
    const ownerHere = await setupOwner(server.client);
    const mum = await createMember(server.client, ownerHere, 'mum');
    const dad = await createMember(server.client, ownerHere, 'dad');
    const data = crypto.randomBytes(250_000);
    const other = crypto.randomBytes(250_000);
    const mine = await uploadFile(server.api, mum.access, data, { filename: 'beach.jpg' });
    const his = await uploadFile(server.api, dad.access, other, { filename: 'beach.jpg' });
    const dataDir = server.dataDir;
    await server.server.close();

    // What an older release left: each upload its own content file, no SHA-256 recorded. Dad's
    // file is given Mum's bytes (as if he had uploaded the same photo then).
    const hisFile = (await filesHolding(other, dataDir))[0]!;
    await fs.writeFile(hisFile, data);
    const db = openConnection(path.join(dataDir, 'hearth.db'), { fileMustExist: true });
    db.prepare('UPDATE node_versions SET sha256 = NULL').run();
    db.close();
    assert.equal((await filesHolding(data, dataDir)).length, 2);

    const again = await startTestServer({ dataDir });
    try {
      const mumNow = (await login(again.client, 'mum', mum.password)).access;
      const hash = crypto.createHash('sha256').update(data).digest('hex');
      const deadline = Date.now() + 20_000;
      let state = '';
      while (state !== 'present' && Date.now() < deadline) {
        const res = await again.client.post('/nodes/check-hashes', { algorithm: 'sha256', hashes: [hash] }, { token: mumNow });
        assert.equal(res.status, 200);
        state = res.body.items[0].state;
        if (state !== 'present') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(state, 'present');
      // The job shares the second file it hashes with the first: wait until both name one file.
      while (blobOf(mine, dataDir) !== blobOf(his, dataDir) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.equal(blobOf(mine, dataDir), blobOf(his, dataDir));
      assert.equal((await filesHolding(data, dataDir)).length, 1);
      const res = await fetch(`${again.api}/nodes/${his}/download`, {
        headers: { authorization: `Bearer ${(await login(again.client, 'dad', dad.password)).access}` },
      });
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), data);
    } finally {
      await again.close();
    }
  });
});
