import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { davNames } from '../../../src/http/dav/shared.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, propfindBody, responsesOf, type DriveLogin, davErrorOf } from './dav-support.ts';

// Mum (the owner) and Dad each share a folder called "Holiday" with Alice: Mum's to view, Dad's to
// edit. Mum also shares a file with Alice to edit, and Alice has a folder of her own called
// "Shared with me", made in the app.
let t: TestServer;
let mum: SignedIn;
let dad: SignedIn;
let alice: SignedIn;
let aliceDrive: DriveLogin;
let mumHoliday: any;
let dadHoliday: any;
let mumName: string;
let dadName: string;

const SHARED = '/dav/Shared%20with%20me';

async function grant(who: SignedIn, nodeId: string, role: 'viewer' | 'editor'): Promise<void> {
  const res = await t.client.post(`/nodes/${nodeId}/permissions`, { user_id: alice.userId, role }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
}

async function put(who: SignedIn, folderId: string | null, name: string, body: string): Promise<any> {
  const drive = await driveLogin(t, who, who.username);
  const folder = folderId ? (await t.client.get(`/nodes/${folderId}`, { token: who.access })).body : null;
  const path = folder ? `/dav/${encodeURIComponent(folder.name)}/${encodeURIComponent(name)}` : `/dav/${encodeURIComponent(name)}`;
  const res = await dav(t, 'PUT', path, { login: drive, body });
  assert.equal(res.status, 201, path);
}

async function listing(path: string): Promise<Map<string, string>> {
  const res = await dav(t, 'PROPFIND', path, { login: aliceDrive, headers: { Depth: '1' } });
  assert.equal(res.status, 207, path);
  return responsesOf(await res.text());
}

async function errorOf(res: Response): Promise<string> {
  return (await davErrorOf(res)).code;
}

before(async () => {
  t = await startTestServer();
  mum = await setupOwner(t.client);
  dad = await createMember(t.client, mum, 'dad');
  alice = await createMember(t.client, mum, 'alice');
  aliceDrive = await driveLogin(t, alice, 'alice');
  mumHoliday = await createFolder(t.client, mum, 'Holiday');
  dadHoliday = await createFolder(t.client, dad, 'Holiday');
  await put(mum, mumHoliday.id, 'beach.txt', 'sand');
  await put(dad, dadHoliday.id, 'plan.txt', 'train at 9');
  await put(mum, null, 'list.txt', 'milk');
  await grant(mum, mumHoliday.id, 'viewer');
  await grant(dad, dadHoliday.id, 'editor');
  const list = (await t.client.get('/nodes', { token: mum.access })).body.items;
  await grant(mum, list.find((n: any) => n.name === 'list.txt').id, 'editor');
  const shared = (await t.client.get('/shared-with-me', { token: alice.access })).body.items;
  mumName = shared.find((i: any) => i.id === mumHoliday.id).shared_by.name;
  dadName = shared.find((i: any) => i.id === dadHoliday.id).shared_by.name;
  const own = await createFolder(t.client, alice, 'Shared with me');
  const aliceOwn = await driveLogin(t, alice, 'alice');
  assert.equal((await dav(t, 'PUT', `/dav/Shared%20with%20me%20(mine)/mine.txt`, { login: aliceOwn, body: 'my own' })).status, 201);
  assert.ok(own.id);
});
after(() => t.close());

describe('WebDAV: Shared with me', () => {
  test('the top lists "Shared with me", and the account\'s own folder of that name as "Shared with me (mine)"', async () => {
    const top = await listing('/dav/');
    assert.ok(top.has(`${SHARED}/`), [...top.keys()].join(' '));
    assert.match(top.get(`${SHARED}/`)!, /<d:displayname>Shared with me<\/d:displayname>/);
    assert.match(top.get(`${SHARED}/`)!, /<d:collection\/>/);
    assert.ok(top.has('/dav/Shared%20with%20me%20(mine)/'), 'the own folder is there under its alias');
    const mine = await dav(t, 'GET', '/dav/Shared%20with%20me%20(mine)/mine.txt', { login: aliceDrive });
    assert.equal(await mine.text(), 'my own');
  });

  test("it lists each shared file and folder by its name; two of one name carry their sharer's name", async () => {
    const shared = await listing(`${SHARED}/`);
    const mumHref = `${SHARED}/${encodeURIComponent(`Holiday (${mumName})`)}/`;
    const dadHref = `${SHARED}/${encodeURIComponent(`Holiday (${dadName})`)}/`;
    assert.deepEqual([...shared.keys()].sort(), [`${SHARED}/`, mumHref, dadHref, `${SHARED}/list.txt`].sort());
    assert.match(shared.get(dadHref)!, new RegExp(`<d:displayname>Holiday \\(${dadName}\\)</d:displayname>`));
    assert.ok(![...shared.keys()].some((href) => href.includes('mine')), 'the own folder is not among what is shared');
    const inside = await listing(dadHref);
    assert.ok(inside.has(`${dadHref}plan.txt`));
    const got = await dav(t, 'GET', `${mumHref}beach.txt`, { login: aliceDrive });
    assert.equal(got.status, 200);
    assert.equal(await got.text(), 'sand');
  });

  test('a viewer reads only: every change is 403 shared_view_only, and nothing changed', async () => {
    const folder = `${SHARED}/${encodeURIComponent(`Holiday (${mumName})`)}`;
    const cases: [string, string, Record<string, string>, string?][] = [
      ['PUT', `${folder}/new.txt`, {}, 'x'],
      ['PUT', `${folder}/beach.txt`, {}, 'changed'],
      ['MKCOL', `${folder}/Sub`, {}],
      ['DELETE', `${folder}/beach.txt`, {}],
      ['MOVE', `${folder}/beach.txt`, { Destination: `${folder}/renamed.txt` }],
      ['PROPPATCH', `${folder}/beach.txt`, { 'Content-Type': 'application/xml' }, propfindBody('')],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await dav(t, method, path, { login: aliceDrive, headers, ...(body !== undefined && { body }) });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(await errorOf(res), 'shared_view_only', `${method} ${path}`);
    }
    const copy = await dav(t, 'COPY', '/dav/Shared%20with%20me%20(mine)/mine.txt', {
      login: aliceDrive,
      headers: { Destination: `${folder}/mine.txt` },
    });
    assert.equal(copy.status, 403, 'COPY into a viewer folder');
    assert.equal(await errorOf(copy), 'shared_view_only');
    const mumFiles = (await t.client.get(`/nodes?parent_id=${mumHoliday.id}`, { token: mum.access })).body.items;
    assert.deepEqual(
      mumFiles.map((n: any) => n.name),
      ['beach.txt'],
    );
    // Reading includes copying out, into the account's own files.
    const out = await dav(t, 'COPY', `${folder}/beach.txt`, { login: aliceDrive, headers: { Destination: '/dav/beach-copy.txt' } });
    assert.equal(out.status, 201);
    assert.equal(await (await dav(t, 'GET', '/dav/beach-copy.txt', { login: aliceDrive })).text(), 'sand');
  });

  test("an editor writes inside, into the sharer's files and against the sharer's quota", async () => {
    const folder = `${SHARED}/${encodeURIComponent(`Holiday (${dadName})`)}`;
    const usedBefore = (await t.client.get('/me', { token: dad.access })).body.quota.used;
    const aliceBefore = (await t.client.get('/me', { token: alice.access })).body.quota.used;
    assert.equal((await dav(t, 'PUT', `${folder}/tickets.txt`, { login: aliceDrive, body: '0123456789' })).status, 201);
    assert.equal((await dav(t, 'MKCOL', `${folder}/Photos`, { login: aliceDrive })).status, 201);
    assert.equal((await dav(t, 'PUT', `${folder}/plan.txt`, { login: aliceDrive, body: 'train at 10' })).status, 204);
    const dadFiles = (await t.client.get(`/nodes?parent_id=${dadHoliday.id}`, { token: dad.access })).body.items;
    const tickets = dadFiles.find((n: any) => n.name === 'tickets.txt');
    assert.equal(tickets.owner_id, dad.userId, "the file is in the sharer's tree");
    assert.equal((await t.client.get('/me', { token: dad.access })).body.quota.used, usedBefore + 10 + 'train at 10'.length);
    assert.equal((await t.client.get('/me', { token: alice.access })).body.quota.used, aliceBefore);
    assert.equal((await dav(t, 'DELETE', `${folder}/tickets.txt`, { login: aliceDrive })).status, 204);
    const trashed = (await t.client.get(`/nodes/${tickets.id}`, { token: dad.access })).body;
    assert.ok(trashed.trashed_at !== null, "deleted to the sharer's trash");
  });

  test('a MOVE out of what is shared, or into it, is 403 move_across_owners: copying is the way', async () => {
    const folder = `${SHARED}/${encodeURIComponent(`Holiday (${dadName})`)}`;
    const out = await dav(t, 'MOVE', `${folder}/plan.txt`, { login: aliceDrive, headers: { Destination: '/dav/plan.txt' } });
    assert.equal(out.status, 403);
    assert.equal(await errorOf(out), 'move_across_owners');
    const into = await dav(t, 'MOVE', '/dav/beach-copy.txt', { login: aliceDrive, headers: { Destination: `${folder}/beach-copy.txt` } });
    assert.equal(into.status, 403);
    assert.equal(await errorOf(into), 'move_across_owners');
    assert.equal((await dav(t, 'GET', `${folder}/plan.txt`, { login: aliceDrive })).status, 200, 'the file stayed');
  });

  test('"Shared with me" itself and the shared items in it cannot be added to, renamed or removed', async () => {
    const cases: [string, string, Record<string, string>, string?][] = [
      ['MKCOL', `${SHARED}/New`, {}],
      ['PUT', `${SHARED}/new.txt`, {}, 'x'],
      ['DELETE', `${SHARED}/`, {}],
      ['MKCOL', SHARED, {}],
      ['PUT', SHARED, {}, 'x'],
      ['DELETE', `${SHARED}/list.txt`, {}],
      ['MOVE', `${SHARED}/list.txt`, { Destination: `${SHARED}/renamed.txt` }],
      ['COPY', '/dav/beach-copy.txt', { Destination: `${SHARED}/beach-copy.txt` }],
      ['COPY', `${SHARED}/`, { Destination: '/dav/All shared' }],
      ['MOVE', '/dav/Shared%20with%20me%20(mine)', { Destination: `${SHARED}/` }],
    ];
    for (const [method, path, headers, body] of cases) {
      const res = await dav(t, method, path, { login: aliceDrive, headers, ...(body !== undefined && { body }) });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(await errorOf(res), 'shared_with_me_read_only', `${method} ${path}`);
    }
    // An editor of a shared file writes a new version of it in place.
    assert.equal((await dav(t, 'PUT', `${SHARED}/list.txt`, { login: aliceDrive, body: 'milk, eggs' })).status, 204);
    assert.equal(await (await dav(t, 'GET', `${SHARED}/list.txt`, { login: aliceDrive })).text(), 'milk, eggs');
  });

  test('a share taken back is gone from the drive at once', async () => {
    const res = await t.client.delete(`/nodes/${mumHoliday.id}/permissions/${alice.userId}`, { token: mum.access });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const shared = await listing(`${SHARED}/`);
    // The other "Holiday" no longer clashes: it goes by its own name again.
    assert.ok(shared.has(`${SHARED}/Holiday/`), [...shared.keys()].join(' '));
    assert.equal(shared.size, 3);
    const gone = await dav(t, 'PROPFIND', `${SHARED}/${encodeURIComponent(`Holiday (${mumName})`)}/beach.txt`, {
      login: aliceDrive,
      headers: { Depth: '0' },
    });
    assert.equal(gone.status, 404);
  });
});

describe('WebDAV: names in Shared with me', () => {
  test("a clash carries the sharer's name (before a file's extension); what still clashes is numbered, oldest first", () => {
    const names = davNames([
      { name: 'Photos', by: 'Mum', isFile: false },
      { name: 'photos', by: 'Mum', isFile: false },
      { name: 'Photos (Mum)', by: 'Gran', isFile: false },
      { name: 'notes.txt', by: 'Dad', isFile: true },
      { name: 'Notes.txt', by: 'Mum/Dad', isFile: true },
      { name: 'School', by: 'Dad', isFile: false },
    ]);
    assert.deepEqual(names, ['Photos (Mum)', 'photos (Mum) (2)', 'Photos (Mum) (3)', 'notes (Dad).txt', 'Notes (Mum-Dad).txt', 'School']);
  });
});
