import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { apiTree, localTree, noise, RCLONE, rclone, rcloneEnv, startRclone, transfersOf } from './dav-clients-support.ts';
import { driveLogin } from './dav-support.ts';

const SKIP = !existsSync(RCLONE) && 'rclone is not installed';

let t: TestServer;
let owner: SignedIn;
let env: NodeJS.ProcessEnv;
let work: string;

before(async () => {
  if (SKIP) return;
  t = await startTestServer();
  owner = await setupOwner(t.client);
  work = await makeTempDir('hearth-rclone-');
  env = await rcloneEnv({ url: `${t.url}/dav/`, login: await driveLogin(t, owner, 'owner') }, work);
});
after(async () => {
  if (SKIP) return;
  await t.close();
  await fs.rm(work, { recursive: true, force: true });
});

/** A family's folder: nested folders, accents and emoji in names, an empty file, a 5 MB one. */
async function makeFamilyFolder(dir: string): Promise<void> {
  await fs.mkdir(path.join(dir, 'Photos', 'Été 2024'), { recursive: true });
  await fs.mkdir(path.join(dir, 'Documents', 'Taxes', 'Old'), { recursive: true });
  await fs.writeFile(path.join(dir, 'readme.txt'), 'The family files.\n');
  await fs.writeFile(path.join(dir, 'empty.txt'), '');
  await fs.writeFile(path.join(dir, 'Photos', 'Été 2024', 'plage à Nice 🌊.jpg'), noise(200_000, 1));
  await fs.writeFile(path.join(dir, 'Photos', 'Été 2024', 'Ölçü ünlü.png'), noise(30_000, 2));
  await fs.writeFile(path.join(dir, 'Documents', 'Taxes', '2023 #1 & more.pdf'), noise(70_000, 3));
  await fs.writeFile(path.join(dir, 'Documents', 'Taxes', 'Old', '50% done (copy).txt'), 'half\n');
  await fs.writeFile(path.join(dir, 'Documents', 'video.bin'), noise(5 * 1024 * 1024 + 17, 4));
}

test(
  'rclone sync puts a folder in Hearth; check finds no difference; a second sync sends nothing; a copy back is byte for byte',
  { skip: SKIP },
  async () => {
    const source = path.join(work, 'family');
    await makeFamilyFolder(source);
    const sent = await rclone(env, ['sync', source, 'hearth:Family']);
    assert.equal(transfersOf(sent.stderr), 7, sent.stderr);

    // What the web app lists is what was on the computer.
    const local = await localTree(source);
    const listed = await apiTree(t, owner, null);
    assert.deepEqual([...listed].sort(), [...local].map(([name, file]) => [`Family/${name}`, file.size]).sort());

    // vendor=other: no hash and no settable modtime over WebDAV, so rclone compares sizes.
    const checked = await rclone(env, ['check', source, 'hearth:Family']);
    assert.match(checked.stderr, /0 differences found/, checked.stderr);
    assert.match(checked.stderr, /7 matching files/, checked.stderr);

    const again = await rclone(env, ['sync', source, 'hearth:Family']);
    assert.equal(transfersOf(again.stderr), 0, `a second sync sends nothing:\n${again.stderr}`);

    const back = path.join(work, 'back');
    await rclone(env, ['copy', 'hearth:Family', back]);
    assert.deepEqual(await localTree(back), local);
    assert.equal((await fs.stat(path.join(back, 'empty.txt'))).size, 0);
  },
);

test('a file changed on the computer is sent again as a new version; one removed goes to the trash', { skip: SKIP }, async () => {
  const source = path.join(work, 'changes');
  await fs.mkdir(source);
  await fs.writeFile(path.join(source, 'list.txt'), 'milk\n');
  await fs.writeFile(path.join(source, 'old.txt'), 'gone soon\n');
  await rclone(env, ['sync', source, 'hearth:Changes']);
  await fs.writeFile(path.join(source, 'list.txt'), 'milk, bread\n');
  await fs.rm(path.join(source, 'old.txt'));
  const synced = await rclone(env, ['sync', source, 'hearth:Changes']);
  assert.equal(transfersOf(synced.stderr), 1, synced.stderr);

  const folder = (await t.client.get('/nodes', { token: owner.access })).body.items.find((n: { name: string }) => n.name === 'Changes');
  const items = (await t.client.get(`/nodes?parent_id=${folder.id}`, { token: owner.access })).body.items as { id: string; name: string }[];
  assert.deepEqual(
    items.map((n) => n.name),
    ['list.txt'],
  );
  const versions = await t.client.get(`/nodes/${items[0]!.id}/versions`, { token: owner.access });
  assert.equal(versions.body.items.length, 2, 'the old content is kept as a version');
  const trash = await t.client.get('/trash', { token: owner.access });
  assert.ok(
    trash.body.items.some((n: { name: string }) => n.name === 'old.txt'),
    'the removed file is in the trash, restorable',
  );
});

test('a sync killed midway and run again ends whole, with no half-written file in Hearth', { skip: SKIP }, async () => {
  const source = path.join(work, 'many');
  await fs.mkdir(path.join(source, 'sub'), { recursive: true });
  const count = 60;
  for (let i = 0; i < count; i++) {
    await fs.writeFile(path.join(source, i % 2 ? 'sub' : '', `file ${String(i).padStart(3, '0')}.bin`), noise(256 * 1024 + i, 100 + i));
  }
  const usedBefore = (await t.client.get('/me', { token: owner.access })).body.quota.used as number;
  // Slowed so that several PUTs are under way when the kill comes.
  const first = startRclone(env, ['sync', source, 'hearth:Many', '--bwlimit', '4M', '--transfers', '4']);
  const deadline = Date.now() + 30_000;
  while ((await apiTree(t, owner, null).catch(() => new Map())).size < 10 && Date.now() < deadline) await sleep(50);
  await sleep(300);
  first.child.kill('SIGKILL');
  await first.exited;
  const midway = [...(await apiTree(t, owner, null))].filter(([name]) => name.startsWith('Many/'));
  assert.ok(midway.length > 0 && midway.length < count, `killed midway: ${midway.length} of ${count} files there`);
  // Give the server a moment to see the cut connections and drop what had arrived of them.
  await sleep(300);
  const full = 256 * 1024;
  for (const [name, size] of await apiTree(t, owner, null)) {
    if (name.startsWith('Many/')) assert.ok(size >= full, `${name} is only ${size} bytes: a half-written file is listed`);
  }

  await rclone(env, ['sync', source, 'hearth:Many']);
  const checked = await rclone(env, ['check', source, 'hearth:Many']);
  assert.match(checked.stderr, /0 differences found/, checked.stderr);
  const local = await localTree(source);
  const listed = [...(await apiTree(t, owner, null))].filter(([name]) => name.startsWith('Many/'));
  assert.deepEqual(listed.sort(), [...local].map(([name, file]) => [`Many/${name}`, file.size]).sort());
  // Nothing of the cut uploads is still counted against the quota either.
  const me = await t.client.get('/me', { token: owner.access });
  const stored = listed.reduce((sum, [, size]) => sum + size, 0);
  assert.equal(me.body.quota.used - usedBefore, stored);
  assert.deepEqual(await fs.readdir(path.join(t.dataDir, 'files', 'tmp')), [], 'no upload is left half-written on disk');
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
