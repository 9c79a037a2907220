import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, destinationFolder, finishedRun, startRun } from '../../helpers/backup.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Notifications (/notifications, /me/notification-settings): each kind is made when its cause
// happens, for the account it concerns alone, never about something that person cannot see;
// a kind turned off is not made; read and unread; bad input answers the envelope.

let t: TestServer;
let owner: SignedIn;
let people = 0;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, owner, `fam${++people}`);
}

async function notificationsOf(who: SignedIn): Promise<{ items: any[]; unread_count: number }> {
  const res = await t.client.get('/notifications', { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

describe('shared_with_you', () => {
  test('an album shared with Mum: she alone is told, in words, linking to the album, and her socket hears it at once', async () => {
    const [dad, mum, teen] = [await person(), await person(), await person()];
    const mumSocket = await EventSocket.open(t.url, mum.access);
    const teenSocket = await EventSocket.open(t.url, teen.access);
    try {
      const album = await makeAlbum(t, dad, 'Holiday 2026');
      await invite(t, dad, album.id, mum, 'viewer');
      const heard = await mumSocket.waitFor((m) => m.type === 'notification.created');
      assert.equal(heard.payload.unread_count, 1);
      const page = await notificationsOf(mum);
      assert.equal(page.unread_count, 1);
      assert.equal(page.items.length, 1);
      const [told] = page.items;
      assert.deepEqual(Object.keys(told).sort(), ['body', 'created_at', 'id', 'kind', 'link', 'read_at', 'title', 'updated_at']);
      assert.equal(told.kind, 'shared_with_you');
      assert.equal(told.title, `${dad.username} shared the album “Holiday 2026” with you`);
      assert.equal(told.link, `/albums/${album.id}`);
      assert.equal(told.read_at, null);
      assert.deepEqual(heard.payload.notification, told);
      // Nobody else hears of it: not Dad who shared it, not the teenager.
      assert.deepEqual((await notificationsOf(dad)).items, []);
      assert.deepEqual((await notificationsOf(teen)).items, []);
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(teenSocket.pending().filter((m) => m.type.startsWith('notification.')).length, 0);
      // Changing her role later is no new news.
      await invite(t, dad, album.id, mum, 'contributor');
      assert.equal((await notificationsOf(mum)).items.length, 1);
    } finally {
      mumSocket.ws.close();
      teenSocket.ws.close();
    }
  });

  test('a folder granted to Mum names it and links to it; a file links to Shared', async () => {
    const [dad, mum] = [await person(), await person()];
    const folder = await createFolder(t.client, dad, 'Recipes');
    const res = await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: mum.userId, role: 'viewer' }, { token: dad.access });
    assert.equal(res.status, 201);
    const photo = await uploadPhoto(t, dad, 'dog.jpg');
    assert.equal(
      (await t.client.post(`/nodes/${photo}/permissions`, { user_id: mum.userId, role: 'editor' }, { token: dad.access })).status,
      201,
    );
    const items = (await notificationsOf(mum)).items;
    assert.deepEqual(
      items.map((n) => [n.kind, n.title, n.link, n.body]),
      [
        ['shared_with_you', `${dad.username} shared “dog.jpg” with you`, '/shared', 'You can look at it and change it.'],
        ['shared_with_you', `${dad.username} shared “Recipes” with you`, `/files/${folder.id}`, 'You can look at it and download it.'],
      ],
    );
  });

  test('partner sharing turned on towards Mum tells her once; changing its first day tells nothing new', async () => {
    const [dad, mum] = [await person(), await person()];
    assert.equal((await t.client.post('/partner-shares', { user_id: mum.userId }, { token: dad.access })).status, 201);
    assert.equal((await t.client.post('/partner-shares', { user_id: mum.userId, since: '2020-01-01' }, { token: dad.access })).status, 201);
    const items = (await notificationsOf(mum)).items;
    assert.equal(items.length, 1);
    assert.equal(items[0].title, `${dad.username} is sharing their photos with you`);
    assert.equal(items[0].link, '/gallery');
    assert.deepEqual((await notificationsOf(dad)).items, []);
  });
});

describe('album_new_photos', () => {
  test("others' new photos in an album Mum is in: one notification for a burst, never for her own, never before she joined", async () => {
    const [dad, mum] = [await person(), await person()];
    const before1 = await uploadPhoto(t, dad, 'before.jpg');
    const album = await makeAlbum(t, dad, 'Garden', [before1]);
    await invite(t, dad, album.id, mum, 'contributor');
    const [p1, p2, p3] = [await uploadPhoto(t, dad, 'a.jpg'), await uploadPhoto(t, dad, 'b.jpg'), await uploadPhoto(t, dad, 'c.jpg')];
    await addToAlbum(t, dad, album.id, [p1]);
    await addToAlbum(t, dad, album.id, [p2, p3]);
    const mine = await uploadPhoto(t, mum, 'mums.jpg');
    await addToAlbum(t, mum, album.id, [mine]);

    const mumsPhotos = (await notificationsOf(mum)).items.filter((n) => n.kind === 'album_new_photos');
    assert.equal(mumsPhotos.length, 1);
    assert.equal(mumsPhotos[0].title, 'New photos in “Garden”');
    assert.equal(mumsPhotos[0].body, `${dad.username} added 3 photos.`);
    assert.equal(mumsPhotos[0].link, `/albums/${album.id}`);
    // Dad hears of Mum's one photo; his own are not news to him.
    const dads = (await notificationsOf(dad)).items;
    assert.deepEqual(
      dads.map((n) => [n.kind, n.body]),
      [['album_new_photos', `${mum.username} added a photo.`]],
    );
  });

  test("a photo the album does not show her (one Dad may read under the teenager's grant, not his to show) is not counted", async () => {
    const [dad, mum, teen] = [await person(), await person(), await person()];
    const album = await makeAlbum(t, dad, 'Mixed');
    await invite(t, dad, album.id, mum, 'viewer');
    const teensPhoto = await uploadPhoto(t, teen, 'teen.jpg');
    assert.equal(
      (await t.client.post(`/nodes/${teensPhoto}/permissions`, { user_id: dad.userId, role: 'viewer' }, { token: teen.access })).status,
      201,
    );
    await addToAlbum(t, dad, album.id, [teensPhoto]);
    assert.deepEqual(
      (await notificationsOf(mum)).items.filter((n) => n.kind === 'album_new_photos'),
      [],
    );
    await addToAlbum(t, dad, album.id, [await uploadPhoto(t, dad, 'dads.jpg')]);
    const told = (await notificationsOf(mum)).items.filter((n) => n.kind === 'album_new_photos');
    assert.equal(told.length, 1);
    assert.equal(told[0].body, `${dad.username} added a photo.`);
  });
});

describe('owners are told', () => {
  test('a phone waiting for approval: the owners, not the person waiting (who is no owner)', async () => {
    const kid = await person();
    await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    try {
      const waiting = await t.client.post('/auth/login', { username: kid.username, password: kid.password });
      assert.equal(waiting.status, 202);
      const told = (await notificationsOf(owner)).items.filter((n) => n.kind === 'device_waiting');
      assert.equal(told.length, 1);
      assert.equal(told[0].title, `${kid.username} is waiting to sign in`);
      assert.equal(told[0].link, '/console/devices');
      assert.deepEqual((await notificationsOf(kid)).items, []);
    } finally {
      await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
    }
  });

  test('a backup that failed: its owners are told why, members are not', async () => {
    const member = await person();
    const folder = destinationFolder();
    const dest = await addFolderDestination(t.client, owner.access, folder);
    fs.rmSync(folder, { recursive: true });
    const run = await finishedRun(t.client, owner.access, (await startRun(t.client, owner.access, dest.id)).id);
    assert.equal(run.state, 'failed');
    const told = (await notificationsOf(owner)).items.filter((n) => n.kind === 'backup_failed');
    assert.equal(told.length, 1);
    assert.equal(told[0].title, `The backup to “${dest.name}” did not finish`);
    assert.equal(told[0].body, run.error);
    assert.equal(told[0].link, '/console/backups');
    assert.deepEqual((await notificationsOf(member)).items, []);
    assert.equal((await t.client.delete(`/admin/backup/destinations/${dest.id}`, { token: owner.access })).status, 204);
  });
});

describe('settings and reading', () => {
  test('a kind turned off is not made (nor heard); the others still are; on again, it is', async () => {
    const [dad, mum] = [await person(), await person()];
    const initial = await t.client.get('/me/notification-settings', { token: mum.access });
    assert.equal(initial.status, 200);
    assert.deepEqual(initial.body.kinds, {
      shared_with_you: true,
      album_new_photos: true,
      device_waiting: true,
      backup_failed: true,
      backup_stale: true,
      phone_backup_stale: true,
    });
    const off = await putSettings(mum, { kinds: { shared_with_you: false } });
    assert.equal(off.status, 200);
    assert.equal(off.body.kinds.shared_with_you, false);
    assert.equal(off.body.kinds.album_new_photos, true);
    const album = await makeAlbum(t, dad, 'Quiet');
    await invite(t, dad, album.id, mum, 'viewer');
    assert.deepEqual((await notificationsOf(mum)).items, []);
    await addToAlbum(t, dad, album.id, [await uploadPhoto(t, dad, 'q.jpg')]);
    assert.deepEqual(
      (await notificationsOf(mum)).items.map((n) => n.kind),
      ['album_new_photos'],
    );
    // Dad's choice is his own.
    assert.equal((await t.client.get('/me/notification-settings', { token: dad.access })).body.kinds.shared_with_you, true);
    await putSettings(mum, { kinds: { shared_with_you: true } });
    await invite(t, dad, (await makeAlbum(t, dad, 'Loud')).id, mum, 'viewer');
    assert.equal((await notificationsOf(mum)).items[0].kind, 'shared_with_you');
  });

  test('read one, then all: the count follows; ids of another account change nothing; newest first with a cursor', async () => {
    const [dad, mum] = [await person(), await person()];
    for (const name of ['One', 'Two', 'Three']) await invite(t, dad, (await makeAlbum(t, dad, name)).id, mum, 'viewer');
    const page = await notificationsOf(mum);
    assert.deepEqual(
      page.items.map((n) => n.title.replace(/^.* album “(.*)”.*$/, '$1')),
      ['Three', 'Two', 'One'],
    );
    assert.equal(page.unread_count, 3);
    const first = await t.client.get('/notifications?limit=2', { token: mum.access });
    assert.equal(first.body.items.length, 2);
    const second = await t.client.get(`/notifications?limit=2&cursor=${first.body.next_cursor}`, { token: mum.access });
    assert.deepEqual(
      second.body.items.map((n: any) => n.id),
      [page.items[2].id],
    );
    assert.equal(second.body.next_cursor, null);

    const socket = await EventSocket.open(t.url, mum.access);
    try {
      const read = await t.client.post('/notifications/read', { ids: [page.items[1].id] }, { token: mum.access });
      assert.equal(read.status, 200);
      assert.deepEqual(read.body, { unread_count: 2 });
      assert.equal((await socket.waitFor((m) => m.type === 'notification.read')).payload.unread_count, 2);
    } finally {
      socket.ws.close();
    }
    const after1 = await notificationsOf(mum);
    assert.ok(after1.items[1].read_at !== null);
    assert.equal(after1.items[0].read_at, null);
    // Dad cannot mark Mum's read.
    assert.deepEqual((await t.client.post('/notifications/read', { ids: [page.items[0].id] }, { token: dad.access })).body, {
      unread_count: 0,
    });
    assert.equal((await notificationsOf(mum)).unread_count, 2);
    assert.deepEqual((await t.client.post('/notifications/read', { all: true }, { token: mum.access })).body, { unread_count: 0 });
    assert.equal((await notificationsOf(mum)).items.filter((n) => n.read_at === null).length, 0);
  });

  test('bad input answers the envelope with a code', async () => {
    const mum = await person();
    assertError(await t.client.get('/notifications'), 401, 'unauthorized');
    assertError(await t.client.get('/notifications?cursor=bm9wZQ', { token: mum.access }), 400, 'invalid_cursor');
    assertError(await t.client.get('/notifications?limit=0', { token: mum.access }), 400, 'invalid_input');
    badRequest(await t.client.post('/notifications/read', {}, { token: mum.access }));
    badRequest(await t.client.post('/notifications/read', { ids: [] }, { token: mum.access }));
    badRequest(await t.client.post('/notifications/read', { all: false }, { token: mum.access }));
    badRequest(await putSettings(mum, { kinds: { nonsense: true } }));
    badRequest(await putSettings(mum, { kinds: { shared_with_you: 'no' } }));
  });
});

function putSettings(who: SignedIn, body: unknown) {
  return t.client.request('PUT', '/me/notification-settings', { token: who.access, body });
}

/** 400 with the envelope and one of the input codes. */
function badRequest(res: { status: number; body: any }): void {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.ok(['invalid_input', 'missing_field'].includes(res.body?.error?.code), JSON.stringify(res.body));
}
