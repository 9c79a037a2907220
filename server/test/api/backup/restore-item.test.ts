import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
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
} from '../../helpers/backup.ts';
import { createFolder, unique } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { EventSocket } from '../../helpers/events.ts';

/*
 * The owner gets one file or folder back as it was on a date, from the console: beside the
 * current one or in its place, into its owner's files, never losing what is there now, and never
 * showing anything half-restored.
 */
describe('restoring one file or folder from a snapshot', () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'restore-kid');
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  const destination = async (extra: object = {}) => {
    const folder = destinationFolder();
    temps.push(folder);
    const added = await addFolderDestination(t.client, owner.access, folder, extra);
    return { id: added.id as string, folder };
  };
  const snapshotOf = async (destinationId: string) => {
    const run = await backUp(t.client, owner.access, destinationId);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    return run.snapshot_id as string;
  };
  const download = async (who: SignedIn, id: string) => {
    const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { Authorization: `Bearer ${who.access}` } });
    assert.equal(res.status, 200);
    return Buffer.from(await res.arrayBuffer());
  };
  const children = async (who: SignedIn, parentId: string | null) => {
    const res = await t.client.get(`/nodes?parent_id=${parentId ?? 'root'}&limit=1000`, { token: who.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.items as any[];
  };
  const restore = async (dest: string, snapshot: string, body: object) => {
    const res = await t.client.post(`/admin/backup/destinations/${dest}/snapshots/${snapshot}/restore`, body, { token: owner.access });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.kind, 'restore');
    return finishedRun(t.client, owner.access, res.body.id);
  };
  const browse = async (dest: string, snapshot: string, query: string) => {
    const res = await t.client.get(`/admin/backup/destinations/${dest}/snapshots/${snapshot}/nodes?${query}`, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  test("a family member's file deleted for good after the backup comes back in its folder, byte for byte, and the family hears it appear", async () => {
    const folder = await createFolder(t.client, member, unique('School'));
    const bytes = crypto.randomBytes(70_000);
    const id = await uploadFile(t.api, member.access, bytes, { filename: 'essay.pdf', parentId: folder.id });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);

    // The owner sees the family as the snapshot knew them, and this member's folder as it was.
    const people = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots/${snapshot}/people`, { token: owner.access });
    assert.equal(people.status, 200, JSON.stringify(people.body));
    const kid = people.body.items.find((p: any) => p.id === member.userId);
    assert.ok(kid && kid.exists_now && kid.files >= 1, JSON.stringify(people.body));
    const top = await browse(dest.id, snapshot, `user_id=${member.userId}`);
    assert.ok(top.items.some((n: any) => n.id === folder.id && n.type === 'folder'));

    assert.equal((await t.client.delete(`/nodes/${id}/permanent`, { token: member.access })).status, 204);
    const inside = await browse(dest.id, snapshot, `parent_id=${folder.id}`);
    assert.deepEqual(
      inside.path.map((n: any) => n.name),
      [folder.name],
    );
    const listed = inside.items.find((n: any) => n.id === id);
    assert.equal(listed.since, 'deleted');
    assert.equal(listed.size, bytes.length);

    const socket = await EventSocket.open(t.url, member.access);
    try {
      const created = socket.waitFor((e) => e.type === 'node.created' && e.payload.node.name === 'essay.pdf', 30_000);
      const run = await restore(dest.id, snapshot, { node_id: id, mode: 'replace' });
      assert.equal(run.state, 'succeeded', JSON.stringify(run));
      assert.equal(run.restored.files, 1);
      assert.equal(run.restored.path, `${folder.name}/essay.pdf`);
      assert.equal(run.restored.owner_id, member.userId);
      await created;
    } finally {
      socket.close();
    }
    const now = (await children(member, folder.id)).find((n: any) => n.name === 'essay.pdf');
    assert.ok(now, 'back in its folder');
    assert.deepEqual(await download(member, now.id), bytes);
  });

  test('a file changed after the backup gets its backed-up content as the visible version; the current content stays as an older version', async () => {
    const before = Buffer.from('the recipe as grandma wrote it\n'.repeat(100));
    const after = Buffer.from('overwritten by mistake\n');
    const id = await uploadFile(t.api, owner.access, before, { filename: unique('recipe') + '.txt' });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    await uploadFile(t.api, owner.access, after, { nodeId: id });
    assert.deepEqual(await download(owner, id), after);
    const listed = (await browse(dest.id, snapshot, `user_id=${owner.userId}`)).items.find((n: any) => n.id === id);
    assert.equal(listed.since, 'changed');

    const run = await restore(dest.id, snapshot, { node_id: id, mode: 'replace' });
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.equal(run.restored.node_id, id, 'the same file, not a copy');
    assert.deepEqual(await download(owner, id), before);
    const versions = await t.client.get(`/nodes/${id}/versions`, { token: owner.access });
    assert.equal(versions.body.length ?? versions.body.items.length, 3);
    const list = (versions.body.items ?? versions.body) as any[];
    const second = list.find((v: any) => v.version === 2);
    const old = await fetch(`${t.api}/nodes/${id}/versions/${second.id}/restore`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner.access}` },
    });
    assert.equal(old.status, 200, 'the content that was current before the restore is kept, and can be made current again');
    assert.deepEqual(await download(owner, id), after);

    // Restoring again what is already there changes nothing: no new version.
    const again = await restore(dest.id, snapshot, { node_id: id, mode: 'replace' });
    assert.equal(again.state, 'succeeded');
    const v = (await t.client.get(`/nodes/${id}`, { token: owner.access })).body.version;
    const third = await restore(dest.id, snapshot, { node_id: id, mode: 'replace' });
    assert.equal(third.restored.unchanged, 1);
    assert.equal((await t.client.get(`/nodes/${id}`, { token: owner.access })).body.version, v);
  });

  test('a folder restored beside the current one comes back whole, named with the date, and the current folder is not touched', async () => {
    const holiday = await createFolder(t.client, owner, unique('Holiday'));
    const day1 = await createFolder(t.client, owner, 'Day 1', holiday.id);
    const a = crypto.randomBytes(10_000);
    const b = crypto.randomBytes(20_000);
    await uploadFile(t.api, owner.access, a, { filename: 'beach.jpg', parentId: holiday.id });
    await uploadFile(t.api, owner.access, b, { filename: 'boat.jpg', parentId: day1.id });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    const at = readManifest(dest.folder, snapshot).at;
    // After the backup: one photo gone, one new.
    const beach = (await children(owner, holiday.id)).find((n) => n.name === 'beach.jpg');
    assert.equal((await t.client.delete(`/nodes/${beach.id}`, { token: owner.access })).status, 200);
    await uploadFile(t.api, owner.access, Buffer.from('new'), { filename: 'new.txt', parentId: holiday.id });

    const run = await restore(dest.id, snapshot, { node_id: holiday.id, mode: 'beside' });
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    const date = new Date(at).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
    assert.equal(run.restored.path, `${holiday.name} (restored ${date})`);
    assert.equal(run.restored.files, 2);
    assert.equal(run.restored.folders, 2);
    const copy = (await children(owner, null)).find((n) => n.id === run.restored.node_id);
    assert.equal(copy.name, `${holiday.name} (restored ${date})`);
    const inCopy = await children(owner, copy.id);
    assert.deepEqual(inCopy.map((n) => n.name).sort(), ['Day 1', 'beach.jpg']);
    assert.deepEqual(await download(owner, inCopy.find((n) => n.name === 'beach.jpg').id), a);
    const copyDay1 = inCopy.find((n) => n.name === 'Day 1');
    assert.deepEqual(await download(owner, (await children(owner, copyDay1.id))[0].id), b);
    // The current folder as it was before the restore.
    assert.deepEqual((await children(owner, holiday.id)).map((n) => n.name).sort(), ['Day 1', 'new.txt']);
  });

  test('a folder put back in its place gets its missing files back and keeps the files added since', async () => {
    const album = await createFolder(t.client, owner, unique('Album'));
    const keep = crypto.randomBytes(5_000);
    const lost = crypto.randomBytes(6_000);
    await uploadFile(t.api, owner.access, keep, { filename: 'keep.jpg', parentId: album.id });
    const lostId = await uploadFile(t.api, owner.access, lost, { filename: 'lost.jpg', parentId: album.id });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    assert.equal((await t.client.delete(`/nodes/${lostId}/permanent`, { token: owner.access })).status, 204);
    await uploadFile(t.api, owner.access, Buffer.from('added later'), { filename: 'later.txt', parentId: album.id });

    const run = await restore(dest.id, snapshot, { node_id: album.id, mode: 'replace' });
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.equal(run.restored.node_id, album.id);
    assert.equal(run.restored.files, 1);
    assert.equal(run.restored.unchanged, 1);
    const names = (await children(owner, album.id)).map((n) => n.name).sort();
    assert.deepEqual(names, ['keep.jpg', 'later.txt', 'lost.jpg']);
  });

  test("a deleted folder whose parent is gone too comes back at its owner's top level", async () => {
    const parent = await createFolder(t.client, owner, unique('Old stuff'));
    const child = await createFolder(t.client, owner, unique('Letters'), parent.id);
    const letter = crypto.randomBytes(3_000);
    await uploadFile(t.api, owner.access, letter, { filename: 'letter.txt', parentId: child.id });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    assert.equal((await t.client.delete(`/nodes/${parent.id}/permanent`, { token: owner.access })).status, 204);

    const run = await restore(dest.id, snapshot, { node_id: child.id, mode: 'replace' });
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.equal(run.restored.path, child.name);
    const back = (await children(owner, null)).find((n) => n.name === child.name);
    assert.ok(back);
    assert.deepEqual(await download(owner, (await children(owner, back.id))[0].id), letter);
  });

  test("from an encrypted destination, the snapshot is browsed and a file restored with the server's key", async () => {
    const bytes = crypto.randomBytes(40_000);
    const name = unique('secret') + '.bin';
    const id = await uploadFile(t.api, owner.access, bytes, { filename: name });
    const dest = await destination({ encrypt: true });
    const snapshot = await snapshotOf(dest.id);
    assert.equal(readManifestIsEncrypted(dest.folder, snapshot), true);
    assert.equal((await t.client.delete(`/nodes/${id}/permanent`, { token: owner.access })).status, 204);
    const listed = (await browse(dest.id, snapshot, '')).items.find((n: any) => n.id === id);
    assert.equal(listed.name, name);
    const run = await restore(dest.id, snapshot, { node_id: id, mode: 'beside' });
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.deepEqual(await download(owner, run.restored.node_id), bytes);
  });

  test('a family member cannot browse or restore (403), and unknown destinations, snapshots and nodes are 404', async () => {
    const id = await uploadFile(t.api, owner.access, Buffer.from('mine'), { filename: unique('private') + '.txt' });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    const base = `/admin/backup/destinations/${dest.id}/snapshots/${snapshot}`;
    assertError(await t.client.get(`${base}/nodes?user_id=${owner.userId}`, { token: member.access }), 403, 'forbidden');
    assertError(await t.client.get(`${base}/people`, { token: member.access }), 403, 'forbidden');
    assertError(await t.client.post(`${base}/restore`, { node_id: id, mode: 'beside' }, { token: member.access }), 403, 'forbidden');
    assert.equal((await t.client.get(`${base}/nodes`)).status, 401);

    assertError(
      await t.client.get(`/admin/backup/destinations/nope/snapshots/${snapshot}/nodes`, { token: owner.access }),
      404,
      'not_found',
    );
    assertError(
      await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots/20000101T000000Z-000000/nodes`, { token: owner.access }),
      404,
      'snapshot_not_found',
    );
    assertError(
      await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots/..%2F..%2Fx/nodes`, { token: owner.access }),
      404,
      'snapshot_not_found',
    );
    assertError(
      await t.client.post(`${base}/restore`, { node_id: 'no-such-node', mode: 'beside' }, { token: owner.access }),
      404,
      'not_found',
      'node_id',
    );
    assertError(
      await t.client.post(`${base}/restore`, { node_id: id, mode: 'sideways' }, { token: owner.access }),
      400,
      'invalid_input',
      'mode',
    );
    assertError(await t.client.get(`${base}/nodes?cursor=garbage`, { token: owner.access }), 400, 'invalid_cursor', 'cursor');
  });

  test('a backup whose drive is gone answers 503 backup_unreachable in words', async () => {
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    const moved = `${dest.folder}-unplugged`;
    fs.renameSync(dest.folder, moved);
    temps.push(moved);
    try {
      const res = await t.client.get(`/admin/backup/destinations/${dest.id}/snapshots/${snapshot}/nodes`, { token: owner.access });
      assertError(res, 503, 'backup_unreachable');
      assert.match(res.body.error.message, /Is its drive connected\?/);
    } finally {
      fs.renameSync(moved, dest.folder);
    }
  });

  test('a damaged file in the backup fails the run naming it, and nothing appears', async () => {
    const folder = await createFolder(t.client, owner, unique('Scans'));
    const good = crypto.randomBytes(8_000);
    const bad = crypto.randomBytes(9_000);
    await uploadFile(t.api, owner.access, good, { filename: 'good.png', parentId: folder.id });
    await uploadFile(t.api, owner.access, bad, { filename: 'bad.png', parentId: folder.id });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    // Flip a byte of bad.png's content file in the backup.
    const manifest = readManifest(dest.folder, snapshot);
    const sha = crypto.createHash('sha256').update(bad).digest('hex');
    const entry = manifest.files.find((f) => f.sha256 === sha)!;
    const file = path.join(dest.folder, 'hearth-backup', ...entry.path.split('/'));
    const damaged = fs.readFileSync(file);
    damaged[100] = damaged[100]! ^ 0xff;
    fs.writeFileSync(file, damaged);
    const before = (await children(owner, null)).length;
    const blobsBefore = countFiles(path.join(t.dataDir, 'files', 'blobs'));

    const run = await restore(dest.id, snapshot, { node_id: folder.id, mode: 'beside' });
    assert.equal(run.state, 'failed');
    assert.match(run.error, new RegExp(`"${folder.name}/bad\\.png" is damaged`));
    assert.match(run.error, /Nothing was restored/);
    assert.equal((await children(owner, null)).length, before, 'no folder appeared');
    assert.equal(countFiles(path.join(t.dataDir, 'files', 'blobs')), blobsBefore, 'no content file left behind');
    assert.deepEqual(
      fs.readdirSync(path.join(t.dataDir, 'files', 'tmp')).filter((n) => n.endsWith('.restore')),
      [],
    );
  });

  test('while a backup is running, a restore is refused with 409 backup_running; a restore that does not fit the quota is refused with 507', async () => {
    const bytes = crypto.randomBytes(50_000);
    const id = await uploadFile(t.api, member.access, bytes, { filename: unique('big') + '.bin' });
    const dest = await destination();
    const snapshot = await snapshotOf(dest.id);
    const base = `/admin/backup/destinations/${dest.id}/snapshots/${snapshot}`;

    // A backup to another folder, held mid-way at this file's content: the one place for a run is taken.
    const other = await destination();
    const held = holdContentFile(blobHolding(t.dataDir, bytes));
    try {
      const backup = await t.client.post(`/admin/backup/destinations/${other.id}/run`, undefined, { token: owner.access });
      assert.equal(backup.status, 202);
      await held.reached;
      assertError(await t.client.post(`${base}/restore`, { node_id: id, mode: 'beside' }, { token: owner.access }), 409, 'backup_running');
      await held.release();
      assert.equal((await finishedRun(t.client, owner.access, backup.body.id)).state, 'succeeded');
    } finally {
      held.restore();
    }

    const usage = (await t.client.get('/me', { token: member.access })).body;
    const patch = await t.client.patch(`/admin/users/${member.userId}`, { quota_bytes: usage.quota.used + 1000 }, { token: owner.access });
    assert.equal(patch.status, 200, JSON.stringify(patch.body));
    try {
      assertError(await t.client.post(`${base}/restore`, { node_id: id, mode: 'beside' }, { token: owner.access }), 507, 'quota_exceeded');
    } finally {
      await t.client.patch(`/admin/users/${member.userId}`, { quota_bytes: null }, { token: owner.access });
    }
  });
});

function readManifestIsEncrypted(folder: string, snapshot: string): boolean {
  return (
    fs.existsSync(path.join(folder, 'hearth-backup', 'age-recipient.txt')) &&
    fs.existsSync(path.join(folder, 'hearth-backup', 'snapshots', snapshot))
  );
}

function countFiles(root: string): number {
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile()).length;
}
