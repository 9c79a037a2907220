import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import {
  createBlankLoopDevice,
  createLoopDrive,
  loopUnsupportedReason,
  mountPoints,
  setLabel,
  unmountAllUnder,
  type BlankLoopDevice,
  type LoopDrive,
} from '../../helpers/loop.ts';
import { missingTool } from '../../helpers/skip.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * SAFETY: these tests run as root on a machine whose real disk is /dev/vda. A request that
 * could mount, pool or format a device only ever names loop devices this file attached itself
 * to image files in its own temp dir: `mountRequest`, `poolRequest` and `formatOwn` check that
 * before sending (back file of the loop device == our image), and refuse anything else except
 * ids that name no device at all (checked in /sys/class/block). After each test, everything
 * mounted below the temp dir (FUSE pools included) is unmounted, deepest first, and the loop
 * devices are detached and their images removed, whether the test passed or not.
 */

const MB = 1024 * 1024;
const MARKER = '.hearth-library';

type Own = LoopDrive | BlankLoopDevice;

interface Mount {
  mountPoint: string;
  options: string[];
  fsType: string;
  source: string;
}

/** A fresh directory outside every data dir, removed by the caller. */
function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
}

/** The kernel's mount table now, from /proc/self/mountinfo. */
function mounts(): Mount[] {
  const unescape = (s: string) => s.replace(/\\(\d{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));
  return fs
    .readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [left = '', right = ''] = line.split(' - ');
      const fields = left.split(' ');
      const [fsType = '', source = ''] = right.split(' ');
      return { mountPoint: unescape(fields[4] ?? ''), options: (fields[5] ?? '').split(','), fsType, source: unescape(source) };
    });
}

/** Where this device is mounted now. */
function mountsOf(device: string): Mount[] {
  return mounts().filter((m) => m.source === device);
}

function mountAt(mountPoint: string): Mount | undefined {
  return mounts().find((m) => m.mountPoint === mountPoint);
}

/** What is on the device, read from the device itself (`blkid -p -o export`). */
function blkid(device: string): Record<string, string> {
  try {
    return Object.fromEntries(
      run('blkid', ['-p', '-o', 'export', device])
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
  } catch {
    return {}; // nothing recognisable on it
  }
}

function uuidOf(device: string): string {
  const uuid = blkid(device).UUID;
  assert.ok(uuid, `${device} has a file system UUID`);
  return uuid;
}

function idOf(d: Own): string {
  return path.basename(d.device);
}

function statTotal(dir: string): number {
  const s = fs.statfsSync(dir);
  return s.blocks * s.bsize;
}

/** Every file below `dir` (recursively), as absolute paths. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/** A blob under `<libraryPath>/blobs/` whose bytes are exactly `data`. */
function blobWith(libraryPath: string, data: Buffer): string | undefined {
  return filesUnder(path.join(libraryPath, 'blobs')).find((f) => fs.statSync(f).size === data.length && fs.readFileSync(f).equals(data));
}

async function libraries(t: TestServer, who: SignedIn): Promise<any[]> {
  const res = await t.client.get('/libraries', { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.ok(Array.isArray(res.body.items));
  return res.body.items;
}

async function library(t: TestServer, who: SignedIn, id: string): Promise<any> {
  const found = (await libraries(t, who)).find((l) => l.id === id);
  assert.ok(found, `library ${id} is listed`);
  return found;
}

async function internalIdOf(t: TestServer, who: SignedIn): Promise<string> {
  const internal = (await libraries(t, who)).find((l) => l.kind === 'internal');
  assert.ok(internal, 'the internal library is listed');
  return internal.id;
}

async function setDefault(t: TestServer, admin: SignedIn, id: string): Promise<void> {
  const res = await t.client.patch(`/libraries/${id}/set-default`, undefined, { token: admin.access });
  assert.equal(res.status, 204, JSON.stringify(res.body));
}

async function eject(t: TestServer, admin: SignedIn, id: string): Promise<any> {
  const res = await t.client.post(`/libraries/${id}/eject`, undefined, { token: admin.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.id, id);
  assert.equal(res.body.status, 'ejected');
  return res.body;
}

async function download(t: TestServer, who: SignedIn, id: string): Promise<{ status: number; body: Buffer; code: string | undefined }> {
  const res = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${who.access}` } });
  const body = Buffer.from(await res.arrayBuffer());
  let code: string | undefined;
  if ((res.headers.get('content-type') ?? '').includes('json')) code = (JSON.parse(body.toString()) as any).error?.code;
  return { status: res.status, body, code };
}

async function assertDownloads(t: TestServer, who: SignedIn, id: string, data: Buffer): Promise<void> {
  const got = await download(t, who, id);
  assert.equal(got.status, 200, got.body.toString().slice(0, 300));
  assert.ok(got.body.equals(data), 'the bytes are identical');
}

async function assertOffline(t: TestServer, who: SignedIn, id: string): Promise<void> {
  const got = await download(t, who, id);
  assert.equal(got.status, 503, got.body.toString().slice(0, 300));
  assert.equal(got.code, 'library_offline');
}

/** Why pools cannot be tested here, or null when they can. */
function mergerfsUnsupportedReason(): string | null {
  const missing = missingTool('mergerfs', 'mergerfs fuse3');
  if (missing) return `${missing}: pools cannot be made here`;
  if (!fs.existsSync('/dev/fuse')) return 'there is no /dev/fuse: FUSE mounts (mergerfs) cannot be made here';
  return null;
}

// ---------------------------------------------------------------------------------------------

describe('mounting and pooling drives (loop-device images made by the test)', () => {
  let work: string;
  let roots: string;
  let skipReason: string | null = null;
  let poolSkipReason: string | null = null;
  /** Devices attached by the test now running (released after each test). */
  const owned: Own[] = [];
  /** Servers started by the test now running (closed after each test, last one first). */
  const servers: TestServer[] = [];
  let t: TestServer;
  let owner: SignedIn;
  let bob: SignedIn;
  let internalId: string;
  let inspections = 0;

  const config = () => ({ includeLoopDevices: true, mountsRoots: [roots] });

  before(async () => {
    work = tempDir('hearth-drive-mounts-');
    roots = path.join(work, 'media');
    fs.mkdirSync(roots);
    skipReason = loopUnsupportedReason(work);
    if (skipReason) {
      console.log(`# drive mount and pool tests skipped: ${skipReason}`);
      return;
    }
    poolSkipReason = mergerfsUnsupportedReason();
    if (poolSkipReason) console.log(`# pool tests skipped: ${poolSkipReason}`);
    t = await startTestServer(config());
    owner = await setupOwner(t.client);
    bob = await createMember(t.client, owner, 'bob');
    internalId = await internalIdOf(t, owner);
  });

  /** Servers, then every mount below the temp dir (deepest first), then the loop devices and images. */
  async function release(): Promise<void> {
    if (t && owner && internalId) {
      // The shared server must not keep a drive that is about to vanish as its default.
      await t.client.patch(`/libraries/${internalId}/set-default`, undefined, { token: owner.access }).catch(() => {});
    }
    for (const s of servers.splice(0).reverse())
      await s.close().catch((error) => console.log(`# closing a server failed: ${String(error)}`));
    if (!work) return;
    const left = unmountAllUnder(work);
    if (left.length > 0) console.log(`# still mounted after cleanup: ${left.join(', ')}`);
    for (const d of owned.splice(0)) {
      try {
        d.destroy();
      } catch (error) {
        console.log(`# cleanup of ${d.image} failed: ${String(error)}`);
      }
    }
  }

  afterEach(release);

  after(async () => {
    await release();
    await t?.close().catch(() => {});
    if (!work) return;
    const left = unmountAllUnder(work);
    if (left.length > 0) console.log(`# not removing ${work}: still mounted: ${left.join(', ')}`);
    else fs.rmSync(work, { recursive: true, force: true });
  });

  async function server(extra: object = {}): Promise<TestServer> {
    const s = await startTestServer({ ...config(), ...extra });
    servers.push(s);
    return s;
  }

  /** An ext4 loop drive (with this label, if any), mounted by the test under the mounts root unless `mounted` is false. */
  function drive(name: string, label: string | null, options: { sizeMb?: number; mounted?: boolean } = {}): LoopDrive {
    const d = createLoopDrive(work, name, path.join(roots, name), options.sizeMb ?? 64);
    owned.push(d);
    if (label !== null) setLabel(d.device, label);
    if (options.mounted === false) d.unmount();
    const now = blkid(d.device);
    assert.equal(now.TYPE, 'ext4');
    assert.equal(now.LABEL, label ?? undefined);
    return d;
  }

  /** A loop device on a zero-filled image: no file system at all. */
  function blank(name: string): BlankLoopDevice {
    const b = createBlankLoopDevice(work, name, 16);
    owned.push(b);
    assert.deepEqual(blkid(b.device), {}, 'nothing recognisable on it');
    return b;
  }

  /** The device is a loop device this test attached to its own image file. */
  function assertOwn(d: Own): void {
    assert.ok(owned.includes(d), 'a device this test created');
    assert.match(d.device, /^\/dev\/loop\d+$/, 'only loop devices are ever named');
    const backFile = run('losetup', ['-n', '-O', 'BACK-FILE', d.device]).trim();
    assert.equal(fs.realpathSync(backFile), fs.realpathSync(d.image), 'backed by our image');
    assert.ok(fs.realpathSync(d.image).startsWith(`${work}/`), 'the image is in the test dir');
  }

  /** A drive id may be sent only when it is one of ours, or names no device at all. */
  function assertSafeId(id: unknown): void {
    if (typeof id !== 'string') return;
    const mine = owned.find((d) => idOf(d) === id);
    if (mine) assertOwn(mine);
    else assert.ok(!fs.existsSync(`/sys/class/block/${id}`) && !fs.existsSync(`/dev/${id}`), `${id} is no device of this machine`);
  }

  function mountRequest(s: TestServer, token: string | undefined, id: string, body: unknown = {}, query = ''): Promise<ApiResponse> {
    assertSafeId(id);
    return s.client.post(`/admin/drives/${id}/mount${query}`, body, token === undefined ? {} : { token });
  }

  function mountOwn(s: TestServer, token: string | undefined, d: Own, body: unknown = {}, query = ''): Promise<ApiResponse> {
    assertOwn(d);
    return mountRequest(s, token, idOf(d), body, query);
  }

  async function mounted(s: TestServer, admin: SignedIn, d: Own, body: object = {}): Promise<any> {
    const res = await mountOwn(s, admin.access, d, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  function poolRequest(s: TestServer, token: string | undefined, body: any, query = ''): Promise<ApiResponse> {
    if (Array.isArray(body?.drive_ids)) for (const id of body.drive_ids) assertSafeId(id);
    else assertSafeId(body?.drive_ids);
    return s.client.post(`/admin/drives/pool${query}`, body, token === undefined ? {} : { token });
  }

  function poolOwn(s: TestServer, token: string | undefined, ds: Own[], body: object = {}, query = ''): Promise<ApiResponse> {
    for (const d of ds) assertOwn(d);
    return poolRequest(s, token, { name: 'Pool', ...body, drive_ids: ds.map(idOf) }, query);
  }

  async function pooled(s: TestServer, admin: SignedIn, ds: Own[], body: object = {}): Promise<any> {
    const res = await poolOwn(s, admin.access, ds, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  /** The only way a correct confirmation phrase is sent: for a loop device this file made. */
  function formatOwn(s: TestServer, admin: SignedIn, d: LoopDrive, body: Record<string, unknown>): Promise<ApiResponse> {
    assertOwn(d);
    return s.client.post(`/admin/drives/${idOf(d)}/format`, { ...body, confirmation: `FORMAT ${d.device}` }, { token: admin.access });
  }

  async function drives(s: TestServer, admin: SignedIn): Promise<any> {
    const res = await s.client.get('/admin/drives', { token: admin.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(Array.isArray(res.body.items));
    return res.body;
  }

  async function listed(s: TestServer, admin: SignedIn, d: Own): Promise<any> {
    const found = (await drives(s, admin)).items.find((item: any) => item.id === idOf(d));
    assert.ok(found, `${d.device} is listed`);
    return found;
  }

  /** Where the server mounts a drive it mounts itself. */
  function serverMountPoint(d: Own): string {
    return path.join(roots, 'hearth', uuidOf(d.device));
  }

  /** What a refused request must leave as it was: the mounts below the test dir and the libraries. */
  async function snapshot(s: TestServer, admin: SignedIn): Promise<{ mounts: string[]; libraries: string[] }> {
    return {
      mounts: mountPoints()
        .filter((m) => m.startsWith(`${work}/`))
        .sort(),
      // Ids and kinds only: the server's periodic drive check may mark the libraries of earlier tests
      // (whose drives are gone) offline at any moment.
      libraries: (await libraries(s, admin)).map((l) => `${l.id}:${l.kind}`).sort(),
    };
  }

  /** Mounts our own (unmounted) drive read-only somewhere else to look at what is really on it. */
  function inspect<T>(d: LoopDrive, look: (dir: string) => T): T {
    assertOwn(d);
    assert.deepEqual(mountsOf(d.device), [], `${d.device} is not mounted`);
    const dir = path.join(work, `inspect-${++inspections}`);
    fs.mkdirSync(dir);
    run('mount', ['-o', 'ro', d.device, dir]);
    try {
      return look(dir);
    } finally {
      run('umount', [dir]);
    }
  }

  /** A pending-scope token of the owner (device approval on for one sign-in). */
  async function pendingToken(): Promise<string> {
    const on = await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    try {
      const res = await t.client.post('/auth/login', {
        username: owner.username,
        password: owner.password,
        device_name: 'Tablet',
        platform: 'android',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      return res.body.access_token;
    } finally {
      const off = await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
      assert.equal(off.status, 200, JSON.stringify(off.body));
    }
  }

  function assertMountedByServer(d: Own): string {
    const expected = serverMountPoint(d);
    const on = mountsOf(d.device);
    assert.deepEqual(
      on.map((m) => m.mountPoint),
      [expected],
      `${d.device} is mounted once, at <mounts root>/hearth/<UUID>`,
    );
    assert.ok(on[0]!.options.includes('nosuid'), `nosuid: ${on[0]!.options.join(',')}`);
    assert.ok(on[0]!.options.includes('nodev'), `nodev: ${on[0]!.options.join(',')}`);
    return expected;
  }

  /** The mergerfs mount holding a pool's library folder: under <mounts root>/hearth, checked in mountinfo. */
  function poolMountOf(pool: any): string {
    assert.equal(typeof pool.path, 'string', JSON.stringify(pool));
    const fuse = mounts().filter(
      (m) => m.fsType === 'fuse.mergerfs' && (pool.path === m.mountPoint || pool.path.startsWith(`${m.mountPoint}/`)),
    );
    assert.equal(
      fuse.length,
      1,
      `one mergerfs mount holds ${pool.path}: ${JSON.stringify(mounts().filter((m) => m.mountPoint.startsWith(`${roots}/`)))}`,
    );
    const mountPoint = fuse[0]!.mountPoint;
    assert.equal(path.dirname(mountPoint), path.join(roots, 'hearth'), `${mountPoint} is in <mounts root>/hearth`);
    return mountPoint;
  }

  // ---- What the server can do here --------------------------------------------------------

  test('GET /admin/drives says what the server can do here: format, mount and pool, each {available, reason?}; as root all three (pool needs mergerfs)', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const body = await drives(t, owner);
    for (const key of ['format', 'mount', 'pool']) {
      const capability = body.capabilities?.[key];
      assert.equal(typeof capability?.available, 'boolean', `capabilities.${key}: ${JSON.stringify(body.capabilities)}`);
      if (!capability.available) {
        assert.equal(typeof capability.reason, 'string', key);
        assert.ok(capability.reason.length > 0, key);
      }
    }
    assert.equal(body.capabilities.format.available, true, 'root can format');
    assert.equal(body.capabilities.mount.available, true, 'root can mount');
    assert.equal(
      body.capabilities.pool.available,
      poolSkipReason === null,
      `pool: ${JSON.stringify(body.capabilities.pool)} (${poolSkipReason ?? 'mergerfs is installed'})`,
    );
  });

  // ---- Mounting one drive -----------------------------------------------------------------

  test('mounting an unmounted drive: 201 library named after its label, mounted nosuid,nodev at <mounts root>/hearth/<UUID>, folder Hearth with its marker; library.changed; the drive listing points to it', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('m1', 'photos', { mounted: false });
    const mountPoint = serverMountPoint(d);
    const before = (await libraries(t, owner)).length;
    const ws = await EventSocket.open(t.url, bob.access);
    let lib: any;
    try {
      lib = await mounted(t, owner, d);
      const m = await ws.waitFor((x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id);
      assert.equal(m.payload.library.status, 'online');
      assert.ok(!('path' in m.payload.library), 'events reach members: no path');
    } finally {
      ws.close();
    }
    assert.equal(typeof lib.id, 'string');
    assert.equal(lib.name, 'photos');
    assert.equal(lib.kind, 'external');
    assert.equal(lib.status, 'online');
    assert.equal(lib.default, false);
    assert.equal(lib.content_bytes, 0);
    assert.equal(lib.path, path.join(mountPoint, 'Hearth'));

    // On the machine: mounted where the contract says, and the folder is on the drive.
    assertMountedByServer(d);
    assert.equal(mountAt(mountPoint)?.fsType, 'ext4');
    assert.ok(fs.statSync(lib.path).isDirectory());
    assert.equal(fs.readFileSync(path.join(lib.path, MARKER), 'utf8').trim(), lib.id);
    for (const key of ['used', 'free', 'total']) assert.ok(Number.isSafeInteger(lib[key]) && lib[key] >= 0, `${key}: ${lib[key]}`);
    assert.equal(lib.total, statTotal(lib.path), 'space is that of the drive');
    assert.ok(lib.total < 64 * MB);

    const item = await listed(t, owner, d);
    assert.equal(item.library_id, lib.id);
    assert.equal(item.in_use, true);
    assert.ok(item.mountpoints.includes(mountPoint), JSON.stringify(item.mountpoints));
    assert.equal(item.usable, false);
    assert.equal(item.system, false);

    const items = await libraries(t, owner);
    assert.equal(items.length, before + 1);
    assert.equal(items.find((l) => l.id === lib.id)?.status, 'online');
    const forBob = await library(t, bob, lib.id);
    assert.ok(!('path' in forBob), JSON.stringify(forBob));
    assert.deepEqual(
      (await libraries(t, owner)).filter((l) => l.default).map((l) => l.id),
      [internalId],
      'the default did not change',
    );
  });

  test('a name given is used; a drive without a label gets a descriptive name', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const named = drive('m2', 'usbstick', { mounted: false });
    const lib = await mounted(t, owner, named, { name: 'Family photos' });
    assert.equal(lib.name, 'Family photos');
    assertMountedByServer(named);

    const bare = drive('m3', null, { mounted: false });
    const other = await mounted(t, owner, bare);
    assert.equal(typeof other.name, 'string');
    assert.ok(other.name.trim().length > 0 && [...other.name].length <= 64, JSON.stringify(other.name));
    assertMountedByServer(bare);
    assert.equal((await listed(t, owner, bare)).library_id, other.id);
  });

  test('a drive the owner already mounted under the mounts root is not mounted again: the library is <its mount point>/Hearth', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('pre1', 'premounted');
    assert.ok(d.isMounted());
    const lib = await mounted(t, owner, d);
    assert.equal(lib.path, path.join(d.mountPoint, 'Hearth'));
    assert.equal(lib.name, 'premounted');
    assert.equal(lib.status, 'online');
    assert.deepEqual(
      mountsOf(d.device).map((m) => m.mountPoint),
      [d.mountPoint],
      'still mounted only where it was',
    );
    assert.equal(mountAt(path.join(roots, 'hearth', uuidOf(d.device))), undefined);
    assert.ok(fs.statSync(lib.path).isDirectory());
    assert.equal(fs.readFileSync(path.join(lib.path, MARKER), 'utf8').trim(), lib.id);
    const item = await listed(t, owner, d);
    assert.equal(item.library_id, lib.id);
    assert.deepEqual(item.mountpoints, [d.mountPoint]);
    assert.equal(item.usable, false);
  });

  test('make_default: new uploads land on the drive; eject unmounts it (503 meanwhile, the bytes are on the image); mounting it again brings the same library back online with its files', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('usb1', 'familyusb', { mounted: false });
    const lib = await mounted(t, owner, d, { make_default: true });
    assert.equal(lib.default, true);
    assert.deepEqual(
      (await libraries(t, owner)).filter((l) => l.default).map((l) => l.id),
      [lib.id],
      'the only default',
    );
    const mountPoint = assertMountedByServer(d);

    const data = crypto.randomBytes(300_000);
    const fileId = await uploadFile(t.api, owner.access, data, { filename: 'photo.raw' });
    assert.ok(blobWith(lib.path, data), 'the file is a blob in <path>/blobs/ on the drive');
    assert.equal(blobWith(path.join(t.dataDir, 'files'), data), undefined, 'and not on the internal library');
    assert.equal((await library(t, owner, lib.id)).content_bytes, data.length);
    await assertDownloads(t, owner, fileId, data);

    await setDefault(t, owner, internalId);
    const ws = await EventSocket.open(t.url, bob.access);
    try {
      await eject(t, owner, lib.id);
      const m = await ws.waitFor(
        (x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id && x.payload.library.status === 'ejected',
      );
      assert.ok(m);
    } finally {
      ws.close();
    }
    assert.deepEqual(mountsOf(d.device), [], 'eject unmounted the drive the server mounted');
    assert.equal(mountAt(mountPoint), undefined);
    assert.equal((await library(t, owner, lib.id)).status, 'ejected');
    await assertOffline(t, owner, fileId);
    const free = await listed(t, owner, d);
    assert.equal(free.library_id, null);
    assert.deepEqual(free.mountpoints, []);
    assert.equal(free.in_use, false);

    // What is really on the drive, looked at without the server.
    inspect(d, (dir) => {
      assert.equal(fs.readFileSync(path.join(dir, 'Hearth', MARKER), 'utf8').trim(), lib.id);
      assert.ok(blobWith(path.join(dir, 'Hearth'), data), 'the bytes are on the image');
    });

    const count = (await libraries(t, owner)).length;
    const again = await mounted(t, owner, d);
    assert.equal(again.id, lib.id, 'the same library');
    assert.equal(again.status, 'online');
    assert.equal(again.path, lib.path);
    assert.equal(again.default, false);
    assert.equal(again.content_bytes, data.length);
    assertMountedByServer(d);
    assert.equal((await libraries(t, owner)).length, count, 'no second library for the same drive');
    assert.equal((await library(t, owner, lib.id)).status, 'online');
    assert.equal((await listed(t, owner, d)).library_id, lib.id);
    await assertDownloads(t, owner, fileId, data);
  });

  // ---- Mount refusals ----------------------------------------------------------------------

  test('a drive that already has a library (mounted by the server, or a folder registered on it) is 409 already_registered', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('twice1', 'twice', { mounted: false });
    const lib = await mounted(t, owner, d);
    const before = await snapshot(t, owner);
    assertError(await mountOwn(t, owner.access, d), 409, 'already_registered');
    assertError(await mountOwn(t, owner.access, d, { name: 'Again', make_default: true }), 409, 'already_registered');
    assert.deepEqual(await snapshot(t, owner), before);
    assert.equal(fs.readFileSync(path.join(lib.path, MARKER), 'utf8').trim(), lib.id);

    const e = drive('reg1', 'registered');
    const folder = path.join(e.mountPoint, 'family');
    fs.mkdirSync(folder);
    const reg = await t.client.post('/libraries', { name: 'Registered', path: folder }, { token: owner.access });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const before2 = await snapshot(t, owner);
    assertError(await mountOwn(t, owner.access, e), 409, 'already_registered');
    assert.deepEqual(await snapshot(t, owner), before2);
    assert.ok(!fs.existsSync(path.join(e.mountPoint, 'Hearth')), 'no Hearth folder was made');
  });

  test('a blank drive (no file system) is 409 no_filesystem; nothing is written to it and nothing is mounted', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const b = blank('blank1');
    const item = await listed(t, owner, b);
    assert.equal(item.filesystem, null);
    const before = await snapshot(t, owner);
    assertError(await mountOwn(t, owner.access, b), 409, 'no_filesystem');
    assertError(await mountOwn(t, owner.access, b, { name: 'Blank', make_default: true }), 409, 'no_filesystem');
    assert.deepEqual(await snapshot(t, owner), before);
    assert.deepEqual(mountsOf(b.device), []);
    assert.deepEqual(blkid(b.device), {});
    const image = fs.readFileSync(b.image);
    assert.ok(
      image.every((byte) => byte === 0),
      'the image is still all zeros',
    );
  });

  test('a drive whose Hearth folder holds the marker of a library this server does not know is 409 foreign_library, left as found', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('foreign1', 'otherhome');
    const folder = path.join(d.mountPoint, 'Hearth');
    fs.mkdirSync(path.join(folder, 'blobs', 'ab'), { recursive: true });
    fs.writeFileSync(path.join(folder, MARKER), '01JFOREIGNLIBRARYOFANOTHERSERVER');
    const keep = crypto.randomBytes(5000);
    fs.writeFileSync(path.join(folder, 'blobs', 'ab', 'keep.bin'), keep);

    // Mounted by the owner: refused, still mounted where it was.
    let before = await snapshot(t, owner);
    assertError(await mountOwn(t, owner.access, d), 409, 'foreign_library');
    assert.deepEqual(await snapshot(t, owner), before);
    assert.deepEqual(
      mountsOf(d.device).map((m) => m.mountPoint),
      [d.mountPoint],
    );
    assert.equal(fs.readFileSync(path.join(folder, MARKER), 'utf8'), '01JFOREIGNLIBRARYOFANOTHERSERVER');

    // Not mounted: the server has to mount it to look, then leaves it unmounted again.
    d.unmount();
    before = await snapshot(t, owner);
    assertError(await mountOwn(t, owner.access, d, { make_default: true }), 409, 'foreign_library');
    assert.deepEqual(mountsOf(d.device), [], 'the server did not leave the drive mounted');
    assert.deepEqual(await snapshot(t, owner), before);
    assert.equal((await listed(t, owner, d)).library_id, null);
    inspect(d, (dir) => {
      assert.equal(
        fs.readFileSync(path.join(dir, 'Hearth', MARKER), 'utf8'),
        '01JFOREIGNLIBRARYOFANOTHERSERVER',
        'the marker is untouched',
      );
      assert.ok(fs.readFileSync(path.join(dir, 'Hearth', 'blobs', 'ab', 'keep.bin')).equals(keep), 'its files are untouched');
    });
  });

  test('a bad name (empty after trim, over 64 characters, not a string) or make_default not a boolean is 400 invalid_input; a 64-character name is fine', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('badname1', 'badname', { mounted: false });
    const before = await snapshot(t, owner);
    for (const body of [{ name: '' }, { name: '   ' }, { name: 'x'.repeat(65) }, { name: 'é'.repeat(65) }]) {
      assertError(await mountOwn(t, owner.access, d, body), 400, 'invalid_input');
    }
    for (const body of [{ name: 7 }, { name: null }, { make_default: 'yes' }, { make_default: 1 }]) {
      const res = await mountOwn(t, owner.access, d, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body?.error?.code, 'invalid_input', JSON.stringify(res.body));
    }
    assert.deepEqual(mountsOf(d.device), [], 'a refused body mounts nothing');
    assert.deepEqual(await snapshot(t, owner), before);

    const lib = await mounted(t, owner, d, { name: 'é'.repeat(64) });
    assert.equal(lib.name, 'é'.repeat(64));
  });

  test('an unknown drive id is 404 not_found, and so is a loop device when the server does not list loop devices', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const before = await snapshot(t, owner);
    for (const id of ['nosuchdrive9', 'loop999']) assertError(await mountRequest(t, owner.access, id), 404, 'not_found');
    assert.deepEqual(await snapshot(t, owner), before);

    const d = drive('hidden1', 'hidden', { mounted: false });
    const plain = await server({ includeLoopDevices: false });
    const admin = await setupOwner(plain.client);
    assertError(await mountOwn(plain, admin.access, d), 404, 'not_found');
    assert.deepEqual(mountsOf(d.device), []);
    assert.equal((await libraries(plain, admin)).length, 1);
  });

  test('mount without a token, or with ?access_token, is 401; a member 403 forbidden; a pending-scope token 403 pending_approval; the drive is untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('auth1', 'authfs', { mounted: false });
    const before = await snapshot(t, owner);
    assertError(await mountOwn(t, undefined, d), 401, 'unauthorized');
    const query = await mountOwn(t, undefined, d, {}, `?access_token=${encodeURIComponent(owner.access)}`);
    assert.equal(query.status, 401, JSON.stringify(query.body));
    assertError(await mountOwn(t, bob.access, d, { make_default: true }), 403, 'forbidden');
    const pending = await pendingToken();
    assertError(await mountOwn(t, pending, d), 403, 'pending_approval');
    assert.deepEqual(mountsOf(d.device), []);
    assert.deepEqual(await snapshot(t, owner), before);
    assert.equal((await listed(t, owner, d)).library_id, null);
  });

  test("the drive holding a systemPaths mount point, or the server's data dir, is 403 system_drive: not mounted again, no folder made", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const sys = drive('sys1', 'systemfs');
    const s = await server({ systemPaths: [sys.mountPoint] });
    const admin = await setupOwner(s.client);
    assert.equal((await listed(s, admin, sys)).system, true);
    assertError(await mountOwn(s, admin.access, sys), 403, 'system_drive');
    assertError(await mountOwn(s, admin.access, sys, { name: 'Sys', make_default: true }), 403, 'system_drive');
    assert.deepEqual(
      mountsOf(sys.device).map((m) => m.mountPoint),
      [sys.mountPoint],
    );
    assert.ok(!fs.existsSync(path.join(sys.mountPoint, 'Hearth')), 'no Hearth folder on the system drive');
    assert.equal((await libraries(s, admin)).length, 1);

    const data = drive('data1', 'datafs');
    const dataDir = path.join(data.mountPoint, 'hearth-data');
    fs.mkdirSync(dataDir);
    const s2 = await server({ dataDir });
    const admin2 = await setupOwner(s2.client);
    assert.equal((await listed(s2, admin2, data)).system, true);
    assertError(await mountOwn(s2, admin2.access, data), 403, 'system_drive');
    assert.deepEqual(
      mountsOf(data.device).map((m) => m.mountPoint),
      [data.mountPoint],
    );
    assert.ok(!fs.existsSync(path.join(data.mountPoint, 'Hearth')));
    assert.equal((await libraries(s2, admin2)).length, 1);
    assert.equal((await s2.client.get('/me', { token: admin2.access })).status, 200, 'the server still works');
  });

  test('one drive operation at a time: a mount while a format runs is 409 drive_operation_running (or both run one after the other)', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const big = drive('busy-big', 'bigold', { sizeMb: 512, mounted: false });
    const d = drive('busy-mount', 'busymount', { mounted: false });
    const [format, mount] = await Promise.all([
      formatOwn(t, owner, big, { filesystem: 'ext4', label: 'bignew' }),
      mountOwn(t, owner.access, d),
    ]);
    if (format.status === 200 && mount.status === 201) {
      console.log('# the format and the mount ran one after the other: drive_operation_running not provoked');
    } else if (mount.status === 409) {
      assert.equal(format.status, 200, JSON.stringify(format.body));
      assertError(mount, 409, 'drive_operation_running');
      assert.deepEqual(mountsOf(d.device), [], 'the refused mount did nothing');
      const again = await mountOwn(t, owner.access, d);
      assert.equal(again.status, 201, JSON.stringify(again.body));
    } else {
      assert.equal(mount.status, 201, JSON.stringify(mount.body));
      assertError(format, 409, 'drive_operation_running');
      assert.equal(blkid(big.device).LABEL, 'bigold', 'the refused format did nothing');
    }
    assertMountedByServer(d);
  });

  // ---- Pools -------------------------------------------------------------------------------

  test('pooling two unmounted drives: 201 pooled library, a mergerfs mount at <mounts root>/hearth/pool-<id> over <member>/Hearth, space about the sum; uploads land on the members; eject unmounts the pool and the members', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (poolSkipReason) return ctx.skip(poolSkipReason);
    const a = drive('pa', 'poola', { mounted: false });
    const b = drive('pb', 'poolb', { sizeMb: 96, mounted: false });
    const ws = await EventSocket.open(t.url, bob.access);
    let pool: any;
    try {
      pool = await pooled(t, owner, [a, b], { name: 'Family pool', make_default: true });
      const m = await ws.waitFor((x) => x.type === 'library.changed' && x.payload?.library?.id === pool.id);
      assert.equal(m.payload.library.kind, 'pooled');
      assert.ok(!JSON.stringify(m.payload).includes(roots), 'events reach members: no paths');
    } finally {
      ws.close();
    }
    assert.equal(pool.name, 'Family pool');
    assert.equal(pool.kind, 'pooled');
    assert.equal(pool.status, 'online');
    assert.equal(pool.default, true);
    assert.equal(pool.content_bytes, 0);
    assert.deepEqual(
      (await libraries(t, owner)).filter((l) => l.default).map((l) => l.id),
      [pool.id],
    );

    // The members: mounted by the server at <mounts root>/hearth/<UUID>, each with its Hearth branch.
    const branches: string[] = [];
    for (const d of [a, b]) {
      const mountPoint = assertMountedByServer(d);
      const branch = path.join(mountPoint, 'Hearth');
      assert.ok(fs.statSync(branch).isDirectory(), `${branch} exists`);
      branches.push(branch);
    }
    // The pool itself: a mergerfs mount under <mounts root>/hearth holding the library folder.
    const poolMountPoint = poolMountOf(pool);
    assert.equal(fs.readFileSync(path.join(pool.path, MARKER), 'utf8').trim(), pool.id);

    assert.ok(Array.isArray(pool.members), JSON.stringify(pool));
    assert.equal(pool.members.length, 2);
    for (const d of [a, b]) {
      const member = pool.members.find((m: any) => m.device === d.device);
      assert.ok(member, `${d.device} is a member: ${JSON.stringify(pool.members)}`);
      assert.equal(member.uuid, uuidOf(d.device));
      const mountPoint = serverMountPoint(d);
      assert.ok(member.path === mountPoint || member.path === path.join(mountPoint, 'Hearth'), JSON.stringify(member));
    }

    // Space: that of both members together.
    const sum = branches.reduce((n, branch) => n + statTotal(branch), 0);
    assert.ok(Math.abs(pool.total - sum) <= sum * 0.05, `total ${pool.total} is about ${sum}`);
    for (const branch of branches) assert.ok(pool.total > statTotal(branch), 'more than any one member');
    assert.ok(pool.total <= 160 * MB);
    assert.equal(statTotal(poolMountPoint), pool.total);

    for (const d of [a, b]) {
      const item = await listed(t, owner, d);
      assert.equal(item.library_id, pool.id, `${d.device} belongs to the pool`);
      assert.equal(item.in_use, true);
      assert.equal(item.usable, false);
    }
    const forBob = await library(t, bob, pool.id);
    assert.equal(forBob.kind, 'pooled');
    assert.ok(!('path' in forBob));
    assert.ok(!JSON.stringify(forBob).includes(roots), `no paths for a member: ${JSON.stringify(forBob)}`);

    // Uploads land on the member drives.
    const files: { id: string; data: Buffer }[] = [];
    for (const size of [200_000, 1_000_000, 3_000]) {
      const data = crypto.randomBytes(size);
      files.push({ id: await uploadFile(t.api, owner.access, data, { filename: `pool-${size}.bin` }), data });
    }
    for (const { id, data } of files) {
      await assertDownloads(t, owner, id, data);
      assert.ok(
        branches.some((branch) => blobWith(branch, data)),
        'the blob is on a member drive',
      );
      assert.equal(blobWith(path.join(t.dataDir, 'files'), data), undefined);
    }
    const total = files.reduce((n, f) => n + f.data.length, 0);
    assert.equal((await library(t, owner, pool.id)).content_bytes, total);

    // Eject: the pool and the member mounts the server made go away; nothing is deleted.
    await setDefault(t, owner, internalId);
    await eject(t, owner, pool.id);
    assert.equal(mountAt(poolMountPoint), undefined, 'the mergerfs mount is gone');
    assert.deepEqual(mountsOf(a.device), [], 'member a is unmounted');
    assert.deepEqual(mountsOf(b.device), [], 'member b is unmounted');
    assert.equal((await library(t, owner, pool.id)).status, 'ejected');
    for (const { id } of files) await assertOffline(t, owner, id);
    for (const { data } of files) {
      const found = [a, b].filter((d) => inspect(d, (dir) => blobWith(path.join(dir, 'Hearth'), data) !== undefined));
      assert.equal(found.length, 1, 'each file is on exactly one member image');
    }
    assert.equal(
      poolMountPoint,
      path.join(roots, 'hearth', `pool-${pool.id}`),
      'the pool is mounted at <mounts root>/hearth/pool-<library id>',
    );
  });

  test('a pool member the owner already mounted under the mounts root is used where it is: branch <its mount point>/Hearth; eject unmounts the pool and the member the server mounted', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (poolSkipReason) return ctx.skip(poolSkipReason);
    const a = drive('prepool-a', 'prea');
    const b = drive('prepool-b', 'preb', { mounted: false });
    const pool = await pooled(t, owner, [a, b], { name: 'Mixed pool', make_default: true });
    assert.equal(pool.kind, 'pooled');
    assert.equal(pool.status, 'online');
    assert.deepEqual(
      mountsOf(a.device).map((m) => m.mountPoint),
      [a.mountPoint],
      'a is not mounted a second time',
    );
    const bMountPoint = assertMountedByServer(b);
    const branches = [path.join(a.mountPoint, 'Hearth'), path.join(bMountPoint, 'Hearth')];
    for (const branch of branches) assert.ok(fs.statSync(branch).isDirectory(), `${branch} exists`);
    const poolMountPoint = poolMountOf(pool);
    const sum = branches.reduce((n, branch) => n + statTotal(branch), 0);
    assert.ok(Math.abs(pool.total - sum) <= sum * 0.05, `total ${pool.total} is about ${sum}`);

    const data = crypto.randomBytes(150_000);
    const fileId = await uploadFile(t.api, owner.access, data, { filename: 'mixed.bin' });
    await assertDownloads(t, owner, fileId, data);
    assert.ok(
      branches.some((branch) => blobWith(branch, data)),
      'the blob is on a member',
    );
    for (const d of [a, b]) assert.equal((await listed(t, owner, d)).library_id, pool.id);

    await setDefault(t, owner, internalId);
    await eject(t, owner, pool.id);
    assert.equal(mountAt(poolMountPoint), undefined, 'the mergerfs mount is gone');
    assert.deepEqual(mountsOf(b.device), [], 'the member the server mounted is unmounted');
    await assertOffline(t, owner, fileId);
  });

  test('pool refusals: 400 invalid_input (fewer than 2, more than 8, duplicate ids, bad name), 404 unknown id, 409 no_filesystem, 409 drive_in_use, 401 and 403 for who asks; nothing is mounted', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (poolSkipReason) return ctx.skip(poolSkipReason);
    const a = drive('refuse-a', 'refusea', { mounted: false });
    const b = drive('refuse-b', 'refuseb', { mounted: false });
    const empty = blank('refuse-blank');
    const used = drive('refuse-used', 'refuseused', { mounted: false });
    const usedLib = await mounted(t, owner, used);
    const before = await snapshot(t, owner);
    const [ida, idb] = [idOf(a), idOf(b)];
    const nine = Array.from({ length: 9 }, (_, i) => `nosuchdrive${i}`);

    for (const body of [
      { name: 'P', drive_ids: [ida] },
      { name: 'P', drive_ids: [] },
      { name: 'P', drive_ids: [ida, ida] },
      { name: 'P', drive_ids: [ida, idb, ida] },
      { name: 'P', drive_ids: nine },
      { name: '', drive_ids: [ida, idb] },
      { name: '   ', drive_ids: [ida, idb] },
      { name: 'x'.repeat(65), drive_ids: [ida, idb] },
    ]) {
      const res = await poolRequest(t, owner.access, body);
      assertError(res, 400, 'invalid_input');
    }
    for (const body of [
      { name: 'P', drive_ids: ida },
      { name: 'P', drive_ids: [ida, 5] },
      { name: 7, drive_ids: [ida, idb] },
      { name: 'P', drive_ids: [ida, idb], make_default: 'yes' },
    ]) {
      const res = await poolRequest(t, owner.access, body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body?.error?.code, 'invalid_input', JSON.stringify(res.body));
    }
    // A required field left out: the API's usual missing_field.
    assertError(await poolRequest(t, owner.access, { drive_ids: [ida, idb] }), 400, 'missing_field', 'name');
    assertError(await poolRequest(t, owner.access, { name: 'P' }), 400, 'missing_field', 'drive_ids');
    assert.deepEqual(await snapshot(t, owner), before, 'nothing happened after the 400s');

    assertError(await poolRequest(t, owner.access, { name: 'P', drive_ids: [ida, 'nosuchdrive9'] }), 404, 'not_found');
    assertError(await poolRequest(t, owner.access, { name: 'P', drive_ids: ['nosuchdrive9', idb] }), 404, 'not_found');
    assert.deepEqual(await snapshot(t, owner), before, 'nothing happened after the 404s');

    assertError(await poolOwn(t, owner.access, [a, empty]), 409, 'no_filesystem');
    assertError(await poolOwn(t, owner.access, [empty, b]), 409, 'no_filesystem');
    assert.deepEqual(blkid(empty.device), {});
    assert.deepEqual(await snapshot(t, owner), before, 'nothing happened after no_filesystem');

    assertError(await poolOwn(t, owner.access, [a, used]), 409, 'drive_in_use');
    assertError(await poolOwn(t, owner.access, [used, b]), 409, 'drive_in_use');
    assert.deepEqual(await snapshot(t, owner), before, 'nothing happened after drive_in_use');
    assert.equal((await library(t, owner, usedLib.id)).status, 'online');

    assertError(await poolOwn(t, undefined, [a, b]), 401, 'unauthorized');
    const query = await poolOwn(t, undefined, [a, b], {}, `?access_token=${encodeURIComponent(owner.access)}`);
    assert.equal(query.status, 401, JSON.stringify(query.body));
    assertError(await poolOwn(t, bob.access, [a, b], { make_default: true }), 403, 'forbidden');
    assertError(await poolOwn(t, await pendingToken(), [a, b]), 403, 'pending_approval');

    assert.deepEqual(await snapshot(t, owner), before, 'nothing was mounted or registered');
    assert.deepEqual(mountsOf(a.device), []);
    assert.deepEqual(mountsOf(b.device), []);
    assert.ok(!(await libraries(t, owner)).some((l) => l.kind === 'pooled' && l.status === 'online' && l.name === 'P'));
    assert.ok(!mounts().some((m) => m.fsType === 'fuse.mergerfs' && m.mountPoint.startsWith(`${roots}/`)), 'no pool mounted');
  });

  test('a pool including the drive of a systemPaths mount point or of the data dir is 403 system_drive; the other member is not mounted', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (poolSkipReason) return ctx.skip(poolSkipReason);
    const other = drive('sysp-other', 'otherfs', { mounted: false });
    const sys = drive('sysp-sys', 'systemfs');
    const s = await server({ systemPaths: [sys.mountPoint] });
    const admin = await setupOwner(s.client);
    assertError(await poolOwn(s, admin.access, [other, sys], { name: 'Nope' }), 403, 'system_drive');
    assertError(await poolOwn(s, admin.access, [sys, other], { name: 'Nope' }), 403, 'system_drive');
    assert.deepEqual(mountsOf(other.device), []);
    assert.deepEqual(
      mountsOf(sys.device).map((m) => m.mountPoint),
      [sys.mountPoint],
    );
    assert.ok(!fs.existsSync(path.join(sys.mountPoint, 'Hearth')));
    assert.equal((await libraries(s, admin)).length, 1);

    const data = drive('sysp-data', 'datafs');
    const dataDir = path.join(data.mountPoint, 'hearth-data');
    fs.mkdirSync(dataDir);
    const s2 = await server({ dataDir });
    const admin2 = await setupOwner(s2.client);
    assertError(await poolOwn(s2, admin2.access, [other, data], { name: 'Nope' }), 403, 'system_drive');
    assert.deepEqual(mountsOf(other.device), []);
    assert.ok(!fs.existsSync(path.join(data.mountPoint, 'Hearth')));
    assert.equal((await libraries(s2, admin2)).length, 1);
  });

  // ---- Startup ------------------------------------------------------------------------------

  test('after a restart (mounts gone, as after a reboot) the server mounts its drive library and re-assembles its pool: online, files byte-identical, new files on the drives; ejected ones stay ejected and unmounted', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (poolSkipReason) return ctx.skip(poolSkipReason);
    const pa = drive('rs-pa', 'rspa', { mounted: false });
    const pb = drive('rs-pb', 'rspb', { mounted: false });
    const dd = drive('rs-d', 'rsd', { mounted: false });
    const ea = drive('rs-ea', 'rsea', { mounted: false });
    const eb = drive('rs-eb', 'rseb', { mounted: false });
    const ed = drive('rs-ed', 'rsed', { mounted: false });
    const all = [pa, pb, dd, ea, eb, ed];

    const first = await server();
    const dataDir = first.dataDir;
    const admin = await setupOwner(first.client);
    const internal = await internalIdOf(first, admin);
    const pool = await pooled(first, admin, [pa, pb], { name: 'Pool', make_default: true });
    const onPool = crypto.randomBytes(400_000);
    const onPoolId = await uploadFile(first.api, admin.access, onPool, { filename: 'pool.bin' });
    const lib = await mounted(first, admin, dd, { name: 'Disk', make_default: true });
    const onDrive = crypto.randomBytes(250_000);
    const onDriveId = await uploadFile(first.api, admin.access, onDrive, { filename: 'disk.bin' });
    const oldPool = await pooled(first, admin, [ea, eb], { name: 'Old pool' });
    const oldDrive = await mounted(first, admin, ed, { name: 'Old disk' });
    await setDefault(first, admin, internal);
    await eject(first, admin, oldPool.id);
    await eject(first, admin, oldDrive.id);
    await first.server.close(); // keeps the data dir

    // As a reboot would: nothing of the server's stays mounted.
    assert.deepEqual(unmountAllUnder(path.join(roots, 'hearth')), []);
    for (const d of all) assert.deepEqual(mountsOf(d.device), [], `${d.device} is not mounted`);

    const t2 = await server({ dataDir });
    const login = await t2.client.post('/auth/login', { username: admin.username, password: admin.password });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    const who: SignedIn = { ...admin, access: login.body.access_token };

    const bothOnline = async () => {
      const items = await libraries(t2, who);
      return items.find((l) => l.id === pool.id)?.status === 'online' && items.find((l) => l.id === lib.id)?.status === 'online';
    };
    let online = await bothOnline();
    for (let i = 0; i < 75 && !online; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      online = await bothOnline();
    }
    if (!online) {
      console.log('# not online within 15 s of startup: running maintenance once');
      await t2.server.runMaintenance();
    }
    const items = await libraries(t2, who);
    const poolNow = items.find((l) => l.id === pool.id);
    const libNow = items.find((l) => l.id === lib.id);
    assert.equal(poolNow?.status, 'online', JSON.stringify(poolNow));
    assert.equal(poolNow.kind, 'pooled');
    assert.equal(libNow?.status, 'online', JSON.stringify(libNow));

    // Really mounted again, where they were.
    const poolMountPoint = poolMountOf(poolNow);
    assert.equal(poolNow.path, pool.path, 'the pool is where it was');
    const branches = [pa, pb].map((d) => path.join(assertMountedByServer(d), 'Hearth'));
    assertMountedByServer(dd);
    await assertDownloads(t2, who, onPoolId, onPool);
    await assertDownloads(t2, who, onDriveId, onDrive);
    assert.ok(branches.some((branch) => blobWith(branch, onPool)));
    assert.ok(blobWith(libNow.path, onDrive));

    // New files go to the drives, not to the empty folders under them.
    await setDefault(t2, who, pool.id);
    const fresh = crypto.randomBytes(120_000);
    const freshId = await uploadFile(t2.api, who.access, fresh, { filename: 'after-restart.bin' });
    await assertDownloads(t2, who, freshId, fresh);
    assert.ok(
      branches.some((branch) => blobWith(branch, fresh)),
      'the new file is on a member drive',
    );

    // Ejected ones stay ejected and unmounted, maintenance or not.
    for (const round of ['startup', 'maintenance']) {
      if (round === 'maintenance') await t2.server.runMaintenance();
      const now = await libraries(t2, who);
      assert.equal(now.find((l) => l.id === oldPool.id)?.status, 'ejected', `${round}: the ejected pool stays ejected`);
      assert.equal(now.find((l) => l.id === oldDrive.id)?.status, 'ejected', `${round}: the ejected drive stays ejected`);
      assert.ok(
        !mounts().some((m) => m.fsType === 'fuse.mergerfs' && m.mountPoint !== poolMountPoint && m.mountPoint.startsWith(`${roots}/`)),
        `${round}: the ejected pool is not mounted`,
      );
      assert.equal(mountAt(oldPool.path), undefined, `${round}: nothing is mounted where the ejected pool was`);
      for (const d of [ea, eb, ed]) assert.deepEqual(mountsOf(d.device), [], `${round}: ${d.device} is not mounted`);
    }
  });

  test('removing an empty drive library unmounts the drive the server mounted and takes its Hearth folder away (the rest of the drive stays); mounted again it is a new library', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('rm1', 'giveaway');
    fs.writeFileSync(path.join(d.mountPoint, 'family-tree.txt'), "the owner's own file");
    d.unmount();
    const lib = await mounted(t, owner, d);
    const mountPoint = assertMountedByServer(d);
    const fileId = await (async () => {
      await setDefault(t, owner, lib.id);
      try {
        return await uploadFile(t.api, owner.access, crypto.randomBytes(2000), { filename: 'brief.bin' });
      } finally {
        await setDefault(t, owner, internalId);
      }
    })();
    assertError(await t.client.delete(`/libraries/${lib.id}`, { token: owner.access }), 409, 'library_not_empty');
    assert.deepEqual(
      mountsOf(d.device).map((m) => m.mountPoint),
      [mountPoint],
      'a refused removal unmounts nothing',
    );
    assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: owner.access })).status, 204);

    const res = await t.client.delete(`/libraries/${lib.id}`, { token: owner.access });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.deepEqual(mountsOf(d.device), [], 'the drive the server mounted is unmounted');
    assert.ok(!fs.existsSync(mountPoint), 'and its mount point folder is gone');
    assert.ok(!(await libraries(t, owner)).some((l) => l.id === lib.id));
    assert.equal((await listed(t, owner, d)).library_id, null);
    inspect(d, (dir) => {
      assert.deepEqual(fs.readdirSync(dir).sort(), ['family-tree.txt', 'lost+found'], "no Hearth folder left; the owner's file stays");
    });

    const again = await mounted(t, owner, d);
    assert.notEqual(again.id, lib.id);
    assert.equal(again.status, 'online');
  });

  test('removing an empty pool unmounts the pool and the drives the server mounted, and takes the Hearth folders away', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    if (poolSkipReason) return ctx.skip(poolSkipReason);
    const a = drive('rmpa', 'rmpoola', { mounted: false });
    const b = drive('rmpb', 'rmpoolb', { mounted: false });
    const pool = await pooled(t, owner, [a, b], { name: 'Short-lived pool' });
    const poolMountPoint = poolMountOf(pool);
    const res = await t.client.delete(`/libraries/${pool.id}`, { token: owner.access });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.equal(mountAt(poolMountPoint), undefined, 'the pool is unmounted');
    for (const d of [a, b]) {
      assert.deepEqual(mountsOf(d.device), [], `${d.device} is unmounted`);
      inspect(d, (dir) => assert.deepEqual(fs.readdirSync(dir), ['lost+found'], `${d.device} holds no Hearth folder`));
    }
    assert.ok(!(await libraries(t, owner)).some((l) => l.id === pool.id));
  });

  test('eject, then remove: the drive keeps the old marker (nothing in it); mounted again it becomes a new library', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('rm2', 'ejectfirst', { mounted: false });
    const lib = await mounted(t, owner, d);
    await eject(t, owner, lib.id);
    assert.deepEqual(mountsOf(d.device), []);
    const res = await t.client.delete(`/libraries/${lib.id}`, { token: owner.access });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    inspect(d, (dir) =>
      assert.equal(fs.readFileSync(path.join(dir, 'Hearth', MARKER), 'utf8'), lib.id, 'the drive was away: its marker is still there'),
    );
    const again = await mounted(t, owner, d);
    assert.notEqual(again.id, lib.id);
    assert.equal(fs.readFileSync(path.join(again.path, MARKER), 'utf8'), again.id);
  });

  test("a drive with a Hearth folder of the owner's own (files, no marker) is 409 folder_not_empty, left as found and unmounted again", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('rm3', 'ownhearth');
    fs.mkdirSync(path.join(d.mountPoint, 'Hearth', 'tmp'), { recursive: true });
    fs.writeFileSync(path.join(d.mountPoint, 'Hearth', 'tmp', 'recipe.txt'), "grandma's soup");
    d.unmount();
    const before = await snapshot(t, owner);
    assertError(await mountOwn(t, owner.access, d), 409, 'folder_not_empty');
    assert.deepEqual(mountsOf(d.device), [], 'the server did not leave the drive mounted');
    assert.deepEqual(await snapshot(t, owner), before);
    inspect(d, (dir) => {
      assert.equal(fs.readFileSync(path.join(dir, 'Hearth', 'tmp', 'recipe.txt'), 'utf8'), "grandma's soup");
      assert.ok(!fs.existsSync(path.join(dir, 'Hearth', MARKER)));
    });
  });

  test('removing a drive library leaves the drive mounted while another library still lives on it', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('rm4', 'sharedrive', { mounted: false });
    const lib = await mounted(t, owner, d);
    const mountPoint = assertMountedByServer(d);
    fs.mkdirSync(path.join(mountPoint, 'family'));
    const neighbour = await t.client.post(
      '/libraries',
      { name: 'Neighbour', path: path.join(mountPoint, 'family') },
      { token: owner.access },
    );
    assert.equal(neighbour.status, 201, JSON.stringify(neighbour.body));
    const res = await t.client.delete(`/libraries/${lib.id}`, { token: owner.access });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.deepEqual(
      mountsOf(d.device).map((m) => m.mountPoint),
      [mountPoint],
      'still mounted for the other library',
    );
    assert.ok(!fs.existsSync(path.join(mountPoint, 'Hearth')), "the removed library's folder is gone");
    await t.server.runMaintenance();
    assert.equal((await library(t, owner, neighbour.body.id)).status, 'online');
    await setDefault(t, owner, internalId);
    assert.equal((await t.client.delete(`/libraries/${neighbour.body.id}`, { token: owner.access })).status, 204);
  });
});
