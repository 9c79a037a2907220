import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { readZip } from '../../helpers/zip.ts';

/* Issue 23: "download (one file as is, several as a zip streamed as it is made)". */

let t: TestServer;
let emma: SignedIn;
let mum: SignedIn;
let bob: SignedIn;

before(async () => {
  t = await startTestServer();
  emma = await setupOwner(t.client);
  mum = await createMember(t.client, emma, 'mum');
  bob = await createMember(t.client, emma, 'bob');
});
after(() => t.close());

async function upload(who: SignedIn, name: string, data: Buffer, parentId?: string): Promise<string> {
  return uploadFile(t.api, who.access, data, { filename: name, ...(parentId !== undefined && { parentId }) });
}

/** POST /downloads as `who`. */
function ask(who: SignedIn, body: unknown) {
  return t.client.post('/downloads', body, { token: who.access });
}

/** A ticket's URL followed as a browser does: no Authorization header, the path alone. */
async function follow(url: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(`${t.url}${url}`);
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

/** The zip of `ids`, asked for and fetched (201 and 200 expected). */
async function zipOf(who: SignedIn, ids: string[], name?: string) {
  const ticket = await ask(who, { node_ids: ids, ...(name !== undefined && { name }) });
  assert.equal(ticket.status, 201, JSON.stringify(ticket.body));
  const got = await follow(ticket.body.url);
  assert.equal(got.status, 200, got.body.toString().slice(0, 300));
  return { ticket: ticket.body, got, entries: await readZip(got.body) };
}

function errorOf(got: { headers: Headers; body: Buffer }): { code: string; message: string } {
  assert.match(got.headers.get('content-type') ?? '', /application\/json/);
  return JSON.parse(got.body.toString()).error;
}

describe('the zip of a selection', () => {
  test('three photos come back as a zip with the same bytes under their names, stored (not deflated), with its exact Content-Length and an attachment name', async () => {
    const data = [crypto.randomBytes(300_000), crypto.randomBytes(1), crypto.randomBytes(70_000)];
    const names = ['PXL_20240803_185900.jpg', 'tiny.jpg', 'IMG_0042.mov'];
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await upload(emma, names[i]!, data[i]!));
    const { ticket, got, entries } = await zipOf(emma, ids, 'August 2024');

    assert.equal(ticket.name, 'August 2024.zip');
    assert.equal(ticket.files, 3);
    assert.equal(ticket.folders, 0);
    assert.equal(ticket.bytes, 370_001);
    assert.match(ticket.url, /^\/api\/v1\/downloads\/[A-Za-z0-9_-]{40,}$/);
    assert.ok(ticket.expires_at > Date.now() && ticket.expires_at <= Date.now() + 61_000);

    assert.equal(got.headers.get('content-type'), 'application/zip');
    assert.equal(got.headers.get('content-length'), String(got.body.length));
    assert.equal(got.headers.get('cache-control'), 'no-store');
    assert.match(
      got.headers.get('content-disposition') ?? '',
      /^attachment; filename="August 2024\.zip"; filename\*=UTF-8''August%202024\.zip$/,
    );
    assert.match(got.headers.get('content-security-policy') ?? '', /sandbox/);

    assert.deepEqual(
      entries.map((e) => e.name),
      names,
    );
    entries.forEach((entry, i) => {
      assert.equal(entry.compressionMethod, 0, `${entry.name} is stored`);
      assert.ok(entry.data.equals(data[i]!), `${entry.name} has its bytes`);
      assert.ok(Math.abs(entry.modified.getTime() - Date.now()) < 5 * 60_000, `${entry.name} carries its time`);
    });
  });

  test('a ticket opens one download: the second visit of its URL is 410 download_expired (a HEAD is refused and spends nothing), and an unknown ticket is answered the same', async () => {
    const id = await upload(emma, 'once.txt', Buffer.from('once'));
    const ticket = await ask(emma, { node_ids: [id] });
    assert.equal((await follow(ticket.body.url)).status, 200);
    const again = await follow(ticket.body.url);
    assert.equal(again.status, 410);
    assert.equal(errorOf(again).code, 'download_expired');
    const looked = await ask(emma, { node_ids: [id] });
    const head = await fetch(`${t.url}${looked.body.url}`, { method: 'HEAD' });
    assert.equal(head.status, 405, 'a HEAD does not spend it');
    assert.equal(head.headers.get('allow'), 'GET');
    assert.equal((await follow(looked.body.url)).status, 200);
    const made = await follow('/api/v1/downloads/not-a-real-ticket-at-all');
    assert.equal(made.status, 410);
    assert.equal(errorOf(made).code, 'download_expired');
  });

  test('the same id twice is zipped once; the zip is named after the one folder asked for, else "Hearth download"', async () => {
    const id = await upload(emma, 'twice.txt', Buffer.from('twice'));
    const { ticket, entries } = await zipOf(emma, [id, id]);
    assert.equal(ticket.name, 'Hearth download.zip');
    assert.deepEqual(
      entries.map((e) => e.name),
      ['twice.txt'],
    );
    const folder = await createFolder(t.client, emma, 'Lisbon: day 1');
    const named = await zipOf(emma, [folder.id]);
    assert.equal(named.ticket.name, 'Lisbon_ day 1.zip');
  });
});

describe('folders', () => {
  test('a folder comes with its whole tree: its folders (empty ones too) and files, named as in Hearth, and nothing from its trash', async () => {
    const top = await createFolder(t.client, emma, 'Holiday 2024');
    const day1 = await createFolder(t.client, emma, 'Day 1', top.id);
    const empty = await createFolder(t.client, emma, 'Nothing yet', top.id);
    const deep = await createFolder(t.client, emma, 'Beach', day1.id);
    const a = crypto.randomBytes(5000);
    const b = crypto.randomBytes(7000);
    const c = crypto.randomBytes(9000);
    await upload(emma, 'a.jpg', a, top.id);
    await upload(emma, 'b.jpg', b, day1.id);
    await upload(emma, 'c.jpg', c, deep.id);
    const gone = await upload(emma, 'trashed.jpg', crypto.randomBytes(10), day1.id);
    assert.equal((await t.client.delete(`/nodes/${gone}`, { token: emma.access })).status, 200);
    const trashedFolder = await createFolder(t.client, emma, 'Old', top.id);
    await upload(emma, 'old.jpg', crypto.randomBytes(10), trashedFolder.id);
    assert.equal((await t.client.delete(`/nodes/${trashedFolder.id}`, { token: emma.access })).status, 200);

    const { ticket, entries } = await zipOf(emma, [top.id]);
    assert.equal(ticket.name, 'Holiday 2024.zip');
    assert.equal(ticket.files, 3);
    assert.equal(ticket.folders, 4);
    assert.equal(ticket.bytes, 21_000);
    assert.deepEqual(
      entries.map((e) => e.name),
      [
        'Holiday 2024/',
        'Holiday 2024/Day 1/',
        'Holiday 2024/Day 1/Beach/',
        'Holiday 2024/Day 1/Beach/c.jpg',
        'Holiday 2024/Day 1/b.jpg',
        'Holiday 2024/Nothing yet/',
        'Holiday 2024/a.jpg',
      ],
    );
    const byName = new Map(entries.map((e) => [e.name, e]));
    assert.ok(byName.get('Holiday 2024/a.jpg')!.data.equals(a));
    assert.ok(byName.get('Holiday 2024/Day 1/b.jpg')!.data.equals(b));
    assert.ok(byName.get('Holiday 2024/Day 1/Beach/c.jpg')!.data.equals(c));
    assert.ok(byName.get('Holiday 2024/Nothing yet/')!.folder);
    void empty;
  });

  test('a folder shared with me zips whole, as its owner sees it', async () => {
    const shared = await createFolder(t.client, emma, 'For Mum');
    const inner = await createFolder(t.client, emma, 'Inner', shared.id);
    const data = crypto.randomBytes(1234);
    await upload(emma, 'x.jpg', data, inner.id);
    const grant = await t.client.post(`/nodes/${shared.id}/permissions`, { user_id: mum.userId, role: 'viewer' }, { token: emma.access });
    assert.equal(grant.status, 201, JSON.stringify(grant.body));
    const { entries } = await zipOf(mum, [shared.id]);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['For Mum/', 'For Mum/Inner/', 'For Mum/Inner/x.jpg'],
    );
    assert.ok(entries[2]!.data.equals(data));
  });
});

describe('names', () => {
  test('names met twice in one folder (ignoring case) are numbered as uploads are; accents, other scripts and emoji stay as they are; \\ : * ? " < > | become _', async () => {
    const one = await createFolder(t.client, emma, 'Phone one');
    const two = await createFolder(t.client, emma, 'Phone two');
    const three = await createFolder(t.client, emma, 'Phone three');
    const files: [string, string | undefined][] = [
      ['IMG_0001.jpg', one.id],
      ['IMG_0001.jpg', two.id],
      ['img_0001.JPG', three.id],
      ['IMG_0001 (1).jpg', undefined],
      ['Été à Lisboa 🌊.jpg', undefined],
      ['東京の夜.jpg', undefined],
      ['..\\..\\startup.bat', undefined],
      ['C:notes?.txt', undefined],
    ];
    const ids = [];
    for (const [name, parent] of files) ids.push(await upload(emma, name, Buffer.from(name), parent));
    const { entries } = await zipOf(emma, ids);
    assert.deepEqual(
      entries.map((e) => e.name),
      [
        'IMG_0001.jpg',
        'IMG_0001 (2).jpg',
        'img_0001 (3).JPG',
        // Its own name: the numbered copies above go around it.
        'IMG_0001 (1).jpg',
        'Été à Lisboa 🌊.jpg',
        '東京の夜.jpg',
        '.._.._startup.bat',
        'C_notes_.txt',
      ],
    );
    entries.forEach((entry, i) => assert.equal(entry.data.toString(), files[i]![0]));
  });

  test('the name asked for the zip is checked like a file name (400 invalid_name), and made safe like its entries', async () => {
    const id = await upload(emma, 'n.txt', Buffer.from('n'));
    const bad = await ask(emma, { node_ids: [id], name: 'evil\u202Egpj.zip' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_name');
    const blank = await ask(emma, { node_ids: [id], name: '   ' });
    assert.equal(blank.status, 400);
    assert.equal(blank.body.error.code, 'invalid_name');
    const safe = await ask(emma, { node_ids: [id], name: 'Mum\\Dad: 2024.ZIP' });
    assert.equal(safe.status, 201);
    assert.equal(safe.body.name, 'Mum_Dad_ 2024.ZIP');
  });
});

describe('who may zip what', () => {
  test("someone else's node in the selection makes the whole request 404 not_found, naming it; nothing is made", async () => {
    const mine = await upload(emma, 'mine.jpg', Buffer.from('mine'));
    const bobs = await upload(bob, 'bobs.jpg', Buffer.from('bobs'));
    const res = await ask(emma, { node_ids: [mine, bobs] });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'not_found');
    assert.equal(res.body.error.field, 'node_ids.1');
    const unknown = await ask(emma, { node_ids: ['01ARZ3NDEKTSV4RRFFQ69G5FAV'] });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.field, 'node_ids.0');
  });

  test('something in the trash: 409 in_trash, naming it', async () => {
    const id = await upload(emma, 'binned.jpg', Buffer.from('binned'));
    assert.equal((await t.client.delete(`/nodes/${id}`, { token: emma.access })).status, 200);
    const res = await ask(emma, { node_ids: [id] });
    assert.equal(res.status, 409);
    assert.equal(res.body.error.code, 'in_trash');
    assert.equal(res.body.error.field, 'node_ids.0');
  });

  test('a member of an album zips its photos, also those of others; taken out of the album before the ticket is used, the download is 404', async () => {
    const photo = await uploadPhoto(t, emma, 'album photo.jpg');
    const album = await makeAlbum(t, emma, 'Zip album', [photo]);
    await invite(t, emma, album.id, mum, 'viewer');
    const { entries } = await zipOf(mum, [photo]);
    assert.deepEqual(
      entries.map((e) => e.name),
      ['album photo.jpg'],
    );

    const ticket = await ask(mum, { node_ids: [photo] });
    assert.equal(ticket.status, 201);
    const removed = await t.client.post(`/albums/${album.id}/items/remove`, { node_ids: [photo] }, { token: emma.access });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    const got = await follow(ticket.body.url);
    assert.equal(got.status, 404);
    assert.equal(errorOf(got).code, 'not_found');
  });

  test('signed out between the ticket and its use: the ticket dies with the session (401 invalid_token)', async () => {
    const other = await createMember(t.client, emma, 'leaver');
    const id = await upload(other, 'leaving.jpg', Buffer.from('x'));
    const ticket = await ask(other, { node_ids: [id] });
    assert.equal(ticket.status, 201);
    assert.equal((await t.client.post('/auth/logout', undefined, { token: other.access })).status, 204);
    const got = await follow(ticket.body.url);
    assert.equal(got.status, 401);
    assert.equal(errorOf(got).code, 'invalid_token');
  });

  test('without a session: 401; a ticket is never accepted as a bearer token elsewhere', async () => {
    const id = await upload(emma, 'auth.txt', Buffer.from('a'));
    const res = await t.client.post('/downloads', { node_ids: [id] });
    assert.equal(res.status, 401);
    const ticket = await ask(emma, { node_ids: [id] });
    const secret = ticket.body.url.split('/').pop();
    const misuse = await t.client.get(`/nodes/${id}`, { token: secret });
    assert.equal(misuse.status, 401);
  });
});

describe('bad input', () => {
  test('each mistake has its code and field', async () => {
    const id = await upload(emma, 'input.txt', Buffer.from('i'));
    const cases: [unknown, number, string, string | undefined][] = [
      [{}, 400, 'missing_field', 'node_ids'],
      [{ node_ids: [] }, 400, 'invalid_input', 'node_ids'],
      [{ node_ids: 'abc' }, 400, 'invalid_input', 'node_ids'],
      [{ node_ids: [42] }, 400, 'invalid_input', 'node_ids.0'],
      [{ node_ids: [''] }, 400, 'invalid_input', 'node_ids.0'],
      [{ node_ids: Array.from({ length: 20_001 }, () => id) }, 400, 'invalid_input', 'node_ids'],
      [{ node_ids: [id], name: 7 }, 400, 'invalid_input', 'name'],
    ];
    for (const [body, status, code, field] of cases) {
      const res = await ask(emma, body);
      assert.equal(res.status, status, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.error.code, code, JSON.stringify(body).slice(0, 80));
      assert.equal(res.body.error.field, field, JSON.stringify(body).slice(0, 80));
    }
    const form = await t.client.request('POST', '/downloads', {
      token: emma.access,
      rawBody: `node_ids=${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 415);
    assert.equal(form.body.error.code, 'unsupported_media_type');
  });

  test('more files and folders than a zip may hold is refused before anything is sent: 400 too_many_files (counted through folders)', async () => {
    const small = await startTestServer({ zipMaxEntries: 5 });
    try {
      const owner = await setupOwner(small.client);
      const make = async (name: string, parentId?: string) =>
        (await small.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token: owner.access })).body;
      const folder = await make('Big');
      for (let i = 0; i < 4; i++) await make(`f${i}`, folder.id);
      const fits = await small.client.post('/downloads', { node_ids: [folder.id] }, { token: owner.access });
      assert.equal(fits.status, 201, JSON.stringify(fits.body));
      assert.equal(fits.body.folders, 5);
      await make('one more', folder.id);
      const res = await small.client.post('/downloads', { node_ids: [folder.id] }, { token: owner.access });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.code, 'too_many_files');
      const loose = [];
      for (let i = 0; i < 6; i++) loose.push((await make(`top ${i}`)).id);
      const many = await small.client.post('/downloads', { node_ids: loose }, { token: owner.access });
      assert.equal(many.status, 400);
      assert.equal(many.body.error.code, 'too_many_files');
    } finally {
      await small.close();
    }
  });
});

describe('tickets and streams', () => {
  test('a ticket unused for its lifetime is gone: 410 download_expired', async () => {
    const quick = await startTestServer({ downloadTicketTtlMs: 150 });
    try {
      const owner = await setupOwner(quick.client);
      const id = await uploadFile(quick.api, owner.access, Buffer.from('late'), { filename: 'late.txt' });
      const ticket = await quick.client.post('/downloads', { node_ids: [id] }, { token: owner.access });
      assert.equal(ticket.status, 201);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const res = await fetch(`${quick.url}${ticket.body.url}`);
      assert.equal(res.status, 410);
      assert.equal(((await res.json()) as any).error.code, 'download_expired');
    } finally {
      await quick.close();
    }
  });

  test('a download cancelled halfway closes the file it was reading (no content file left open)', async () => {
    const ids = [];
    // Larger than what loopback's socket buffers hold (up to 32 MiB here): the server must wait for the client.
    for (let i = 0; i < 2; i++) ids.push(await upload(emma, `big ${i}.bin`, Buffer.alloc(48 * 1024 * 1024, i + 1)));
    const openContent = () =>
      fs.readdirSync('/proc/self/fd').filter((fd) => {
        try {
          return fs.readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${t.dataDir}/files/`);
        } catch {
          return false;
        }
      }).length;
    const before = openContent();
    const ticket = await ask(emma, { node_ids: ids });
    // node:http, whose paused response holds the server back (fetch reads ahead into memory).
    const request = http.get(`${t.url}${ticket.body.url}`);
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    await new Promise((resolve) => response.once('data', resolve));
    response.pause();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(openContent(), before + 1, 'one content file is being read, held back by the client');
    request.destroy();
    for (let i = 0; i < 100 && openContent() > before; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(openContent(), before);
  });
});
