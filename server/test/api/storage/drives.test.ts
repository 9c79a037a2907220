import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { createLoopDrive, loopUnsupportedReason, setLabel, type LoopDrive } from '../../helpers/loop.ts';
import { missingTool, skipBecause } from '../../helpers/skip.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';

/*
 * SAFETY: these tests run as root on a machine whose real disk is /dev/vda. A format request
 * with a CORRECT confirmation phrase is only ever sent through `formatOwn`, which refuses any
 * device that is not a loop device this file created itself. Every other request carries a
 * wrong phrase, or names no real device.
 */

const MB = 1024 * 1024;

/** A fresh directory outside every data dir, removed by the caller. */
function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

function run(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 });
}

/** What is on the device, read from the device itself (`blkid -p -o export`). */
function blkid(device: string): { TYPE?: string; LABEL?: string } {
  let out: string;
  try {
    out = run('blkid', ['-p', '-o', 'export', device]);
  } catch {
    return {}; // nothing recognisable on it
  }
  return Object.fromEntries(
    out
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
}

/** "What was on it before": the file system, its label, and the UUID it had (ext4 a UUID, exFAT a volume serial). */
function assertPrevious(previous: any, filesystem: string, label: string): void {
  assert.equal(previous.filesystem, filesystem);
  assert.equal(previous.label, label);
  assert.match(previous.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9A-F]{4}-[0-9A-F]{4}$/);
}

function assertUntouched(drive: LoopDrive, label: string): void {
  const now = blkid(drive.device);
  assert.equal(now.TYPE, 'ext4', `${drive.device} still holds its ext4 file system`);
  assert.equal(now.LABEL, label, `${drive.device} still has its label`);
}

describe('drives (loop-device images made by the test)', () => {
  let work: string;
  let roots: string;
  let skipReason: string | null = null;
  const drives: LoopDrive[] = [];
  const servers: TestServer[] = [];
  let t: TestServer;
  let owner: SignedIn;
  let bob: SignedIn;

  before(async () => {
    work = tempDir('hearth-drives-');
    roots = path.join(work, 'media');
    fs.mkdirSync(roots);
    skipReason = loopUnsupportedReason(work);
    if (skipReason) {
      console.log(`# drive tests skipped: ${skipReason}`);
      return;
    }
    t = await server({ includeLoopDevices: true, mountsRoots: [roots] });
    owner = await setupOwner(t.client);
    bob = await createMember(t.client, owner, 'bob');
  });

  after(async () => {
    // Servers first (a data dir may live on a loop drive), then every mount, device and image.
    for (const s of servers) await s.close().catch(() => {});
    for (const d of drives) {
      try {
        d.destroy();
      } catch (error) {
        console.log(`# cleanup of ${d.image} failed: ${String(error)}`);
      }
    }
    fs.rmSync(work, { recursive: true, force: true });
  });

  async function server(config: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
    const s = await startTestServer(config);
    servers.push(s);
    return s;
  }

  /** An ext4 loop drive with this label, mounted under the mounts root (unless `mounted` is false). */
  function drive(name: string, label: string, options: { sizeMb?: number; mounted?: boolean } = {}): LoopDrive {
    const d = createLoopDrive(work, name, path.join(roots, name), options.sizeMb ?? 64);
    drives.push(d);
    setLabel(d.device, label);
    if (options.mounted === false) d.unmount();
    assert.deepEqual(blkid(d.device), { ...blkid(d.device), TYPE: 'ext4', LABEL: label });
    return d;
  }

  function idOf(d: LoopDrive): string {
    return path.basename(d.device);
  }

  /** The only way a correct confirmation phrase is sent: for a loop device this file made. */
  function formatOwn(s: TestServer, who: SignedIn, d: LoopDrive, body: Record<string, unknown>): Promise<ApiResponse> {
    assert.ok(drives.includes(d), 'a drive this test created');
    assert.match(d.device, /^\/dev\/loop\d+$/, 'only loop devices are ever formatted');
    assert.ok(
      fs.realpathSync(run('losetup', ['-n', '-O', 'BACK-FILE', d.device]).trim()) === fs.realpathSync(d.image),
      'backed by our image',
    );
    return s.client.post(`/admin/drives/${idOf(d)}/format`, { ...body, confirmation: `FORMAT ${d.device}` }, { token: who.access });
  }

  /** A format request whose phrase is wrong on purpose (never the exact phrase). */
  function formatWrongPhrase(s: TestServer, who: SignedIn, id: string, confirmation: string, extra: object = {}): Promise<ApiResponse> {
    assert.notEqual(confirmation, `FORMAT /dev/${id}`);
    return s.client.post(`/admin/drives/${id}/format`, { filesystem: 'ext4', confirmation, ...extra }, { token: who.access });
  }

  async function list(s: TestServer, who: SignedIn): Promise<any> {
    const res = await s.client.get('/admin/drives', { token: who.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(Array.isArray(res.body.items));
    return res.body;
  }

  async function listed(s: TestServer, who: SignedIn, d: LoopDrive): Promise<any> {
    const found = (await list(s, who)).items.find((item: any) => item.id === idOf(d));
    assert.ok(found, `${d.device} is listed`);
    return found;
  }

  // ---- Listing ----------------------------------------------------------------------------

  test('drive work through udisks2 (DRIVE_TOOLS=udisks) while its service does not answer: capabilities say why, mount and format are 503 helper_unavailable, the drive untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const udisksctl = (process.env.PATH ?? '')
      .split(path.delimiter)
      .map((dir) => path.join(dir, 'udisksctl'))
      .find((file) => fs.existsSync(file));
    if (udisksctl) {
      let answers = true;
      try {
        run(udisksctl, ['status']);
      } catch {
        answers = false;
      }
      // With a live udisks2 service the server would really mount through it.
      if (answers) return ctx.skip('udisks2 answers on this machine');
    }
    const s = await server({ includeLoopDevices: true, mountsRoots: [roots], driveTools: 'udisks' });
    const admin = await setupOwner(s.client);
    const d = drive('udisksless', 'keepme', { mounted: false });
    const body = await list(s, admin);
    assert.equal(body.helper_available, false);
    for (const what of ['mount', 'format'] as const) {
      assert.equal(body.capabilities[what].available, false, what);
      assert.match(body.capabilities[what].reason, udisksctl ? /does not answer/ : /install udisks2/, what);
    }
    assertError(await s.client.post(`/admin/drives/${idOf(d)}/mount`, {}, { token: admin.access }), 503, 'helper_unavailable');
    assertError(await formatOwn(s, admin, d, { filesystem: 'exfat', label: 'GONE' }), 503, 'helper_unavailable');
    assert.deepEqual(blkid(d.device), { ...blkid(d.device), TYPE: 'ext4', LABEL: 'keepme' }, 'the drive is untouched');
    assert.equal((await s.client.get('/libraries', { token: admin.access })).body.items.length, 1, 'no library was added');
  });

  test('an admin sees the drives: a test loop drive with its device, size, ext4 and label, not the system, usable; the system disk is marked system and unusable', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('list1', 'listme');
    const body = await list(t, owner);
    assert.equal(typeof body.helper_available, 'boolean');
    assert.equal(typeof body.capabilities?.format?.available, 'boolean');
    if (!body.capabilities.format.available) assert.equal(typeof body.capabilities.format.reason, 'string');

    const item = body.items.find((i: any) => i.id === idOf(d));
    assert.ok(item, `${d.device} is listed: ${JSON.stringify(body.items.map((i: any) => i.id))}`);
    assert.equal(item.device, d.device);
    assert.equal(item.size, 64 * MB);
    assert.equal(item.filesystem, 'ext4');
    assert.equal(item.label, 'listme');
    assert.equal(item.system, false);
    assert.equal(item.usable, true);
    assert.equal(item.in_use, true, 'it is mounted');
    assert.deepEqual(item.mountpoints, [d.mountPoint]);
    assert.equal(item.library_id, null);
    assert.equal(typeof item.removable, 'boolean');
    assert.equal(typeof item.description, 'string');
    assert.ok(item.description.length > 0);
    assert.ok(item.model === null || typeof item.model === 'string');

    // The machine's own disk (whatever holds "/"), when listed: read only, never formatted.
    const rootSource = run('findmnt', ['-n', '-o', 'SOURCE', '/']).trim();
    const systemDisk = body.items.find((i: any) => i.device === rootSource || i.mountpoints.includes('/'));
    if (systemDisk) {
      assert.equal(systemDisk.system, true, JSON.stringify(systemDisk));
      assert.equal(systemDisk.usable, false, JSON.stringify(systemDisk));
    } else {
      console.log(`# the system disk (${rootSource}) is not listed here`);
    }
    for (const i of body.items) {
      if (i.system) assert.equal(i.usable, false, `${i.device}: a system drive is never usable`);
    }
  });

  test('loop devices are not listed unless includeLoopDevices is set', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('hidden1', 'hidden');
    const plain = await server({ mountsRoots: [roots] });
    const admin = await setupOwner(plain.client);
    const body = await list(plain, admin);
    assert.ok(!body.items.some((i: any) => i.id === idOf(d) || i.device === d.device), 'the test loop drive is hidden');
    assert.ok(!body.items.some((i: any) => /^loop\d+/.test(i.id)), 'no loop device at all');
    // Formatting a hidden loop device: it is unknown (wrong phrase is beside the point: 404 comes first).
    assertError(await formatWrongPhrase(plain, admin, idOf(d), 'FORMAT nothing'), 404, 'not_found');
    await plain.close();
  });

  test('GET /admin/drives: a member gets 403 forbidden', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    assertError(await t.client.get('/admin/drives', { token: bob.access }), 403, 'forbidden');
  });

  test('GET /admin/drives: no token is 401, and ?access_token is not accepted (401)', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    assertError(await t.client.get('/admin/drives'), 401, 'unauthorized');
    const res = await t.client.get(`/admin/drives?access_token=${encodeURIComponent(owner.access)}`);
    assert.equal(res.status, 401, JSON.stringify(res.body));
    assert.match(res.body?.error?.code ?? '', /^(unauthorized|invalid_token)$/);
  });

  test('a pending-scope token (device approval) gets 403 pending_approval for listing and formatting drives, and the drive is untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('pending1', 'pendingfs', { mounted: false });
    const on = await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    let pending: string;
    try {
      const res = await t.client.post('/auth/login', {
        username: owner.username,
        password: owner.password,
        device_name: 'Tablet',
        platform: 'android',
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      pending = res.body.access_token;
    } finally {
      const off = await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
      assert.equal(off.status, 200, JSON.stringify(off.body));
    }
    assertError(await t.client.get('/admin/drives', { token: pending }), 403, 'pending_approval');
    // Even with the exact phrase, on the test's own loop drive.
    assertError(await formatOwn(t, { ...owner, access: pending }, d, { filesystem: 'exfat', label: 'NOPE' }), 403, 'pending_approval');
    assertUntouched(d, 'pendingfs');
  });

  // ---- Format refusals ---------------------------------------------------------------------

  test('a format without the exact phrase "FORMAT <device>" is 400 confirmation_mismatch and leaves the device untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('phrase1', 'keepme', { mounted: false });
    const id = idOf(d);
    for (const wrong of [
      `format ${d.device}`,
      `FORMAT ${id}`,
      `FORMAT ${d.device} `,
      ` FORMAT ${d.device}`,
      `FORMAT  ${d.device}`,
      `FORMAT /dev/loop999`,
      'FORMAT',
      'yes',
      '',
    ]) {
      const res = await formatWrongPhrase(t, owner, id, wrong, { filesystem: 'exfat', label: 'GONE' });
      assertError(res, 400, 'confirmation_mismatch', 'confirmation');
    }
    // Missing altogether: the body is invalid.
    const missing = await t.client.post(`/admin/drives/${id}/format`, { filesystem: 'ext4' }, { token: owner.access });
    assert.equal(missing.status, 400, JSON.stringify(missing.body));
    assertUntouched(d, 'keepme');
    assert.equal((await listed(t, owner, d)).label, 'keepme');
  });

  test('a member cannot format a drive, even with the exact phrase: 403 forbidden, device untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('member1', 'bobsnot', { mounted: false });
    assertError(await formatOwn(t, bob, d, { filesystem: 'exfat' }), 403, 'forbidden');
    assertUntouched(d, 'bobsnot');
  });

  test('formatting an unknown drive id is 404', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    assertError(await formatWrongPhrase(t, owner, 'nosuchdrive9', 'FORMAT /dev/nosuchdrive'), 404, 'not_found');
    assertError(await formatWrongPhrase(t, owner, 'loop999', 'FORMAT /dev/loop99'), 404, 'not_found');
  });

  test('a format with no token is 401 and with ?access_token is 401', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('notoken1', 'tokenless', { mounted: false });
    const body = { filesystem: 'exfat', confirmation: `FORMAT ${d.device}` };
    assertError(await t.client.post(`/admin/drives/${idOf(d)}/format`, body), 401, 'unauthorized');
    const res = await t.client.post(`/admin/drives/${idOf(d)}/format?access_token=${encodeURIComponent(owner.access)}`, body);
    assert.equal(res.status, 401, JSON.stringify(res.body));
    assertUntouched(d, 'tokenless');
  });

  test('the drive holding the operating system (a systemPaths mount point) is never formatted: 403 system_drive', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('sys1', 'systemfs');
    const s = await server({ includeLoopDevices: true, mountsRoots: [roots], systemPaths: [d.mountPoint] });
    const admin = await setupOwner(s.client);
    const item = await listed(s, admin, d);
    assert.equal(item.system, true);
    assert.equal(item.usable, false);
    // The phrase is checked first.
    assertError(await formatWrongPhrase(s, admin, idOf(d), 'FORMAT /dev/loop999'), 400, 'confirmation_mismatch');
    assertError(await formatOwn(s, admin, d, { filesystem: 'exfat', label: 'NOPE' }), 403, 'system_drive');
    assert.ok(d.isMounted(), 'still mounted');
    assertUntouched(d, 'systemfs');
    await s.close();
  });

  test("the drive holding the server's data dir is never formatted: 403 system_drive", async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('data1', 'datafs');
    const dataDir = path.join(d.mountPoint, 'hearth-data');
    fs.mkdirSync(dataDir);
    const s = await server({ includeLoopDevices: true, mountsRoots: [roots], dataDir });
    const admin = await setupOwner(s.client);
    const item = await listed(s, admin, d);
    assert.equal(item.system, true);
    assert.equal(item.usable, false);
    assertError(await formatOwn(s, admin, d, { filesystem: 'ext4', label: 'NOPE' }), 403, 'system_drive');
    assert.ok(d.isMounted(), 'still mounted');
    assertUntouched(d, 'datafs');
    assert.equal((await s.client.get('/me', { token: admin.access })).status, 200, 'the server still works');
    await s.close(); // removes the data dir before the drive goes
  });

  test('a drive with a registered library is 409 drive_in_use; once that library is ejected the format goes through', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('lib1', 'libfs');
    const folder = path.join(d.mountPoint, 'family');
    fs.mkdirSync(folder);
    const reg = await t.client.post('/libraries', { name: 'Family USB', path: folder }, { token: owner.access });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    const lib = reg.body;

    const item = await listed(t, owner, d);
    assert.equal(item.library_id, lib.id);
    assert.equal(item.usable, false);
    assert.equal(item.system, false);
    assert.equal(item.in_use, true);
    assertError(await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'NOPE' }), 409, 'drive_in_use');
    // drive_in_use comes before the label check.
    assertError(await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'MUCH-TOO-LONG-LABEL' }), 409, 'drive_in_use');
    assert.ok(d.isMounted(), 'still mounted');
    assertUntouched(d, 'libfs');

    const eject = await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access });
    assert.equal(eject.status, 200, JSON.stringify(eject.body));
    assert.ok(!d.isMounted(), 'eject unmounted it');
    const free = await listed(t, owner, d);
    assert.equal(free.library_id, null);
    assert.equal(free.usable, true);

    const res = await formatOwn(t, owner, d, { filesystem: 'ext4', label: 'fresh' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertPrevious(res.body.previous, 'ext4', 'libfs');
    assert.equal(blkid(d.device).TYPE, 'ext4');
    assert.equal(blkid(d.device).LABEL, 'fresh');
  });

  test('a label too long for its file system (ext4 > 16 bytes, exFAT > 11) is 400 invalid_input, device untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('label1', 'labelfs', { mounted: false });
    assertError(await formatOwn(t, owner, d, { filesystem: 'ext4', label: 'a'.repeat(17) }), 400, 'invalid_input', 'label');
    assertError(await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'A'.repeat(12) }), 400, 'invalid_input', 'label');
    // Bytes, not characters: 9 letters of two bytes each is 18 bytes.
    assertError(await formatOwn(t, owner, d, { filesystem: 'ext4', label: 'é'.repeat(9) }), 400, 'invalid_input', 'label');
    assertUntouched(d, 'labelfs');
  });

  test('a file system other than ext4 or exfat is 400 invalid_input, device untouched', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const d = drive('badfs1', 'badfsfs', { mounted: false });
    for (const filesystem of ['ntfs', 'EXT4', 'vfat', '', 5, null]) {
      const res = await formatOwn(t, owner, d, { filesystem });
      assertError(res, 400, 'invalid_input');
    }
    assertError(await formatOwn(t, owner, d, {}), 400, 'invalid_input');
    assertUntouched(d, 'badfsfs');
  });

  test('one drive operation at a time: two formats at once either give one success and one 409 drive_operation_running, or both succeed one after the other', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const big = drive('busy-big', 'bigold', { sizeMb: 512, mounted: false });
    const small = drive('busy-small', 'smallold', { mounted: false });
    const [first, second] = await Promise.all([
      formatOwn(t, owner, big, { filesystem: 'ext4', label: 'bignew' }),
      formatOwn(t, owner, small, { filesystem: 'ext4', label: 'smallnew' }),
    ]);
    const statuses = [first.status, second.status].sort();
    if (statuses[0] === 200 && statuses[1] === 200) {
      console.log('# both formats succeeded: the first finished before the second started');
    } else {
      assert.deepEqual(statuses, [200, 409], `${JSON.stringify(first.body)} ${JSON.stringify(second.body)}`);
    }
    for (const [res, d, oldLabel, newLabel] of [
      [first, big, 'bigold', 'bignew'],
      [second, small, 'smallold', 'smallnew'],
    ] as const) {
      if (res.status === 200) {
        assertPrevious(res.body.previous, 'ext4', oldLabel);
        assert.equal(blkid(d.device).LABEL, newLabel);
      } else {
        assertError(res, 409, 'drive_operation_running');
        assertUntouched(d, oldLabel);
        // The lock is released once the first is done: now it goes through.
        const again = await formatOwn(t, owner, d, { filesystem: 'ext4', label: newLabel });
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.equal(blkid(d.device).LABEL, newLabel);
      }
    }
  });

  // ---- Real formats ------------------------------------------------------------------------

  test('a real format to exFAT labelled FAMILY, then back to ext4 with a label: blkid agrees and "previous" says what was there', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const noExfat = missingTool('mkfs.exfat', 'exfatprogs');
    if (noExfat) return skipBecause(ctx, noExfat);
    const d = drive('real1', 'oldphotos', { mounted: false });
    const res = await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'FAMILY' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertPrevious(res.body.previous, 'ext4', 'oldphotos');
    assert.equal(res.body.drive.id, idOf(d));
    assert.equal(res.body.drive.device, d.device);
    assert.equal(res.body.drive.filesystem, 'exfat');
    assert.equal(res.body.drive.label, 'FAMILY');
    assert.deepEqual(blkid(d.device), { ...blkid(d.device), TYPE: 'exfat', LABEL: 'FAMILY' });
    const item = await listed(t, owner, d);
    assert.equal(item.filesystem, 'exfat', 'the listing shows the new file system');
    assert.equal(item.label, 'FAMILY');
    assert.equal(item.usable, true);

    const back = await formatOwn(t, owner, d, { filesystem: 'ext4', label: 'photos-2024' });
    assert.equal(back.status, 200, JSON.stringify(back.body));
    assertPrevious(back.body.previous, 'exfat', 'FAMILY');
    assert.equal(back.body.drive.filesystem, 'ext4');
    assert.equal(back.body.drive.label, 'photos-2024');
    const now = blkid(d.device);
    assert.equal(now.TYPE, 'ext4');
    assert.equal(now.LABEL, 'photos-2024');
    const again = await listed(t, owner, d);
    assert.equal(again.filesystem, 'ext4');
    assert.equal(again.label, 'photos-2024');

    // Without a label: none.
    const bare = await formatOwn(t, owner, d, { filesystem: 'exfat' });
    assert.equal(bare.status, 200, JSON.stringify(bare.body));
    assertPrevious(bare.body.previous, 'ext4', 'photos-2024');
    assert.equal(blkid(d.device).TYPE, 'exfat');
    assert.equal(blkid(d.device).LABEL, undefined);
  });

  test('formatting a mounted drive that holds no library unmounts it first and succeeds', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const noExfat = missingTool('mkfs.exfat', 'exfatprogs');
    if (noExfat) return skipBecause(ctx, noExfat);
    const d = drive('mounted1', 'stickfs');
    fs.writeFileSync(path.join(d.mountPoint, 'old.txt'), 'old data');
    assert.ok(d.isMounted());
    const res = await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'STICK' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertPrevious(res.body.previous, 'ext4', 'stickfs');
    assert.ok(!d.isMounted(), 'it was unmounted');
    assert.deepEqual(res.body.drive.mountpoints, []);
    assert.equal(res.body.drive.in_use, false);
    const now = blkid(d.device);
    assert.equal(now.TYPE, 'exfat');
    assert.equal(now.LABEL, 'STICK');
  });

  test('a mounted drive that cannot be unmounted (something holds it open) is 409 drive_busy and untouched; once released the format goes through', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const noExfat = missingTool('mkfs.exfat', 'exfatprogs');
    if (noExfat) return skipBecause(ctx, noExfat);
    const d = drive('held1', 'heldfs');
    const folder = path.join(d.mountPoint, 'open');
    fs.mkdirSync(folder);
    const holder = spawn('sleep', ['60'], { cwd: folder, stdio: 'ignore' });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.once('spawn', () => resolve());
        holder.once('error', reject);
      });
      assertError(await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'NOPE' }), 409, 'drive_busy');
      assert.ok(d.isMounted(), 'still mounted');
      assertUntouched(d, 'heldfs');
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) =>
        holder.exitCode !== null || holder.signalCode !== null ? resolve(null) : holder.once('exit', resolve),
      );
    }
    const res = await formatOwn(t, owner, d, { filesystem: 'exfat', label: 'FREED' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(!d.isMounted());
    assert.equal(blkid(d.device).LABEL, 'FREED');
  });
});
