import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { createLoopDrive, loopUnsupportedReason, mountPoints, type LoopDrive } from '../../helpers/loop.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { EventSocket } from '../../helpers/events.ts';

const TUS = '1.0.0';
const MARKER = '.hearth-library';

/** A fresh directory outside every data dir, removed by the caller. */
function tempDir(prefix: string): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
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

async function register(t: TestServer, admin: SignedIn, body: object): Promise<any> {
  const res = await t.client.post('/libraries', body, { token: admin.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function setDefault(t: TestServer, admin: SignedIn, id: string): Promise<void> {
  const res = await t.client.patch(`/libraries/${id}/set-default`, undefined, { token: admin.access });
  assert.equal(res.status, 204, JSON.stringify(res.body));
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

function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

/** Creates a tus upload of `length` bytes and sends only `sent` of them; returns its URL. */
async function halfUpload(t: TestServer, who: SignedIn, length: number, sent: number): Promise<string> {
  const created = await fetch(`${t.api}/uploads`, {
    method: 'POST',
    headers: {
      'Tus-Resumable': TUS,
      authorization: `Bearer ${who.access}`,
      'Upload-Length': String(length),
      'Upload-Metadata': metadata({ filename: 'half.bin' }),
    },
  });
  assert.equal(created.status, 201, await created.text());
  const url = new URL(created.headers.get('location') ?? '', t.url).toString();
  const patched = await fetch(url, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': TUS,
      authorization: `Bearer ${who.access}`,
      'Content-Type': 'application/offset+octet-stream',
      'Upload-Offset': '0',
    },
    body: crypto.randomBytes(sent),
  });
  assert.equal(patched.status, 204, await patched.text());
  assert.equal(patched.headers.get('upload-offset'), String(sent));
  return url;
}

const Listener = { open: (t: TestServer, who: SignedIn) => EventSocket.open(t.url, who.access) };

function assertSpace(lib: any): void {
  for (const key of ['used', 'free', 'total', 'content_bytes']) {
    assert.ok(Number.isSafeInteger(lib[key]) && lib[key] >= 0, `${key} is a non-negative integer: ${lib[key]}`);
  }
  assert.ok(lib.total > 0, 'total > 0');
  assert.ok(lib.used > 0, 'used > 0');
  assert.ok(lib.free > 0, 'free > 0');
  assert.ok(lib.used + lib.free <= lib.total, `used + free <= total (${lib.used} + ${lib.free} <= ${lib.total})`);
}

// ---------------------------------------------------------------------------------------------

describe('listing and registering libraries', () => {
  let t: TestServer;
  let owner: SignedIn;
  let bob: SignedIn;
  let roots: string;
  let outside: string;

  before(async () => {
    roots = tempDir('hearth-roots-');
    outside = tempDir('hearth-outside-');
    t = await startTestServer({ mountsRoots: [roots] });
    owner = await setupOwner(t.client);
    bob = await createMember(t.client, owner, 'bob');
  });
  after(async () => {
    await t.close();
    fs.rmSync(roots, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
    fs.rmSync(`${roots}-evil`, { recursive: true, force: true });
  });

  test('every signed-in user sees the internal library: kind internal, default, online, with live used/free/total and content_bytes', async () => {
    const data = crypto.randomBytes(3000);
    await uploadFile(t.api, owner.access, data, { filename: 'a.bin' });
    for (const who of [owner, bob]) {
      const items = await libraries(t, who);
      assert.equal(items.length, 1);
      const internal = items[0];
      assert.equal(internal.kind, 'internal');
      assert.equal(internal.default, true);
      assert.equal(internal.status, 'online');
      assert.equal(typeof internal.id, 'string');
      assert.equal(typeof internal.name, 'string');
      assertSpace(internal);
      // The owner sees the library's content; a member only its own files (none here).
      assert.equal(internal.content_bytes, who === owner ? data.length : 0);
      // Live figures: they are those of the file system holding the data dir.
      const s = fs.statfsSync(t.dataDir);
      assert.equal(internal.total, s.blocks * s.bsize);
    }
  });

  test('the path of a library is shown to admins and never to members', async () => {
    const [forOwner] = await libraries(t, owner);
    assert.equal(forOwner.path, path.join(t.dataDir, 'files'));
    const [forBob] = await libraries(t, bob);
    assert.ok(!('path' in forBob), JSON.stringify(forBob));
  });

  test('GET /libraries without a token is 401', async () => {
    assertError(await t.client.get('/libraries'), 401, 'unauthorized');
    assertError(await t.client.get('/libraries', { token: 'not-a-token' }), 401, 'invalid_token');
  });

  let external: any;
  test('an admin registers a folder under a configured mounts root: 201, kind external, online, not default, marker written', async () => {
    const folder = path.join(roots, 'driveA', 'photos');
    fs.mkdirSync(folder, { recursive: true });
    external = await register(t, owner, { name: 'Drive A', path: folder });
    assert.equal(external.name, 'Drive A');
    assert.equal(external.kind, 'external');
    assert.equal(external.status, 'online');
    assert.equal(external.default, false);
    assert.equal(external.path, folder);
    assert.equal(external.content_bytes, 0);
    assertSpace(external);
    assert.equal(fs.readFileSync(path.join(folder, MARKER), 'utf8').trim(), external.id);
    // Listed for everyone, without its path for a member; the internal one is still the default.
    const forBob = await library(t, bob, external.id);
    assert.ok(!('path' in forBob));
    assert.equal(forBob.kind, 'external');
    const defaults = (await libraries(t, owner)).filter((l) => l.default);
    assert.deepEqual(
      defaults.map((l) => l.kind),
      ['internal'],
    );
  });

  test('an admin registers a folder inside the data dir (outside its internal library)', async () => {
    const folder = path.join(t.dataDir, 'second');
    fs.mkdirSync(folder);
    const lib = await register(t, owner, { name: 'Second', path: folder });
    assert.equal(lib.kind, 'external');
    assert.equal(lib.path, fs.realpathSync(folder));
  });

  test('a folder outside the mounts roots and the data dir is 400 invalid_library_path', async () => {
    assertError(
      await t.client.post('/libraries', { name: 'Out', path: outside }, { token: owner.access }),
      400,
      'invalid_library_path',
      'path',
    );
    assertError(
      await t.client.post('/libraries', { name: 'Etc', path: '/etc' }, { token: owner.access }),
      400,
      'invalid_library_path',
      'path',
    );
    assert.ok(!fs.existsSync(path.join(outside, MARKER)), 'nothing was written outside the roots');
  });

  test('a sibling whose name merely starts with a mounts root, or a path climbing out with .., is 400 invalid_library_path', async () => {
    fs.mkdirSync(`${roots}-evil`);
    assertError(
      await t.client.post('/libraries', { name: 'Evil', path: `${roots}-evil` }, { token: owner.access }),
      400,
      'invalid_library_path',
    );
    const climbing = path.join(roots, '..', path.basename(outside));
    assert.ok(fs.existsSync(climbing));
    assertError(
      await t.client.post('/libraries', { name: 'Up', path: `${roots}/../${path.basename(outside)}` }, { token: owner.access }),
      400,
      'invalid_library_path',
    );
    assertError(await t.client.post('/libraries', { name: 'Root', path: '/' }, { token: owner.access }), 400, 'invalid_library_path');
  });

  test('a symlink inside a mounts root that points outside is 400 invalid_library_path', async () => {
    const link = path.join(roots, 'escape');
    fs.symlinkSync(outside, link);
    assertError(
      await t.client.post('/libraries', { name: 'Escape', path: link }, { token: owner.access }),
      400,
      'invalid_library_path',
      'path',
    );
    assertError(
      await t.client.post('/libraries', { name: 'Escape', path: `${link}/` }, { token: owner.access }),
      400,
      'invalid_library_path',
      'path',
    );
    assert.ok(!fs.existsSync(path.join(outside, MARKER)), 'no marker was written through the link');
    assert.equal((await libraries(t, owner)).filter((l) => l.name === 'Escape').length, 0);
  });

  test('a missing folder, or a file that is not a folder, is 400 invalid_library_path', async () => {
    assertError(
      await t.client.post('/libraries', { name: 'Gone', path: path.join(roots, 'nope') }, { token: owner.access }),
      400,
      'invalid_library_path',
      'path',
    );
    const file = path.join(roots, 'plain.txt');
    fs.writeFileSync(file, 'x');
    assertError(
      await t.client.post('/libraries', { name: 'File', path: file }, { token: owner.access }),
      400,
      'invalid_library_path',
      'path',
    );
  });

  test('the same folder twice, a folder inside or around a library, or the data dir itself is 409 already_registered', async () => {
    const folder = external.path as string;
    const inside = path.join(folder, 'sub');
    fs.mkdirSync(inside);
    const before = (await libraries(t, owner)).length;
    assertError(
      await t.client.post('/libraries', { name: 'Twice', path: folder }, { token: owner.access }),
      409,
      'already_registered',
      'path',
    );
    assertError(
      await t.client.post('/libraries', { name: 'Twice', path: `${folder}/` }, { token: owner.access }),
      409,
      'already_registered',
    );
    assertError(await t.client.post('/libraries', { name: 'Inside', path: inside }, { token: owner.access }), 409, 'already_registered');
    assertError(
      await t.client.post('/libraries', { name: 'Around', path: path.dirname(folder) }, { token: owner.access }),
      409,
      'already_registered',
    );
    const alias = path.join(roots, 'alias');
    fs.symlinkSync(folder, alias);
    assertError(await t.client.post('/libraries', { name: 'Alias', path: alias }, { token: owner.access }), 409, 'already_registered');
    // The data dir itself is not a folder under it (and it holds the internal library).
    const dataDirRes = await t.client.post('/libraries', { name: 'Data', path: t.dataDir }, { token: owner.access });
    assert.ok(dataDirRes.status === 400 || dataDirRes.status === 409, JSON.stringify(dataDirRes.body));
    assert.ok(['invalid_library_path', 'already_registered'].includes(dataDirRes.body.error.code));
    assertError(
      await t.client.post('/libraries', { name: 'Files', path: path.join(t.dataDir, 'files', 'blobs') }, { token: owner.access }),
      409,
      'already_registered',
    );
    assert.equal((await libraries(t, owner)).length, before);
    assert.equal(fs.readFileSync(path.join(folder, MARKER), 'utf8').trim(), external.id, 'the marker was not overwritten');
  });

  test('a member cannot register, switch the default or eject: 403', async () => {
    const folder = path.join(roots, 'bobs');
    fs.mkdirSync(folder);
    assertError(await t.client.post('/libraries', { name: 'Bob', path: folder }, { token: bob.access }), 403, 'forbidden');
    assert.ok(!fs.existsSync(path.join(folder, MARKER)));
    assertError(await t.client.patch(`/libraries/${external.id}/set-default`, undefined, { token: bob.access }), 403, 'forbidden');
    assertError(await t.client.post(`/libraries/${external.id}/eject`, undefined, { token: bob.access }), 403, 'forbidden');
    assertError(await t.client.post('/libraries', { name: 'Bob', path: folder }), 401, 'unauthorized');
    assert.equal((await library(t, owner, external.id)).status, 'online');
  });

  test('a bad body is 400: no path, no name, an empty name, a non-boolean make_default, a name over 64 characters', async () => {
    const folder = path.join(roots, 'bad');
    fs.mkdirSync(folder);
    const bodies: unknown[] = [
      { name: 'No path' },
      { path: folder },
      { name: '', path: folder },
      { name: '   ', path: folder },
      { name: 'X', path: '' },
      { name: 'X', path: folder, make_default: 'yes' },
      { name: 'x'.repeat(65), path: folder },
      { name: 7, path: folder },
    ];
    for (const body of bodies) {
      const res = await t.client.post('/libraries', body, { token: owner.access });
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(typeof res.body?.error?.code, 'string');
    }
    assertError(
      await t.client.request('POST', '/libraries', {
        token: owner.access,
        rawBody: '{"name":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_json',
    );
    assert.ok(!fs.existsSync(path.join(folder, MARKER)), 'a refused body writes nothing');
  });

  test('registering with make_default makes the new library the only default', async () => {
    const folder = path.join(roots, 'driveB');
    fs.mkdirSync(folder);
    const lib = await register(t, owner, { name: 'Drive B', path: folder, make_default: true });
    assert.equal(lib.default, true);
    const defaults = (await libraries(t, owner)).filter((l) => l.default);
    assert.deepEqual(
      defaults.map((l) => l.id),
      [lib.id],
    );
    const internal = (await libraries(t, owner)).find((l) => l.kind === 'internal');
    await setDefault(t, owner, internal.id);
    assert.deepEqual(
      (await libraries(t, owner)).filter((l) => l.default).map((l) => l.id),
      [internal.id],
    );
  });

  test('set-default and eject of an unknown library are 404', async () => {
    assertError(await t.client.patch('/libraries/nope/set-default', undefined, { token: owner.access }), 404, 'not_found');
    assertError(await t.client.post('/libraries/nope/eject', undefined, { token: owner.access }), 404, 'not_found');
  });
});

// ---------------------------------------------------------------------------------------------

describe('default switching, eject and offline folders', () => {
  let t: TestServer;
  let owner: SignedIn;
  let bob: SignedIn;
  let roots: string;
  let internalId: string;
  let lib: any;
  const OLD = crypto.randomBytes(4096);
  const NEW = crypto.randomBytes(5000);
  let oldId: string;
  let newId: string;
  let halfUrl: string;

  before(async () => {
    roots = tempDir('hearth-roots-');
    t = await startTestServer({ mountsRoots: [roots] });
    owner = await setupOwner(t.client);
    bob = await createMember(t.client, owner, 'bob');
    internalId = (await libraries(t, owner))[0].id;
    fs.mkdirSync(path.join(roots, 'disk', 'hearth'), { recursive: true });
    lib = await register(t, owner, { name: 'Disk', path: path.join(roots, 'disk', 'hearth') });
    oldId = await uploadFile(t.api, owner.access, OLD, { filename: 'old.bin' });
  });
  after(async () => {
    await t.close();
    fs.rmSync(roots, { recursive: true, force: true });
  });

  test('set-default answers 204 and library.changed reaches every signed-in user, admin and member, without the path', async () => {
    const adminWs = await Listener.open(t, owner);
    const memberWs = await Listener.open(t, bob);
    try {
      await setDefault(t, owner, lib.id);
      for (const ws of [adminWs, memberWs]) {
        const m = await ws.waitFor((x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id);
        assert.equal(m.payload.library.default, true);
        assert.equal(m.payload.library.status, 'online');
        assert.ok(!('path' in m.payload.library), 'events go to members too: no path');
        assert.equal(typeof m.at, 'number');
      }
    } finally {
      adminWs.close();
      memberWs.close();
    }
    const items = await libraries(t, owner);
    assert.deepEqual(
      items.filter((l) => l.default).map((l) => l.id),
      [lib.id],
      'exactly one default',
    );
  });

  test('a change of usage (an upload) is announced to the owners as library.changed with the new content_bytes', async () => {
    const folder = path.join(t.dataDir, 'usage-lib');
    fs.mkdirSync(folder);
    const own = await register(t, owner, { name: 'Usage', path: folder, make_default: true });
    // Members hear of a library's state, not of its usage: its timing would tell them when someone uploaded.
    const ws = await Listener.open(t, owner);
    try {
      await uploadFile(t.api, owner.access, crypto.randomBytes(4321), { filename: 'usage.bin' });
      const m = await ws.waitFor(
        (x) => x.type === 'library.changed' && x.payload?.library?.id === own.id && x.payload.library.content_bytes === 4321,
      );
      assert.equal(m.payload.library.status, 'online');
    } finally {
      ws.close();
      // The tests of this block build on each other: the previous one made `lib` the default.
      await setDefault(t, owner, lib.id);
    }
  });

  test('new uploads land on the new default: its content_bytes grow and the blob is under <path>/blobs/; older files stay readable', async () => {
    const internalBefore = (await library(t, owner, internalId)).content_bytes;
    assert.equal(internalBefore, OLD.length);
    newId = await uploadFile(t.api, bob.access, NEW, { filename: 'new.bin' });
    assert.equal((await library(t, owner, lib.id)).content_bytes, NEW.length);
    assert.equal((await library(t, owner, internalId)).content_bytes, internalBefore, 'the internal library did not grow');
    assert.ok(blobWith(lib.path, NEW), 'the new file is a blob on the new default');
    assert.equal(blobWith(path.join(t.dataDir, 'files'), NEW), undefined, 'and not on the internal library');
    assert.ok(blobWith(path.join(t.dataDir, 'files'), OLD), 'the older file is still on the internal library');
    await assertDownloads(t, bob, newId, NEW);
    await assertDownloads(t, owner, oldId, OLD);
  });

  test('the internal library cannot be ejected: 409 cannot_eject_internal', async () => {
    assertError(await t.client.post(`/libraries/${internalId}/eject`, undefined, { token: owner.access }), 409, 'cannot_eject_internal');
    assert.equal((await library(t, owner, internalId)).status, 'online');
  });

  test('the default library cannot be ejected: 409 library_is_default', async () => {
    assertError(await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access }), 409, 'library_is_default');
    assert.equal((await library(t, owner, lib.id)).status, 'online');
    await assertDownloads(t, bob, newId, NEW);
  });

  test('a library with an unfinished upload to it cannot be ejected: 409 uploads_in_progress', async () => {
    halfUrl = await halfUpload(t, owner, 2000, 1000);
    await setDefault(t, owner, internalId);
    assertError(await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access }), 409, 'uploads_in_progress');
    const after = await library(t, owner, lib.id);
    assert.equal(after.status, 'online');
    assert.equal(after.default, false);
    await assertDownloads(t, bob, newId, NEW);
  });

  test('ejecting answers 200 with status ejected, emits library.changed, unmounts nothing that is not its own, and deletes nothing', async () => {
    const gone = await fetch(halfUrl, { method: 'DELETE', headers: { 'Tus-Resumable': TUS, authorization: `Bearer ${owner.access}` } });
    assert.equal(gone.status, 204);
    // Other test files mount and unmount their own loop drives (under hearth-* temp dirs) meanwhile.
    const othersMounts = (m: string) => m.startsWith(path.join(os.tmpdir(), 'hearth-'));
    const mountsBefore = mountPoints().filter((m) => !othersMounts(m));
    const memberWs = await Listener.open(t, bob);
    try {
      const res = await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.id, lib.id);
      assert.equal(res.body.status, 'ejected');
      assert.equal(res.body.default, false);
      assert.equal(res.body.path, lib.path);
      const m = await memberWs.waitFor((x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id);
      assert.equal(m.payload.library.status, 'ejected');
    } finally {
      memberWs.close();
    }
    // A plain folder on the system disk: its file system is not unmounted.
    assert.deepEqual(
      mountPoints().filter((m) => !othersMounts(m)),
      mountsBefore,
    );
    const listed = await library(t, bob, lib.id);
    assert.equal(listed.status, 'ejected');
    assert.equal(listed.content_bytes, NEW.length, 'the rows stay');
    for (const key of ['used', 'free', 'total']) assert.ok(Number.isSafeInteger(listed[key]), key);
    assert.ok(blobWith(lib.path, NEW), 'the content file is still there');
    assert.equal(fs.readFileSync(path.join(lib.path, MARKER), 'utf8').trim(), lib.id);
  });

  test('files on an ejected library answer 503 library_offline while their nodes still list; other files stay readable', async () => {
    await assertOffline(t, bob, newId);
    assertError(await t.client.get(`/nodes/${newId}/download`, { token: bob.access }), 503, 'library_offline');
    const node = await t.client.get(`/nodes/${newId}`, { token: bob.access });
    assert.equal(node.status, 200, JSON.stringify(node.body));
    assert.equal(node.body.name, 'new.bin');
    assert.equal(node.body.size, NEW.length);
    const children = await t.client.get('/nodes?parent_id=root&limit=1000', { token: bob.access });
    assert.equal(children.status, 200);
    assert.ok(
      children.body.items.some((n: any) => n.id === newId),
      'still in its folder',
    );
    await assertDownloads(t, owner, oldId, OLD);
    // New uploads still work: they go to the (internal) default.
    const more = crypto.randomBytes(100);
    await assertDownloads(t, owner, await uploadFile(t.api, owner.access, more, { filename: 'more.bin' }), more);
  });

  test('an ejected library cannot become the default: 503 library_offline', async () => {
    assertError(await t.client.patch(`/libraries/${lib.id}/set-default`, undefined, { token: owner.access }), 503, 'library_offline');
    const items = await libraries(t, owner);
    assert.deepEqual(
      items.filter((l) => l.default).map((l) => l.id),
      [internalId],
    );
  });

  test('an ejected library whose folder is still there stays ejected through maintenance', async () => {
    await t.server.runMaintenance();
    assert.equal((await library(t, owner, lib.id)).status, 'ejected');
    await assertOffline(t, bob, newId);
  });

  test('an ejected library comes back only after it was really gone once: gone -> offline, back -> online with its files', async () => {
    const away = `${lib.path}-away`;
    fs.renameSync(lib.path, away);
    try {
      await t.server.runMaintenance();
      assert.equal((await library(t, owner, lib.id)).status, 'offline');
      await assertOffline(t, bob, newId);
    } finally {
      fs.renameSync(away, lib.path);
    }
    const ws = await Listener.open(t, bob);
    try {
      await t.server.runMaintenance();
      const back = await library(t, owner, lib.id);
      assert.equal(back.status, 'online');
      assert.equal(back.default, false);
      const m = await ws.waitFor((x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id);
      assert.equal(m.payload.library.status, 'online');
    } finally {
      ws.close();
    }
    await assertDownloads(t, bob, newId, NEW);
  });

  test('an online library whose folder vanishes goes offline at maintenance (503, event) and returns when the folder does', async () => {
    const away = `${lib.path}-away`;
    fs.renameSync(lib.path, away);
    const ws = await Listener.open(t, bob);
    try {
      await t.server.runMaintenance();
      const listed = await library(t, owner, lib.id);
      assert.equal(listed.status, 'offline');
      assert.equal(listed.content_bytes, NEW.length);
      const m = await ws.waitFor(
        (x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id && x.payload.library.status === 'offline',
      );
      assert.ok(m);
      await assertOffline(t, bob, newId);
      assertError(await t.client.patch(`/libraries/${lib.id}/set-default`, undefined, { token: owner.access }), 503, 'library_offline');
    } finally {
      ws.close();
      fs.renameSync(away, lib.path);
    }
    await t.server.runMaintenance();
    assert.equal((await library(t, owner, lib.id)).status, 'online');
    await assertDownloads(t, bob, newId, NEW);
  });

  test('a folder whose marker names another library is not that library: it stays offline', async () => {
    fs.writeFileSync(path.join(lib.path, MARKER), 'someone-else');
    try {
      await t.server.runMaintenance();
      assert.equal((await library(t, owner, lib.id)).status, 'offline');
      await assertOffline(t, bob, newId);
    } finally {
      fs.writeFileSync(path.join(lib.path, MARKER), lib.id);
    }
    await t.server.runMaintenance();
    assert.equal((await library(t, owner, lib.id)).status, 'online');
  });
});

// ---------------------------------------------------------------------------------------------

describe('what a folder must be to become a library, and removing a library', () => {
  let t: TestServer;
  let owner: SignedIn;
  let bob: SignedIn;
  let roots: string;
  let internalId: string;

  before(async () => {
    roots = tempDir('hearth-roots-');
    t = await startTestServer({ mountsRoots: [roots] });
    owner = await setupOwner(t.client);
    bob = await createMember(t.client, owner, 'bob');
    internalId = (await libraries(t, owner))[0].id;
  });
  after(async () => {
    await t.close();
    fs.rmSync(roots, { recursive: true, force: true });
  });

  function folder(name: string): string {
    const dir = path.join(roots, name);
    fs.mkdirSync(dir, { recursive: true });
    return dir;
  }

  const remove = (id: string, token: string | null = owner.access) => t.client.delete(`/libraries/${id}`, token === null ? {} : { token });

  test('a folder holding files of its own is 409 folder_not_empty and left as it was: a library empties its blobs/ and tmp/ at every start', async () => {
    const dir = folder('usb-with-files');
    const own = { 'tmp/notes.txt': 'shopping list', 'blobs/ab/holiday-photo-0001.jpg': 'a photo', 'letter.txt': 'dear granny' };
    for (const [name, text] of Object.entries(own)) {
      fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
      fs.writeFileSync(path.join(dir, name), text);
    }
    const before = (await libraries(t, owner)).length;
    assertError(await t.client.post('/libraries', { name: 'USB', path: dir }, { token: owner.access }), 409, 'folder_not_empty');
    assert.equal((await libraries(t, owner)).length, before);
    assert.ok(!fs.existsSync(path.join(dir, MARKER)), 'no marker written');
    for (const [name, text] of Object.entries(own)) assert.equal(fs.readFileSync(path.join(dir, name), 'utf8'), text, `${name} untouched`);
    // Even one file of the owner's is enough to refuse.
    const one = folder('one-file');
    fs.writeFileSync(path.join(one, 'readme.txt'), 'mine');
    assertError(await t.client.post('/libraries', { name: 'One', path: one }, { token: owner.access }), 409, 'folder_not_empty');
  });

  test('what a file system or a desktop puts at the top of a drive (lost+found, .Trash-1000, System Volume Information) does not count: the folder registers', async () => {
    const dir = folder('fresh-drive');
    for (const name of ['lost+found', '.Trash-1000', 'System Volume Information']) fs.mkdirSync(path.join(dir, name));
    const lib = await register(t, owner, { name: 'Fresh', path: dir });
    assert.equal(lib.status, 'online');
    assert.equal(fs.readFileSync(path.join(dir, MARKER), 'utf8'), lib.id);
    assert.equal((await remove(lib.id)).status, 204);
    assert.deepEqual(
      fs.readdirSync(dir).sort(),
      ['.Trash-1000', 'System Volume Information', 'lost+found'],
      "the housekeeping entries stay, the library's own are gone",
    );
  });

  test('a folder whose marker names a library of another server, with content in it, is 409 foreign_library and untouched', async () => {
    const dir = folder('other-server');
    fs.writeFileSync(path.join(dir, MARKER), '01JOTHERSERVERSLIBRARY0000');
    fs.mkdirSync(path.join(dir, 'blobs', 'zz'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'blobs', 'zz', '01JOTHERSERVERSBLOB000000zz'), 'their file');
    assertError(await t.client.post('/libraries', { name: 'Theirs', path: dir }, { token: owner.access }), 409, 'foreign_library');
    assert.equal(fs.readFileSync(path.join(dir, MARKER), 'utf8'), '01JOTHERSERVERSLIBRARY0000');
    assert.equal(fs.readFileSync(path.join(dir, 'blobs', 'zz', '01JOTHERSERVERSBLOB000000zz'), 'utf8'), 'their file');
  });

  test('removal needs an admin and a token: member 403, no token 401, ?access_token 401, unknown id 404; the internal library is 409 cannot_remove_internal', async () => {
    const lib = await register(t, owner, { name: 'Guarded', path: folder('guarded') });
    assertError(await remove(lib.id, bob.access), 403, 'forbidden');
    assertError(await remove(lib.id, null), 401, 'unauthorized');
    assertError(await t.client.delete(`/libraries/${lib.id}?access_token=${encodeURIComponent(owner.access)}`), 401, 'unauthorized');
    assertError(await remove('01JNOSUCHLIBRARY0000000000'), 404, 'not_found');
    assertError(await remove(internalId), 409, 'cannot_remove_internal');
    assert.equal((await library(t, owner, lib.id)).status, 'online', 'still there');
    assert.equal((await library(t, owner, internalId)).default, true);
  });

  test('the default library, a library with a file (even in the trash, even an old version) or an upload under way is refused, and nothing changes', async () => {
    const dir = folder('busy');
    const lib = await register(t, owner, { name: 'Busy', path: dir, make_default: true });
    assertError(await remove(lib.id), 409, 'library_is_default');

    const data = crypto.randomBytes(3000);
    const fileId = await uploadFile(t.api, bob.access, data, { filename: 'kept.bin' });
    const url = await halfUpload(t, owner, 2000, 1000);
    await setDefault(t, owner, internalId);
    assertError(await remove(lib.id), 409, 'uploads_in_progress');
    const cancel = await fetch(url, { method: 'DELETE', headers: { 'Tus-Resumable': TUS, authorization: `Bearer ${owner.access}` } });
    assert.equal(cancel.status, 204);

    assertError(await remove(lib.id), 409, 'library_not_empty');
    assert.equal((await t.client.delete(`/nodes/${fileId}`, { token: bob.access })).status, 200, 'to the trash');
    assertError(await remove(lib.id), 409, 'library_not_empty');
    assert.equal((await library(t, owner, lib.id)).status, 'online');
    assert.ok(blobWith(dir, data), 'the content is where it was');
    assert.equal((await t.client.post(`/nodes/${fileId}/restore`, undefined, { token: bob.access })).status, 200);
    await assertDownloads(t, bob, fileId, data);

    // Deleted for good, it holds nothing: now it goes.
    assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: bob.access })).status, 204);
    assert.equal((await remove(lib.id)).status, 204);
  });

  test('removing an empty library: 204, library.changed {removed: true} to everyone, gone from the list, its folder as before; the folder can be registered again', async () => {
    const dir = folder('leaving');
    fs.writeFileSync(path.join(dir, '.DS_Store'), 'finder');
    const lib = await register(t, owner, { name: 'Leaving', path: dir, make_default: true });
    // Content came and went: its blobs/ shards and tmp/ exist.
    const fileId = await uploadFile(t.api, owner.access, crypto.randomBytes(1000), { filename: 'brief.bin' });
    await setDefault(t, owner, internalId);
    assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: owner.access })).status, 204);
    assert.equal((await library(t, owner, lib.id)).content_bytes, 0);

    const ws = await Listener.open(t, bob);
    try {
      assert.equal((await remove(lib.id)).status, 204);
      const m = await ws.waitFor((x) => x.type === 'library.changed' && x.payload?.library?.id === lib.id);
      assert.equal(m.payload.removed, true);
      assert.ok(!('path' in m.payload.library), 'no path for members');
    } finally {
      ws.close();
    }
    assert.ok(!(await libraries(t, owner)).some((l) => l.id === lib.id), 'not listed for the owner');
    assert.ok(!(await libraries(t, bob)).some((l) => l.id === lib.id), 'nor for a member');
    assertError(await remove(lib.id), 404, 'not_found');
    assertError(await t.client.patch(`/libraries/${lib.id}/set-default`, undefined, { token: owner.access }), 404, 'not_found');
    assert.deepEqual(fs.readdirSync(dir), ['.DS_Store'], 'marker, blobs/ and tmp/ gone; the folder and what was in it stay');

    const again = await register(t, owner, { name: 'Back', path: dir });
    assert.notEqual(again.id, lib.id);
    assert.equal(again.status, 'online');
  });

  test('an offline library with no file is forgotten too; when its folder returns (stale marker, nothing in it) it can become a new library', async () => {
    const dir = folder('wandering');
    const lib = await register(t, owner, { name: 'Wandering', path: dir });
    const away = `${dir}-away`;
    fs.renameSync(dir, away);
    try {
      await t.server.runMaintenance();
      assert.equal((await library(t, owner, lib.id)).status, 'offline');
      assert.equal((await remove(lib.id)).status, 204);
      assert.ok(!(await libraries(t, owner)).some((l) => l.id === lib.id));
    } finally {
      fs.renameSync(away, dir);
    }
    await t.server.runMaintenance();
    assert.ok(!(await libraries(t, owner)).some((l) => l.id === lib.id), 'a returning folder does not bring a removed library back');
    assert.equal(fs.readFileSync(path.join(dir, MARKER), 'utf8'), lib.id, 'the marker stayed on the folder while it was away');
    const adopted = await register(t, owner, { name: 'Adopted', path: dir });
    assert.notEqual(adopted.id, lib.id);
    assert.equal(fs.readFileSync(path.join(dir, MARKER), 'utf8'), adopted.id);
  });
});

// ---------------------------------------------------------------------------------------------

describe('real drives (loop-device images made by the test)', () => {
  let work: string;
  let roots: string;
  let skipReason: string | null = null;
  const drives: LoopDrive[] = [];
  const servers: TestServer[] = [];

  before(() => {
    work = tempDir('hearth-loop-');
    roots = path.join(work, 'media');
    fs.mkdirSync(roots);
    skipReason = loopUnsupportedReason(work);
    if (skipReason) console.log(`# loop-device tests skipped: ${skipReason}`);
  });
  after(async () => {
    for (const server of servers) await server.close().catch(() => {});
    for (const drive of drives) drive.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  });

  function drive(name: string): LoopDrive {
    const d = createLoopDrive(work, name, path.join(roots, name));
    drives.push(d);
    return d;
  }

  test('ejecting a drive library flushes and unmounts it; its files answer 503 until it is plugged in again, then download byte-identical', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const usb = drive('usb1');
    const folder = path.join(usb.mountPoint, 'hearth');
    fs.mkdirSync(folder);
    const t = await startTestServer({ mountsRoots: [roots] });
    servers.push(t);
    const owner = await setupOwner(t.client);
    const internalId = (await libraries(t, owner))[0].id;

    const lib = await register(t, owner, { name: 'USB', path: folder, make_default: true });
    assert.equal(lib.kind, 'external');
    assert.equal(lib.default, true);
    const s = fs.statfsSync(folder);
    assert.equal(lib.total, s.blocks * s.bsize, 'space is that of the drive, not of the system disk');
    assert.ok(lib.total < 80 * 1024 * 1024);

    const data = crypto.randomBytes(300_000);
    const fileId = await uploadFile(t.api, owner.access, data, { filename: 'photo.raw' });
    const onDrive = await library(t, owner, lib.id);
    assert.equal(onDrive.content_bytes, data.length);
    assert.ok(blobWith(folder, data), 'the file is on the drive');
    await setDefault(t, owner, internalId);

    const res = await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'ejected');
    assert.ok(!mountPoints().includes(usb.mountPoint), 'the drive is no longer mounted');
    assert.ok(!fs.existsSync(path.join(folder, MARKER)), 'the library folder is gone with the drive');
    await assertOffline(t, owner, fileId);
    assert.equal((await t.client.get(`/nodes/${fileId}`, { token: owner.access })).status, 200, 'the node still lists');

    // Unplugged: maintenance sees it gone.
    await t.server.runMaintenance();
    const gone = await library(t, owner, lib.id);
    assert.equal(gone.status, 'offline');
    assert.equal(gone.content_bytes, data.length, 'nothing was forgotten');

    // Plugged in again.
    usb.mount();
    await t.server.runMaintenance();
    const back = await library(t, owner, lib.id);
    assert.equal(back.status, 'online');
    assert.equal(back.default, false);
    await assertDownloads(t, owner, fileId, data);
  });

  test('a drive library that vanished while the server was stopped is offline at startup and online again after remount and maintenance', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const usb = drive('usb2');
    const folder = path.join(usb.mountPoint, 'family');
    fs.mkdirSync(folder);
    const first = await startTestServer({ mountsRoots: [roots] });
    servers.push(first);
    const dataDir = first.dataDir;
    let owner = await setupOwner(first.client);
    const lib = await register(first, owner, { name: 'Family disk', path: folder, make_default: true });
    const data = crypto.randomBytes(200_000);
    const fileId = await uploadFile(first.api, owner.access, data, { filename: 'family.bin' });
    const internalId = (await libraries(first, owner)).find((l) => l.kind === 'internal').id;
    await setDefault(first, owner, internalId);
    await first.server.close(); // keeps the data dir

    usb.unmount();
    assert.ok(!usb.isMounted());
    const t = await startTestServer({ mountsRoots: [roots], dataDir });
    servers.push(t);
    const login = await t.client.post('/auth/login', { username: owner.username, password: owner.password });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    owner = { ...owner, access: login.body.access_token };

    const atStart = await library(t, owner, lib.id);
    assert.equal(atStart.status, 'offline');
    assert.equal(atStart.content_bytes, data.length);
    await assertOffline(t, owner, fileId);
    assertError(await t.client.patch(`/libraries/${lib.id}/set-default`, undefined, { token: owner.access }), 503, 'library_offline');
    // The empty mount point is not the library: maintenance leaves it offline.
    await t.server.runMaintenance();
    assert.equal((await library(t, owner, lib.id)).status, 'offline');

    usb.mount();
    await t.server.runMaintenance();
    assert.equal((await library(t, owner, lib.id)).status, 'online');
    await assertDownloads(t, owner, fileId, data);
  });

  test('ejecting one library never unmounts a drive another registered library still lives on', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const usb = drive('usb3');
    const a = path.join(usb.mountPoint, 'a');
    const b = path.join(usb.mountPoint, 'b');
    fs.mkdirSync(a);
    fs.mkdirSync(b);
    const t = await startTestServer({ mountsRoots: [roots] });
    servers.push(t);
    const owner = await setupOwner(t.client);
    const libA = await register(t, owner, { name: 'A', path: a });
    const libB = await register(t, owner, { name: 'B', path: b, make_default: true });
    const data = crypto.randomBytes(10_000);
    const onB = await uploadFile(t.api, owner.access, data, { filename: 'b.bin' });

    const res = await t.client.post(`/libraries/${libA.id}/eject`, undefined, { token: owner.access });
    assert.ok(res.status === 200 || res.status === 409, `${res.status} ${JSON.stringify(res.body)}`);
    if (res.status === 200) assert.equal(res.body.status, 'ejected');
    assert.ok(usb.isMounted(), 'the drive holding the default library is still mounted');
    await t.server.runMaintenance();
    const listedB = await library(t, owner, libB.id);
    assert.equal(listedB.status, 'online');
    assert.equal(listedB.default, true);
    await assertDownloads(t, owner, onB, data);
    const more = crypto.randomBytes(1000);
    await assertDownloads(t, owner, await uploadFile(t.api, owner.access, more, { filename: 'more.bin' }), more);
  });

  test('an eject that cannot unmount a busy drive fails and leaves the library online, its files readable', async (ctx) => {
    if (skipReason) return ctx.skip(skipReason);
    const usb = drive('usb4');
    const folder = path.join(usb.mountPoint, 'hearth');
    fs.mkdirSync(folder);
    const t = await startTestServer({ mountsRoots: [roots] });
    servers.push(t);
    const owner = await setupOwner(t.client);
    const internalId = (await libraries(t, owner))[0].id;
    const lib = await register(t, owner, { name: 'Busy', path: folder, make_default: true });
    const data = crypto.randomBytes(10_000);
    const fileId = await uploadFile(t.api, owner.access, data, { filename: 'busy.bin' });
    await setDefault(t, owner, internalId);
    // Something else on the machine has the drive open: umount refuses ("target is busy").
    const holder = spawn('sleep', ['60'], { cwd: folder, stdio: 'ignore' });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.once('spawn', () => resolve());
        holder.once('error', reject);
      });
      const res = await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access });
      assertError(res, 409, 'library_busy');
      assert.ok(usb.isMounted());
      const listed = await library(t, owner, lib.id);
      assert.equal(listed.status, 'online', 'a drive still mounted is not reported ejected');
      await assertDownloads(t, owner, fileId, data);
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) =>
        holder.exitCode !== null || holder.signalCode !== null ? resolve(null) : holder.once('exit', resolve),
      );
    }
    // Once nothing holds it, the eject goes through.
    const res = await t.client.post(`/libraries/${lib.id}/eject`, undefined, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(!usb.isMounted());
  });
});
