import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { albumItems, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { readZip } from '../../helpers/zip.ts';

// A photo moved into Mum's Private folder is hers alone, and hers only while she has it open:
// every list, route, link, zip, album, partner view and event tried here, as each person who
// could see it before (her son through a shared folder, Dad as her partner, Gran in an album,
// anyone with the folder's link) and as Mum herself while it is locked.

let t: TestServer;
let mum: SignedIn;
let dad: SignedIn;
let son: SignedIn;
let gran: SignedIn;
let holidaysId: string;
let secretId: string;
let albumId: string;
let linkToken: string;
let privateId: string;
const sockets: Record<string, EventSocket> = {};

const MAY = '2023:05:10 10:00:00';

async function ok(who: SignedIn, method: string, route: string, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function refused(who: SignedIn | null, method: string, route: string, status: number, code: string, body?: unknown): Promise<void> {
  const res = await t.client.request(method, route, { ...(who && { token: who.access }), ...(body !== undefined && { body }) });
  assert.equal(res.status, status, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  assert.equal(res.body?.error?.code, code, `${method} ${route}`);
}

/** Every name a timeline lists, month by month, as the app asks (mine or the family's; with a search). */
async function timeline(who: SignedIn, scope: 'mine' | 'family', q?: string): Promise<string[]> {
  const extra = `${scope === 'family' ? '&scope=family' : ''}${q ? `&q=${q}` : ''}`;
  const months = (await ok(who, 'GET', `/nodes/gallery/months?x=1${extra}`)).items as { month: string }[];
  const names: string[] = [];
  for (const { month } of months) {
    names.push(...(await ok(who, 'GET', `/nodes?filter=gallery&month=${month}&limit=1000${extra}`)).items.map((n: any) => n.name));
  }
  return names;
}

async function names(who: SignedIn, route: string): Promise<string[]> {
  return (await ok(who, 'GET', route)).items.map((n: any) => n.name);
}

async function zipNames(who: SignedIn, ids: string[]): Promise<string[]> {
  const ticket = await ok(who, 'POST', '/downloads', { node_ids: ids });
  const res = await fetch(`${t.url}${ticket.url}`);
  assert.equal(res.status, 200);
  return (await readZip(Buffer.from(await res.arrayBuffer()))).map((e) => e.name);
}

async function fetchAs(who: SignedIn, route: string): Promise<{ status: number; code: string | undefined }> {
  const res = await fetch(t.api + route, { headers: { authorization: `Bearer ${who.access}` } });
  const text = Buffer.from(await res.arrayBuffer()).toString();
  const code = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text).error?.code : undefined;
  return { status: res.status, code };
}

before(async () => {
  t = await startTestServer();
  const admin = await setupOwner(t.client);
  mum = await createMember(t.client, admin, 'mum');
  dad = await createMember(t.client, admin, 'dad');
  son = await createMember(t.client, admin, 'son');
  gran = await createMember(t.client, admin, 'gran');
  holidaysId = (await createFolder(t.client, mum, 'Holidays')).id;
  secretId = await uploadPhoto(t, mum, 'secret.jpg', { when: MAY, parentId: holidaysId });
  await uploadPhoto(t, mum, 'beach.jpg', { when: MAY, parentId: holidaysId });
  await t.server.mediaIdle();
  await ok(mum, 'POST', `/nodes/${holidaysId}/permissions`, { user_id: son.userId, role: 'editor' });
  await ok(mum, 'POST', '/partner-shares', { user_id: dad.userId });
  albumId = (await makeAlbum(t, mum, 'Summer', [secretId])).id;
  await invite(t, mum, albumId, gran, 'viewer');
  linkToken = (await ok(mum, 'POST', `/nodes/${holidaysId}/share`, {})).token;
  await ok(son, 'POST', `/nodes/${secretId}/star`);
  for (const [name, who] of Object.entries({ mum, dad, son, gran })) sockets[name] = await EventSocket.open(t.url, who.access);

  // Before: each of them sees it, so each check below could fail.
  assert.ok((await timeline(mum, 'mine')).includes('secret.jpg'));
  assert.ok((await timeline(dad, 'family')).includes('secret.jpg'));
  assert.ok((await timeline(son, 'family')).includes('secret.jpg'));
  assert.ok((await names(son, '/nodes?filter=starred')).includes('secret.jpg'));
  assert.ok((await albumItems(t, gran, albumId)).some((i: any) => i.node?.id === secretId || i.id === secretId));
  assert.ok((await t.client.get(`/s/${linkToken}/children`)).body.items.some((n: any) => n.id === secretId));
  assert.ok((await zipNames(mum, [holidaysId])).some((name) => name.endsWith('secret.jpg')));

  const moved = await ok(mum, 'POST', `/nodes/${secretId}/private`);
  assert.equal(moved.name, 'secret.jpg');
  privateId = (await ok(mum, 'GET', '/private')).folder_id;
  assert.equal(moved.parent_id, privateId);
});
after(async () => {
  for (const socket of Object.values(sockets)) socket.ws.close();
  await t.close();
});

describe('while locked, Mum herself', () => {
  test('her Photos, her search, Recent and My files do not show it, nor the Private folder', async () => {
    assert.ok(!(await timeline(mum, 'mine')).includes('secret.jpg'));
    assert.ok(!(await timeline(mum, 'family')).includes('secret.jpg'));
    assert.ok(!(await timeline(mum, 'mine', 'secret')).includes('secret.jpg'));
    assert.ok(!(await names(mum, '/nodes?query=secret')).includes('secret.jpg'));
    assert.ok(!(await names(mum, '/nodes?filter=recent')).includes('secret.jpg'));
    const top = await ok(mum, 'GET', '/nodes');
    assert.deepEqual(
      top.items.map((n: any) => n.name),
      ['Holidays'],
    );
    assert.ok(!(await names(mum, `/nodes?parent_id=${holidaysId}`)).includes('secret.jpg'));
  });

  test('the photo, its folder, its thumbnail, preview and bytes answer 403 private_locked', async () => {
    await refused(mum, 'GET', `/nodes/${secretId}`, 403, 'private_locked');
    await refused(mum, 'GET', `/nodes?parent_id=${privateId}`, 403, 'private_locked');
    await refused(mum, 'POST', `/nodes/${secretId}/access-token`, 403, 'private_locked');
    for (const route of [`/nodes/${secretId}/thumbnail`, `/nodes/${secretId}/preview`, `/nodes/${secretId}/download`]) {
      assert.deepEqual(await fetchAs(mum, route), { status: 403, code: 'private_locked' }, route);
    }
    await refused(mum, 'POST', '/downloads', 403, 'private_locked', { node_ids: [secretId] });
  });

  test('the zip of the folder it came from leaves it out', async () => {
    const entries = await zipNames(mum, [holidaysId]);
    assert.ok(entries.some((name) => name.endsWith('beach.jpg')));
    assert.ok(!entries.some((name) => name.includes('secret')));
  });
});

describe('everyone else, locked or not', () => {
  test('her son (the folder was shared with him): not in the folder, Shared, Starred, Everyone’s or search; the photo is 404', async () => {
    await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    const seen = await names(son, `/nodes?parent_id=${holidaysId}`);
    assert.deepEqual(seen, ['beach.jpg']);
    assert.ok(!(await names(son, '/nodes?filter=starred')).includes('secret.jpg'));
    assert.ok(!(await timeline(son, 'family')).includes('secret.jpg'));
    assert.ok(!(await timeline(son, 'family', 'secret')).includes('secret.jpg'));
    for (const route of [`/nodes/${secretId}`, `/nodes/${privateId}`, `/nodes?parent_id=${privateId}`])
      await refused(son, 'GET', route, 404, 'not_found');
    for (const route of [`/nodes/${secretId}/thumbnail`, `/nodes/${secretId}/download`, `/nodes/${secretId}/preview`]) {
      assert.equal((await fetchAs(son, route)).status, 404, route);
    }
    await refused(son, 'POST', '/downloads', 404, 'not_found', { node_ids: [secretId] });
    // An editor cannot move it back out, nor put something of his in.
    await refused(son, 'DELETE', `/nodes/${secretId}/private`, 404, 'not_found');
    await refused(son, 'PATCH', `/nodes/${secretId}`, 404, 'not_found', { parent_id: holidaysId });
    await refused(son, 'GET', `/nodes/${secretId}/permissions`, 404, 'not_found');
  });

  test('Dad, her partner: not in Everyone’s, the photo is 404', async () => {
    assert.ok((await timeline(dad, 'family')).includes('beach.jpg'));
    assert.ok(!(await timeline(dad, 'family')).includes('secret.jpg'));
    await refused(dad, 'GET', `/nodes/${secretId}`, 404, 'not_found');
    assert.equal((await fetchAs(dad, `/nodes/${secretId}/thumbnail`)).status, 404);
  });

  test('Gran, in the album: the album no longer holds it, and Mum cannot put it back (404)', async () => {
    assert.equal((await albumItems(t, gran, albumId)).length, 0);
    assert.equal((await albumItems(t, mum, albumId)).length, 0);
    await refused(gran, 'GET', `/nodes/${secretId}`, 404, 'not_found');
    const res = await t.client.post(`/albums/${albumId}/items`, { node_ids: [secretId] }, { token: mum.access });
    assert.equal(res.status, 404, JSON.stringify(res.body));
  });

  test('the link to the folder it came from: not listed, not served', async () => {
    const listed = (await t.client.get(`/s/${linkToken}/children`)).body.items.map((n: any) => n.name);
    assert.deepEqual(listed, ['beach.jpg']);
    for (const route of [`/s/${linkToken}/download?node_id=${secretId}`, `/s/${linkToken}/thumbnail?node_id=${secretId}`]) {
      assert.equal((await t.client.get(route)).status, 404, route);
    }
  });

  test('no one is told of it: a photo added to Private while an album and a grant showed it makes no notification, and none names it', async () => {
    // Gran was told of the album's photos and the son of the folder before the move; after it,
    // photos added in Private (where no grant or album reaches) tell no one anything.
    await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    await uploadPhoto(t, mum, 'hidden-note.jpg', { when: MAY, parentId: privateId });
    await t.server.mediaIdle();
    for (const [name, who] of Object.entries({ mum, dad, son, gran })) {
      const told = JSON.stringify((await ok(who, 'GET', '/notifications?limit=100')).items);
      assert.ok(!told.includes('hidden-note') && !told.includes(privateId), `${name} was told: ${told.slice(0, 300)}`);
    }
    await ok(mum, 'POST', '/private/lock');
  });

  test('nothing in Private can be shared: a grant or a link on it, or on the folder, is 404', async () => {
    await refused(mum, 'POST', `/nodes/${secretId}/permissions`, 404, 'not_found', { user_id: son.userId, role: 'viewer' });
    await refused(mum, 'POST', `/nodes/${secretId}/share`, 404, 'not_found', {});
    await refused(mum, 'POST', `/nodes/${privateId}/share`, 404, 'not_found', {});
    await refused(mum, 'POST', `/nodes/${privateId}/permissions`, 404, 'not_found', { user_id: son.userId, role: 'viewer' });
  });

  test('what happens in Private reaches no one’s events, Mum’s included; the move itself told the others only that it left', async () => {
    await ok(mum, 'POST', '/private/unlock', { password: mum.password });
    await ok(mum, 'PATCH', `/nodes/${secretId}`, { name: 'secret-renamed.jpg' });
    const diaryId = await uploadPhoto(t, mum, 'diary.jpg', { when: MAY, parentId: privateId });
    await ok(mum, 'DELETE', `/nodes/${diaryId}`);
    // Something the others do hear, so their inboxes are up to date when read.
    await createFolder(t.client, mum, 'After', holidaysId);
    await sockets.son!.waitFor((m) => m.type === 'node.created' && m.payload.node.name === 'After');
    await sleep(300);
    for (const [name, socket] of Object.entries(sockets)) {
      const told = JSON.stringify(socket.pending());
      assert.ok(
        !told.includes('secret-renamed') && !told.includes('diary') && !told.includes(privateId),
        `${name} heard: ${told.slice(0, 500)}`,
      );
      for (const m of socket.pending().filter((m) => JSON.stringify(m).includes(secretId))) {
        // Only the node leaving, as they knew it: never where it went.
        assert.equal(m.type, 'node.deleted', `${name}: ${JSON.stringify(m)}`);
        assert.notEqual(m.payload.node.parent_id, privateId);
      }
    }
    // Mum's trash names what she trashed in Private only while it is open.
    assert.ok((await names(mum, '/trash')).includes('diary.jpg'));
    await ok(mum, 'POST', '/private/lock');
    assert.ok(!(await names(mum, '/trash')).includes('diary.jpg'));
    const activity = JSON.stringify(await ok(mum, 'GET', '/activity?limit=100'));
    assert.ok(!activity.includes('diary') && !activity.includes('secret-renamed'), activity.slice(0, 500));
  });
});
