import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { GalleryRepo } from '../../../src/store/database/gallery.repo.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// The family timeline: Photos with scope=family shows what the account owns plus everything
// shared with it (folders and files granted, albums it is in, partners' photos from their day),
// each photo once however many ways it arrives, never another's private photo nor anything in
// the trash; and it loses what is taken away at once.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `family${++accounts}`);
}

async function ok(who: SignedIn, method: string, route: string, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function status(who: SignedIn, method: string, route: string, body?: unknown): Promise<number> {
  return (await t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) })).status;
}

function months(who: SignedIn, query = ''): Promise<{ month: string; photos: number; videos: number }[]> {
  return ok(who, 'GET', `/nodes/gallery/months?scope=family${query}`).then((body) => body.items);
}

/** Every item of the family timeline, month by month and page by page (small pages, to cross their edges). */
async function timeline(who: SignedIn, query = ''): Promise<any[]> {
  const items: any[] = [];
  for (const { month } of await months(who, query)) {
    let cursor: string | null = null;
    do {
      const page: any = await ok(
        who,
        'GET',
        `/nodes?filter=gallery&scope=family&month=${month}&limit=2${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      items.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
  }
  return items;
}

const names = (items: { name: string }[]) => items.map((item) => item.name);

/**
 * Mum's family as the tests find it: her own photo; Emma's Holiday folder (and Day 1 inside it)
 * shared with her; Emma's Beach album, Mum in it, holding a photo from an unshared folder and one
 * from Holiday; Dad sharing his photos with her from 1 January 2023, and a folder of his granted
 * too; Emma's and Grandpa's private photos; Dad's notes.
 */
async function family() {
  const [mum, emma, dad, grandpa] = [await person(), await person(), await person(), await person()];
  const holiday = await createFolder(t.client, emma, 'Holiday');
  const day1 = await createFolder(t.client, emma, 'Day 1', holiday.id);
  const albumOnly = await createFolder(t.client, emma, 'Album only');
  const dadShares = await createFolder(t.client, dad, 'For Mum');
  const ids = {
    mum: await uploadPhoto(t, mum, 'mum-2023-05.jpg', { when: '2023:05:10 10:00:00' }),
    holiday: await uploadPhoto(t, emma, 'holiday-2023-05.jpg', { when: '2023:05:20 12:00:00', parentId: holiday.id }),
    day1: await uploadPhoto(t, emma, 'day1-2023-06.jpg', { when: '2023:06:02 09:00:00', parentId: day1.id }),
    beach: await uploadPhoto(t, emma, 'beach-2022-08.jpg', { when: '2022:08:15 16:00:00', parentId: albumOnly.id }),
    emmaPrivate: await uploadPhoto(t, emma, 'emma-private-2023-05.jpg', { when: '2023:05:21 12:00:00' }),
    dadBefore: await uploadPhoto(t, dad, 'dad-2022-12.jpg', { when: '2022:12:24 18:00:00' }),
    dadAfter: await uploadPhoto(t, dad, 'dad-2023-05.jpg', { when: '2023:05:01 08:00:00' }),
    dadFolderAfter: await uploadPhoto(t, dad, 'dad-folder-2023-06.jpg', { when: '2023:06:10 08:00:00', parentId: dadShares.id }),
    dadFolderBefore: await uploadPhoto(t, dad, 'dad-folder-2022-11.jpg', { when: '2022:11:11 11:00:00', parentId: dadShares.id }),
    dadNotes: await uploadFile(t.api, dad.access, Buffer.from('shopping list'), { filename: 'notes.txt' }),
    grandpa: await uploadPhoto(t, grandpa, 'grandpa-2023-05.jpg', { when: '2023:05:05 05:00:00' }),
  };
  await t.server.mediaIdle();
  await ok(emma, 'POST', `/nodes/${holiday.id}/permissions`, { user_id: mum.userId, role: 'viewer' });
  await ok(dad, 'POST', `/nodes/${dadShares.id}/permissions`, { user_id: mum.userId, role: 'viewer' });
  const beach = await makeAlbum(t, emma, 'Beach', [ids.beach, ids.holiday]);
  await invite(t, emma, beach.id, mum, 'viewer');
  await ok(dad, 'POST', '/partner-shares', { user_id: mum.userId, since: '2023-01-01' });
  // Grandpa's own album, shared with nobody.
  await makeAlbum(t, grandpa, 'Mine alone', [ids.grandpa]);
  return { mum, emma, dad, grandpa, holiday, day1, dadShares, beach, ids };
}

describe('GET /nodes/gallery/months and /nodes?filter=gallery with scope=family', () => {
  test('counts per month take in shared folders, albums and a partner from their day, each photo once, never anyone’s private photos or documents', async () => {
    const { mum, ids } = await family();
    assert.deepEqual(await months(mum), [
      { month: '2023-06', photos: 2, videos: 0 },
      { month: '2023-05', photos: 3, videos: 0 },
      { month: '2022-11', photos: 1, videos: 0 },
      { month: '2022-08', photos: 1, videos: 0 },
    ]);
    // Each month lists exactly what it counts, newest first, each photo once (Holiday's photo
    // is in the album too; Dad's June photo is in his shared folder and his partner share).
    const items = await timeline(mum);
    assert.deepEqual(names(items), [
      'dad-folder-2023-06.jpg',
      'day1-2023-06.jpg',
      'holiday-2023-05.jpg',
      'mum-2023-05.jpg',
      'dad-2023-05.jpg',
      'dad-folder-2022-11.jpg',
      'beach-2022-08.jpg',
    ]);
    // Whose each is: Mum's own is not shared; every other one is, with its owner.
    const byName = new Map(items.map((item) => [item.name, item]));
    assert.equal(byName.get('mum-2023-05.jpg').shared, false);
    assert.equal(byName.get('dad-2023-05.jpg').shared, true);
    assert.equal(byName.get('dad-2023-05.jpg').owner_id, (await ok(mum, 'GET', `/nodes/${ids.dadAfter}`)).owner_id);
    assert.ok(items.filter((item) => item.name !== 'mum-2023-05.jpg').every((item) => item.shared === true));
    // Her own timeline (the default) is hers alone, as before.
    assert.deepEqual(await ok(mum, 'GET', '/nodes/gallery/months'), { items: [{ month: '2023-05', photos: 1, videos: 0 }] });
    assert.deepEqual(await ok(mum, 'GET', '/nodes/gallery/months?scope=mine'), { items: [{ month: '2023-05', photos: 1, videos: 0 }] });
    assert.deepEqual(names((await ok(mum, 'GET', '/nodes?filter=gallery&scope=mine')).items), ['mum-2023-05.jpg']);
    // A page without a month merges every way in, newest first, and pages on by cursor.
    const first = await ok(mum, 'GET', '/nodes?filter=gallery&scope=family&limit=4');
    const rest = await ok(mum, 'GET', `/nodes?filter=gallery&scope=family&limit=4&cursor=${encodeURIComponent(first.next_cursor)}`);
    assert.deepEqual([...names(first.items), ...names(rest.items)], names(items));
    assert.equal(rest.next_cursor, null);
  });

  test('a video shared with her is counted as a video; what the others see of theirs is unchanged', async () => {
    const { mum, emma, holiday } = await family();
    const { mediaFixture } = await import('../../helpers/fixtures.ts');
    await uploadFile(t.api, emma.access, await mediaFixture('clip.mp4'), { filename: 'clip.mp4', parentId: holiday.id }); // taken 2020-01-02
    await t.server.mediaIdle();
    assert.deepEqual((await months(mum)).at(-1), { month: '2020-01', photos: 0, videos: 1 });
    // Emma's family timeline has nothing of Mum's: Mum shared nothing with her.
    assert.ok(!names(await timeline(emma)).includes('mum-2023-05.jpg'));
  });

  test('a shared photo trashed by its owner leaves her timeline at once, and comes back when restored', async () => {
    const { mum, emma, ids } = await family();
    const events = await EventSocket.open(t.url, mum.access);
    try {
      await ok(emma, 'DELETE', `/nodes/${ids.day1}`);
      // She hears of it (its folder is shared with her): her open timeline fetches again.
      await events.waitFor((m) => m.type === 'node.deleted' && m.payload.node.id === ids.day1);
      assert.deepEqual((await months(mum))[0], { month: '2023-06', photos: 1, videos: 0 });
      assert.ok(!names(await timeline(mum)).includes('day1-2023-06.jpg'));
      // The holiday photo trashed leaves both ways it came (the folder and the album).
      await ok(emma, 'DELETE', `/nodes/${ids.holiday}`);
      assert.ok(!names(await timeline(mum)).includes('holiday-2023-05.jpg'));
      await ok(emma, 'POST', `/nodes/${ids.holiday}/restore`);
      assert.equal(names(await timeline(mum)).filter((name) => name === 'holiday-2023-05.jpg').length, 1);
    } finally {
      events.close();
    }
  });

  test('revoking the folder, removing her from the album or stopping the partner share takes those photos out at once, and she hears each (access_lost)', async () => {
    const { mum, emma, dad, holiday, beach } = await family();
    const events = await EventSocket.open(t.url, mum.access);
    try {
      await ok(emma, 'DELETE', `/nodes/${holiday.id}/permissions/${mum.userId}`);
      await events.waitFor((m) => m.type === 'node.deleted' && m.payload.access_lost === true && m.payload.node.id === holiday.id);
      // The holiday photo stays: it is in the album she is still in.
      assert.deepEqual(names(await timeline(mum)), [
        'dad-folder-2023-06.jpg',
        'holiday-2023-05.jpg',
        'mum-2023-05.jpg',
        'dad-2023-05.jpg',
        'dad-folder-2022-11.jpg',
        'beach-2022-08.jpg',
      ]);
      await ok(emma, 'DELETE', `/albums/${beach.id}/members/${mum.userId}`);
      await events.waitFor((m) => m.type === 'album.deleted' && m.payload.access_lost === true && m.payload.album_id === beach.id);
      assert.deepEqual(names(await timeline(mum)), [
        'dad-folder-2023-06.jpg',
        'mum-2023-05.jpg',
        'dad-2023-05.jpg',
        'dad-folder-2022-11.jpg',
      ]);
      await ok(dad, 'DELETE', `/partner-shares/${mum.userId}`);
      await events.waitFor(
        (m) => m.type === 'partner_share.deleted' && m.payload.access_lost === true && m.payload.owner_id === dad.userId,
      );
      // Dad's folder is still granted: its photos stay, whatever their day.
      assert.deepEqual(names(await timeline(mum)), ['dad-folder-2023-06.jpg', 'mum-2023-05.jpg', 'dad-folder-2022-11.jpg']);
      assert.deepEqual(await months(mum), [
        { month: '2023-06', photos: 1, videos: 0 },
        { month: '2023-05', photos: 1, videos: 0 },
        { month: '2022-11', photos: 1, videos: 0 },
      ]);
    } finally {
      events.close();
    }
  });

  test('search (q) works in the family timeline: by date and by name, each photo once, never a private one', async () => {
    const { mum } = await family();
    assert.deepEqual(await months(mum, '&q=2022'), [
      { month: '2022-11', photos: 1, videos: 0 },
      { month: '2022-08', photos: 1, videos: 0 },
    ]);
    assert.deepEqual(names(await timeline(mum, '&q=2022')), ['dad-folder-2022-11.jpg', 'beach-2022-08.jpg']);
    assert.deepEqual(names(await timeline(mum, '&q=holiday')), ['holiday-2023-05.jpg']);
    assert.deepEqual(await months(mum, '&q=private'), []);
    assert.deepEqual(names(await timeline(mum, '&q=may 2023')), ['holiday-2023-05.jpg', 'mum-2023-05.jpg', 'dad-2023-05.jpg']);
  });

  test('bad input: an unknown scope, or scope without filter=gallery, is 400 invalid_input on scope; no token is 401', async () => {
    const who = await person();
    assertError(await t.client.get('/nodes/gallery/months?scope=everyone', { token: who.access }), 400, 'invalid_input', 'scope');
    assertError(await t.client.get('/nodes?filter=gallery&scope=all', { token: who.access }), 400, 'invalid_input', 'scope');
    assertError(await t.client.get('/nodes?scope=family', { token: who.access }), 400, 'invalid_input', 'scope');
    assertError(await t.client.get('/nodes?filter=recent&scope=family', { token: who.access }), 400, 'invalid_input', 'scope');
    assertError(await t.client.get('/nodes/gallery/months?scope=family'), 401, 'unauthorized');
    assertError(await t.client.get('/nodes?filter=gallery&scope=family'), 401, 'unauthorized');
  });

  test("a disabled account's shares are suspended in her timeline, and back once it is enabled", async () => {
    const { mum, dad } = await family();
    await ok(admin, 'PATCH', `/admin/users/${dad.userId}`, { disabled: true });
    assert.deepEqual(names(await timeline(mum)), ['day1-2023-06.jpg', 'holiday-2023-05.jpg', 'mum-2023-05.jpg', 'beach-2022-08.jpg']);
    await ok(admin, 'PATCH', `/admin/users/${dad.userId}`, { disabled: false });
    assert.equal((await timeline(mum)).length, 7);
  });

  test('the family months are counted on indexes, one range per way in (per folder, per album), with no sort of every row', async () => {
    const { mum } = await family();
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      const repo = new GalleryRepo(db);
      const scope = repo.scope(mum.userId, true);
      assert.equal(repo.armCount(scope), 5, "own, Dad's photos, Emma's folders, Dad's folder, the album");
      const prepared: string[] = [];
      const recording = new Proxy(db, {
        get: (target, prop) =>
          prop === 'prepareRaw' ? (sql: string) => (prepared.push(sql), target.prepareRaw(sql)) : Reflect.get(target, prop),
      });
      const recorder = new GalleryRepo(recording);
      for (let arm = 0; arm < 5; arm++) {
        recorder.newestTakenBefore(scope, arm, Date.UTC(2024, 0, 1));
        recorder.countTaken(scope, arm, Date.UTC(2023, 4, 1), Date.UTC(2023, 5, 1));
      }
      const params: Record<string, unknown> = { before: 1, from: 0 };
      const { galleryArms } = await import('../../../src/store/database/reach/gallery-arms.ts');
      galleryArms(scope, params);
      for (const sql of prepared) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail).join(' | ');
        assert.doesNotMatch(plan, /\bSCAN n\b|SCAN ai\b|TEMP B-TREE FOR (ORDER|GROUP) BY/, plan);
        assert.match(
          plan,
          /SEARCH (n|ai) USING (COVERING )?INDEX (nodes_gallery\w*|album_items_taken) \((owner_id|parent_id|album_id)=\? AND taken_sort[<>]\?/,
          plan,
        );
      }
    } finally {
      db.close();
    }
  });
});

describe('what a partner share lets her reach', () => {
  test("Dad's photos from his day on, read only (node, thumbnail, download), and nothing else of his", async () => {
    const { mum, ids } = await family();
    for (const route of [`/nodes/${ids.dadAfter}`, `/nodes/${ids.dadAfter}/thumbnail`, `/nodes/${ids.dadAfter}/download`]) {
      assert.equal(await status(mum, 'GET', route), 200, route);
    }
    assert.equal(await status(mum, 'POST', `/nodes/${ids.dadAfter}/access-token`), 200);
    // Looking is all: no rename, no trash, no sharing it on.
    assert.equal(await status(mum, 'PATCH', `/nodes/${ids.dadAfter}`, { name: 'mine.jpg' }), 403);
    assert.equal(await status(mum, 'DELETE', `/nodes/${ids.dadAfter}`), 403);
    assert.equal(await status(mum, 'POST', `/nodes/${ids.dadAfter}/permissions`, { user_id: admin.userId, role: 'viewer' }), 403);
    // Nor into her album: an album passes on only what its adders own or were granted.
    const album = await makeAlbum(t, mum, 'Ours');
    assert.equal((await t.client.post(`/albums/${album.id}/items`, { node_ids: [ids.dadAfter] }, { token: mum.access })).status, 404);
    // Before his day, and what is not a photo, do not exist for her.
    for (const route of [
      `/nodes/${ids.dadBefore}`,
      `/nodes/${ids.dadBefore}/thumbnail`,
      `/nodes/${ids.dadNotes}`,
      `/nodes/${ids.dadNotes}/download`,
    ]) {
      assert.equal(await status(mum, 'GET', route), 404, route);
    }
    // Grandpa shares nothing with her.
    assert.equal(await status(mum, 'GET', `/nodes/${ids.grandpa}`), 404);
  });

  test('a photo Dad takes later reaches her open timeline (its event) only when it is from his day on', async () => {
    const { mum, dad } = await family();
    const events = await EventSocket.open(t.url, mum.access);
    try {
      const old = await uploadPhoto(t, dad, 'dad-2019.jpg', { when: '2019:07:01 12:00:00' });
      const fresh = await uploadPhoto(t, dad, 'dad-2024.jpg', { when: '2024:02:02 12:00:00' });
      await t.server.mediaIdle();
      await events.waitFor((m) => m.type === 'node.thumbnail_ready' && m.payload.node.id === fresh);
      assert.ok(!events.pending().some((m) => m.payload?.node?.id === old), 'nothing of the photo from before his day');
      assert.equal((await months(mum))[0]!.month, '2024-02');
      assert.ok(!(await months(mum)).some((m) => m.month === '2019-07'));
    } finally {
      events.close();
    }
  });
});
