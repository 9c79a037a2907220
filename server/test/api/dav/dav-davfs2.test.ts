import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { apiTree, noise, run } from './dav-clients-support.ts';
import { driveLogin, type DriveLogin } from './dav-support.ts';

const MOUNT = '/usr/sbin/mount.davfs';

/** davfs2's group: its daemon runs as that group and must write the cache folder. */
function davfsGroupId(): number | null {
  const line = readFileSync('/etc/group', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('davfs2:'));
  return line ? Number(line.split(':')[2]) : null;
}

const SKIP =
  (!existsSync(MOUNT) && 'davfs2 is not installed') ||
  (process.getuid?.() !== 0 && 'mounting with davfs2 needs root') ||
  (!existsSync('/dev/fuse') && 'no /dev/fuse to mount with') ||
  (davfsGroupId() === null && 'no davfs2 group');

let t: TestServer;
let owner: SignedIn;
let drive: DriveLogin;
let work: string;
const mounted = new Set<string>();

before(async () => {
  if (SKIP) return;
  t = await startTestServer();
  owner = await setupOwner(t.client);
  drive = await driveLogin(t, owner, 'owner');
  work = await makeTempDir('hearth-davfs2-');
  // The daemon drops to the davfs2 user: it must reach the cache folders inside.
  await fs.chmod(work, 0o711);
});
after(async () => {
  if (SKIP) return;
  // Always unmounted, even after a failure: a stale mount outlives the test run.
  for (const dir of mounted) await run('umount', [dir], process.env, 60_000);
  await t.close();
  await fs.rm(work, { recursive: true, force: true });
});

let mounts = 0;

/**
 * /dav/ mounted with davfs2 on a fresh folder, with a fresh cache (so what is read comes from
 * the server), its own config and secrets file: no locks asked for, no password prompt, and each
 * file uploaded when it is closed.
 */
async function mountDrive(): Promise<string> {
  const n = ++mounts;
  const dir = path.join(work, `mnt-${n}`);
  const cache = path.join(work, `cache-${n}`);
  await fs.mkdir(dir);
  await fs.mkdir(cache);
  // What davfs2 asks of a cache folder: root's, davfs2's group, 1775.
  await fs.chown(cache, 0, davfsGroupId()!);
  await fs.chmod(cache, 0o1775);
  const url = `${t.url}/dav/`;
  const secrets = path.join(work, 'secrets');
  await fs.writeFile(secrets, `${url} ${drive.username} ${drive.password}\n`, { mode: 0o600 });
  const conf = path.join(work, `davfs2-${n}.conf`);
  await fs.writeFile(conf, [`secrets ${secrets}`, `cache_dir ${cache}`, 'use_locks 0', 'ask_auth 0', 'delay_upload 0', ''].join('\n'));
  const result = await run(MOUNT, [url, dir, '-o', `conf=${conf}`], process.env, 30_000);
  assert.equal(result.code, 0, `mount.davfs failed: ${result.stderr}`);
  mounted.add(dir);
  return dir;
}

/** umount waits for davfs2 to send what it still holds, then the mount is gone. */
async function unmount(dir: string): Promise<void> {
  const result = await run('umount', [dir], process.env, 60_000);
  assert.equal(result.code, 0, `umount failed: ${result.stderr}`);
  mounted.delete(dir);
}

test('davfs2: files copied into the mounted drive are in Hearth, and read back whole from a fresh mount', { skip: SKIP }, async () => {
  const files = new Map<string, Buffer>([
    ['notes.txt', Buffer.from('Shopping: milk, bread.\n')],
    ['empty.txt', Buffer.alloc(0)],
    ['Photos/Été à la plage 🌊.jpg', noise(300_000, 7)],
    ['Photos/Old/scan.bin', noise(2 * 1024 * 1024 + 3, 8)],
  ]);
  const first = await mountDrive();
  // Every call is asynchronous: the server answering davfs2 runs in this very process.
  await fs.mkdir(path.join(first, 'Photos', 'Old'), { recursive: true });
  for (const [name, bytes] of files) await fs.writeFile(path.join(first, name), bytes);
  await fs.rename(path.join(first, 'notes.txt'), path.join(first, 'Shopping list.txt'));
  files.set('Shopping list.txt', files.get('notes.txt')!);
  files.delete('notes.txt');
  await unmount(first);

  const listed = await apiTree(t, owner, null);
  assert.deepEqual([...listed].sort(), [...files].map(([name, bytes]) => [name, bytes.length]).sort());

  // A new mount with an empty cache: the bytes come from the server. (Listing a folder through
  // davfs2 1.6.1 fails with EINVAL on this kernel against any server, so files are opened by name.)
  const second = await mountDrive();
  for (const [name, bytes] of files) {
    assert.equal((await fs.stat(path.join(second, name))).size, bytes.length, name);
    assert.ok((await fs.readFile(path.join(second, name))).equals(bytes), `${name} reads back byte for byte`);
  }
  await assert.rejects(fs.stat(path.join(second, 'notes.txt')), { code: 'ENOENT' });
  await unmount(second);
});
