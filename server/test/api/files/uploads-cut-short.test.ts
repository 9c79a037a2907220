import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 19, finding 3: an upload whose every byte arrived, but whose completion a full disk cut
 * short (its content id recorded, the move into blobs/ or the commit refused), is one the
 * server acknowledged. It becomes exactly one file: never expired into a second upload of the
 * same photo, finished by maintenance once the disk has room, cancelled when the person
 * cancels it; and if it is dropped (its uploader lost access), content already moved into
 * blobs/ is recorded as garbage for the clean-up rather than left as a file nobody knows.
 */

const TUS = '1.0.0';
const servers: TestServer[] = [];
after(async () => {
  for (const t of servers) await t.close().catch(() => {});
});

async function start(dataDir?: string): Promise<TestServer> {
  const t = await startTestServer(dataDir === undefined ? {} : { dataDir });
  servers.push(t);
  return t;
}

function tus(url: string, who: SignedIn, method: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Response> {
  return fetch(url, {
    method,
    headers: { authorization: `Bearer ${who.access}`, 'Tus-Resumable': TUS, ...headers },
    body: body as BodyInit | undefined,
  });
}

interface CutShort {
  url: string;
  id: string;
  blob: string;
  data: Buffer;
}

/**
 * What a disk that filled during the completing request leaves: every byte in the temp file,
 * the content id recorded, no node. `moved`: the file was already moved into blobs/ when the
 * commit failed. `expired`: and a day has gone by since.
 */
async function cutShortUpload(
  t: TestServer,
  who: SignedIn,
  options: { name: string; parentId?: string; moved: boolean; expired?: boolean },
): Promise<CutShort> {
  const data = crypto.randomBytes(50_000);
  const metadata = [`filename ${Buffer.from(options.name).toString('base64')}`];
  if (options.parentId) metadata.push(`parent_id ${Buffer.from(options.parentId).toString('base64')}`);
  const created = await tus(`${t.api}/uploads`, who, 'POST', {
    'Upload-Length': String(data.length),
    'Upload-Metadata': metadata.join(','),
  });
  assert.equal(created.status, 201);
  const url = new URL(created.headers.get('location')!, t.url).href;
  const id = url.split('/').pop()!;
  const patched = await tus(
    url,
    who,
    'PATCH',
    { 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data.subarray(0, data.length - 1),
  );
  assert.equal(patched.status, 204);

  const temp = path.join(t.dataDir, 'files', 'tmp', `${id}.upload`);
  fs.appendFileSync(temp, data.subarray(data.length - 1));
  const blob = `01JCUTSHORT${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
  const db = openConnection(path.join(t.dataDir, 'hearth.db'));
  try {
    db.pragma('busy_timeout = 5000');
    const expires = options.expired ? Date.now() - 60_000 : Date.now() + 24 * 60 * 60_000;
    db.prepare('UPDATE uploads SET blob = ?, offset = ?, expires_at = ? WHERE id = ?').run(blob, data.length, expires, id);
  } finally {
    db.close();
  }
  if (options.moved) {
    const into = path.join(t.dataDir, 'files', 'blobs', blob.slice(-2), blob);
    fs.mkdirSync(path.dirname(into), { recursive: true });
    fs.renameSync(temp, into);
  }
  return { url, id, blob, data };
}

async function filesNamed(t: TestServer, who: SignedIn, name: string, parentId?: string): Promise<any[]> {
  const res = await t.client.get(parentId ? `/nodes?parent_id=${parentId}` : '/nodes', { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items.filter((n: any) => n.name === name || n.name.startsWith(`${path.parse(name).name} (`));
}

async function download(t: TestServer, who: SignedIn, id: string): Promise<Buffer> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${who.access}` } });
  assert.equal(res.status, 200);
  return Buffer.from(await res.arrayBuffer());
}

describe('an upload whose completion a full disk cut short', () => {
  test('does not expire: a day later its HEAD finishes it (200, every byte) instead of 410, and it is one file, also after a restart', async () => {
    const t = await start();
    const owner = await setupOwner(t.client);
    const cut = await cutShortUpload(t, owner, { name: 'photo.jpg', moved: false, expired: true });

    const head = await tus(cut.url, owner, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('upload-offset'), String(cut.data.length));
    const [file, ...others] = await filesNamed(t, owner, 'photo.jpg');
    assert.deepEqual(others, []);
    assert.ok((await download(t, owner, file.id)).equals(cut.data));

    await t.server.close();
    const again = await start(t.dataDir);
    const back = await login(again.client, owner.username, owner.password);
    assert.equal((await filesNamed(again, back, 'photo.jpg')).length, 1, 'no second "photo (1).jpg" at the next start');
  });

  test('is cancelled by DELETE (204): its content is removed and no file appears, not even at the next start', async () => {
    const t = await start();
    const owner = await setupOwner(t.client);
    const cut = await cutShortUpload(t, owner, { name: 'cancelled.jpg', moved: true });

    assert.equal((await tus(cut.url, owner, 'DELETE')).status, 204);
    assert.equal((await tus(cut.url, owner, 'HEAD')).status, 404);
    assert.ok(!fs.existsSync(path.join(t.dataDir, 'files', 'blobs', cut.blob.slice(-2), cut.blob)), 'its content is gone');
    assert.deepEqual(await filesNamed(t, owner, 'cancelled.jpg'), []);

    await t.server.close();
    const again = await start(t.dataDir);
    const back = await login(again.client, owner.username, owner.password);
    assert.deepEqual(await filesNamed(again, back, 'cancelled.jpg'), [], 'the restart does not bring it back');
  });

  test('is finished by maintenance once the disk takes writes, without waiting for the client or a restart', async () => {
    const t = await start();
    const owner = await setupOwner(t.client);
    const cut = await cutShortUpload(t, owner, { name: 'waiting.jpg', moved: true });
    assert.deepEqual(await filesNamed(t, owner, 'waiting.jpg'), []);

    await t.server.runMaintenance();
    const [file, ...others] = await filesNamed(t, owner, 'waiting.jpg');
    assert.ok(file, 'the file is there');
    assert.deepEqual(others, []);
    assert.ok((await download(t, owner, file.id)).equals(cut.data));
    const head = await tus(cut.url, owner, 'HEAD');
    assert.equal(head.status, 200, 'and its client sees it complete');
    assert.equal(head.headers.get('upload-offset'), String(cut.data.length));
  });

  test('dropped because its uploader lost access, its content already in blobs/ is recorded as garbage and taken to the holding folder at the next start', async () => {
    const dataDir = await makeTempDir();
    const t = await start(dataDir);
    const owner = await setupOwner(t.client);
    const bob = await createMember(t.client, owner, 'bob');
    const folder = await createFolder(t.client, owner, 'Shared photos');
    assert.equal(
      (await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: bob.userId, role: 'editor' }, { token: owner.access })).status,
      201,
    );
    const cut = await cutShortUpload(t, bob, { name: 'bobs.jpg', parentId: folder.id, moved: true });
    assert.equal((await t.client.delete(`/nodes/${folder.id}/permissions/${bob.userId}`, { token: owner.access })).status, 204);

    assert.equal((await tus(cut.url, bob, 'HEAD')).status, 404, 'dropped at its next request');
    const db = openConnection(path.join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      const row = db.prepare('SELECT reason FROM content_garbage WHERE blob = ?').get(cut.blob) as { reason: string } | undefined;
      assert.equal(row?.reason, 'unfinished', 'recorded as garbage with the upload row gone');
      assert.equal(db.prepare('SELECT 1 FROM uploads WHERE id = ?').get(cut.id), undefined);
    } finally {
      db.close();
    }

    await t.server.close();
    await start(dataDir);
    const held = () =>
      fs
        .readdirSync(path.join(dataDir, 'files', 'holding'), { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(cut.blob));
    for (let i = 0; i < 400 && !(fs.existsSync(path.join(dataDir, 'files', 'holding')) && held().length === 1); i++)
      await new Promise((r) => setTimeout(r, 25));
    assert.equal(held().length, 1, 'the clean-up took it to the holding folder');
    assert.ok(!fs.existsSync(path.join(dataDir, 'files', 'blobs', cut.blob.slice(-2), cut.blob)));
  });
});
