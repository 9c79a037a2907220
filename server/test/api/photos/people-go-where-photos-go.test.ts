/**
 * Whose people: each account names the faces in its own photos, and a name goes only where the
 * photo goes. Dad names Grandma (real photos of faces: server/test/fixtures/faces). Mum, his
 * partner, sees "Grandma" in the faces of his photos and finds them by searching her name; Aunt,
 * in his album, and Uncle, given his Family folder, see and find only the photos they were
 * shown; Kid, given nothing, learns nothing: every photo is 404, every list and search is empty,
 * and no event reaches her socket. A link's visitor gets no faces; a hidden person's name and an
 * unnamed face stay Dad's; a photo moved into Private shows nothing to anyone else.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/faces');

let t: TestServer;
let admin: SignedIn;
let dad: SignedIn;
let mum: SignedIn;
let aunt: SignedIn;
let uncle: SignedIn;
let kid: SignedIn;
let familyFolder: string;
const id: Record<string, string> = {};
const sockets = new Map<SignedIn, EventSocket>();
let grandma: string;
let justin: string;

async function ok(method: string, route: string, as: SignedIn, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: as.access, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The names of what a search finds in the account's Photos, in the family timeline or its own. */
async function found(q: string, as: SignedIn, scope: 'family' | 'mine' = 'family'): Promise<string[]> {
  const query = `q=${encodeURIComponent(q)}&scope=${scope}`;
  const months = await ok('GET', `/nodes/gallery/months?${query}`, as);
  const names: string[] = [];
  for (const month of months.items) {
    const page = await ok('GET', `/nodes?filter=gallery&month=${month.month}&${query}&limit=1000`, as);
    names.push(...page.items.map((n: any) => n.name));
  }
  return names.sort();
}

async function upload(name: string, parentId?: string): Promise<void> {
  const data = await fs.readFile(path.join(FACES, name));
  id[name] = await uploadFile(t.api, dad.access, data, { filename: name, ...(parentId && { parentId }) });
}

/** An event every account hears: what a socket got before it is everything it was sent. */
async function everyoneHeard(mark: string): Promise<Map<SignedIn, EventMessage[]>> {
  const res = await t.client.patch('/server/settings', { server_name: mark }, { token: admin.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const heard = new Map<SignedIn, EventMessage[]>();
  for (const [who, socket] of sockets) {
    heard.set(who, await socket.until((m) => m.type === 'server.settings_changed' && m.payload.settings.server_name === mark, 10_000));
  }
  return heard;
}

const facesNews = (messages: EventMessage[]) => messages.filter((m) => m.type === 'photo.faces' || m.type === 'people.changed');
const photosTold = (messages: EventMessage[]) =>
  [...new Set(messages.filter((m) => m.type === 'photo.faces').flatMap((m) => m.payload.node_ids as string[]))].sort();
const ids = (...names: string[]) => names.map((n) => id[n]!).sort();

before(async () => {
  t = await startTestServer({ findFaces: true });
  admin = await setupOwner(t.client);
  dad = await createMember(t.client, admin, 'dad');
  mum = await createMember(t.client, admin, 'mum');
  aunt = await createMember(t.client, admin, 'aunt');
  uncle = await createMember(t.client, admin, 'uncle');
  kid = await createMember(t.client, admin, 'kid');
  // Dad shares before his photos come: his partner Mum, and his Family folder with Uncle.
  familyFolder = (await ok('POST', '/nodes/folder', dad, { name: 'Family' })).id;
  await ok('POST', `/nodes/${familyFolder}/permissions`, dad, { user_id: uncle.userId, role: 'viewer' });
  await ok('POST', '/partner-shares', dad, { user_id: mum.userId });
  for (const who of [dad, mum, aunt, uncle, kid]) sockets.set(who, await EventSocket.open(t.url, who.access));

  for (const name of ['franck-01829.jpg', 'cage-1.jpg', 'bieber-1.jpg']) await upload(name, familyFolder);
  for (const name of ['franck-02683.jpg', 'franck-04117.jpg', 'bieber-2.jpg']) await upload(name);
  await t.server.mediaIdle();
  await t.server.facesIdle();
  const album = await makeAlbum(t, dad, 'Seaside', [id['franck-02683.jpg']!, id['bieber-2.jpg']!]);
  await invite(t, dad, album.id, aunt, 'viewer');
});
after(async () => {
  for (const socket of sockets.values()) socket.close();
  await t.close();
});

describe('faces found', () => {
  test("Dad's People hears as his photos' faces are found, Mum hears of each of his photos with faces, Uncle of the Family folder's, and Kid of nothing", async () => {
    const heard = await everyoneHeard('faces found');
    const dadsPeople = heard.get(dad)!.filter((m) => m.type === 'people.changed');
    assert.ok(dadsPeople.length >= 6, `one people.changed a photo, got ${dadsPeople.length}`);
    assert.ok(dadsPeople.some((m) => m.payload.person_ids.length > 0));
    const all = Object.keys(id);
    assert.deepEqual(photosTold(heard.get(dad)!), ids(...all));
    assert.deepEqual(photosTold(heard.get(mum)!), ids(...all));
    assert.deepEqual(photosTold(heard.get(uncle)!), ids('franck-01829.jpg', 'cage-1.jpg', 'bieber-1.jpg'));
    for (const who of [mum, uncle, aunt, kid])
      assert.deepEqual(
        heard.get(who)!.filter((m) => m.type === 'people.changed'),
        [],
        'people are Dad’s own',
      );
    assert.deepEqual(facesNews(heard.get(kid)!), []);
    assert.deepEqual(facesNews(heard.get(aunt)!), [], 'the album came after the faces');
  });
});

describe('Dad names Grandma: the name goes where the photos go', () => {
  before(async () => {
    grandma = (await ok('GET', `/photos/${id['franck-01829.jpg']}/faces`, dad)).items[0].person_id;
    justin = (await ok('GET', `/photos/${id['bieber-1.jpg']}/faces`, dad)).items[0].person_id;
    await everyoneHeard('before naming');
    await ok('PATCH', `/people/${grandma}`, dad, { name: 'Grandma Rose' });
  });

  test('the owner hears people.changed; each account that sees a photo of hers hears photo.faces for those photos alone; Kid hears nothing', async () => {
    const heard = await everyoneHeard('named');
    assert.deepEqual(
      heard
        .get(dad)!
        .filter((m) => m.type === 'people.changed')
        .map((m) => m.payload.person_ids),
      [[grandma]],
    );
    const hers = ids('franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg');
    assert.deepEqual(photosTold(heard.get(dad)!), hers);
    assert.deepEqual(photosTold(heard.get(mum)!), hers);
    assert.deepEqual(photosTold(heard.get(aunt)!), ids('franck-02683.jpg'));
    assert.deepEqual(photosTold(heard.get(uncle)!), ids('franck-01829.jpg'));
    assert.deepEqual(facesNews(heard.get(kid)!), []);
    assert.ok(!JSON.stringify(heard.get(kid)).includes(id['franck-04117.jpg']!));
  });

  test("Mum, his partner, sees Grandma's name in his photos' faces (no person id: his People is his), and finds all three by searching it", async () => {
    for (const name of ['franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg']) {
      const faces = await ok('GET', `/photos/${id[name]}/faces`, mum);
      assert.equal(faces.items.length, 1, name);
      assert.equal(faces.items[0].name, 'Grandma Rose');
      assert.equal(faces.items[0].person_id, null);
      for (const v of Object.values(faces.items[0].box) as number[]) assert.ok(v >= 0 && v <= 1);
    }
    assert.deepEqual(await found('grandma', mum), ['franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg']);
    assert.deepEqual(await found('grandma', mum, 'mine'), [], 'none of them is hers');
    assertError(await t.client.get(`/people/${grandma}`, { token: mum.access }), 404, 'not_found');
    assertError(await t.client.get(`/people/${grandma}/photos`, { token: mum.access }), 404, 'not_found');
    assert.deepEqual((await ok('GET', '/people', mum)).items, []);
  });

  test('an unnamed face stays Dad’s: others see no box for it, he sees it with its person', async () => {
    assert.deepEqual((await ok('GET', `/photos/${id['cage-1.jpg']}/faces`, mum)).items, []);
    const his = (await ok('GET', `/photos/${id['cage-1.jpg']}/faces`, dad)).items;
    assert.equal(his.length, 1);
    assert.equal(his[0].name, null);
    assert.ok(his[0].person_id);
  });

  test("Aunt, in his album, sees and finds Grandma in the album's photo only; his other photos are 404 to her", async () => {
    assert.equal((await ok('GET', `/photos/${id['franck-02683.jpg']}/faces`, aunt)).items[0].name, 'Grandma Rose');
    assertError(await t.client.get(`/photos/${id['franck-04117.jpg']}/faces`, { token: aunt.access }), 404, 'not_found');
    assertError(await t.client.get(`/photos/${id['franck-01829.jpg']}/faces`, { token: aunt.access }), 404, 'not_found');
    assert.deepEqual(await found('grandma', aunt), ['franck-02683.jpg']);
  });

  test("Uncle, given the Family folder, sees and finds Grandma in the folder's photo only", async () => {
    assert.equal((await ok('GET', `/photos/${id['franck-01829.jpg']}/faces`, uncle)).items[0].name, 'Grandma Rose');
    assertError(await t.client.get(`/photos/${id['franck-02683.jpg']}/faces`, { token: uncle.access }), 404, 'not_found');
    assert.deepEqual(await found('grandma', uncle), ['franck-01829.jpg']);
    assert.deepEqual(await found('rose', uncle), ['franck-01829.jpg']);
  });

  test('Kid, shown nothing, learns nothing: every photo is 404, People, the person and every search and timeline are empty', async () => {
    const as = { token: kid.access };
    for (const photo of Object.values(id)) assertError(await t.client.get(`/photos/${photo}/faces`, as), 404, 'not_found');
    assert.deepEqual(await ok('GET', '/people', kid), { items: [], progress: { waiting: 0, done: 0 } }, 'not even how many photos Dad has');
    assertError(await t.client.get(`/people/${grandma}`, as), 404, 'not_found');
    assertError(await t.client.get(`/people/${grandma}/photos`, as), 404, 'not_found');
    assert.deepEqual(await found('grandma', kid), []);
    assert.deepEqual(await found('grandma', kid, 'mine'), []);
    assert.deepEqual((await ok('GET', '/nodes/gallery/months?scope=family', kid)).items, []);
    assert.deepEqual((await ok('GET', '/nodes?filter=gallery&scope=family', kid)).items, []);
    assert.equal((await t.client.get(`/photos/${id['franck-01829.jpg']}/faces`)).status, 401);
  });

  test("a link's visitor gets no faces: the link's pages carry no name, and the faces of its photo need an account", async () => {
    const link = await ok('POST', `/nodes/${familyFolder}/share`, dad, {});
    for (const route of [`/s/${link.token}`, `/s/${link.token}/children`]) {
      const res = await fetch(`${t.api}${route}`);
      assert.equal(res.status, 200, route);
      const body = await res.text();
      assert.ok(body.includes('franck-01829.jpg') || route.endsWith(link.token), route);
      assert.ok(!/grandma|rose|faces/i.test(body), `${route} says nothing of who is in the photos`);
    }
    const res = await fetch(`${t.api}/photos/${id['franck-01829.jpg']}/faces?token=${link.token}`);
    assert.equal(res.status, 401);
  });
});

describe('hidden, and Private', () => {
  test("a hidden person's name is not shared: no box for others, not found by it; back when Dad shows them again", async () => {
    await ok('PATCH', `/people/${justin}`, dad, { name: 'Justin' });
    assert.equal((await ok('GET', `/photos/${id['bieber-2.jpg']}/faces`, aunt)).items[0].name, 'Justin');
    await everyoneHeard('before hiding');
    await ok('PATCH', `/people/${justin}`, dad, { hidden: true });
    const heard = await everyoneHeard('hidden');
    assert.deepEqual(photosTold(heard.get(aunt)!), ids('bieber-2.jpg'), 'the album’s screen hears the name went');
    assert.deepEqual(facesNews(heard.get(kid)!), []);
    for (const [who, photo] of [
      [mum, 'bieber-1.jpg'],
      [mum, 'bieber-2.jpg'],
      [aunt, 'bieber-2.jpg'],
      [uncle, 'bieber-1.jpg'],
    ] as const) {
      assert.deepEqual((await ok('GET', `/photos/${id[photo]}/faces`, who)).items, [], `${photo}`);
    }
    assert.deepEqual(await found('justin', mum), []);
    assert.deepEqual(await found('justin', aunt), []);
    assert.equal((await ok('GET', `/photos/${id['bieber-1.jpg']}/faces`, dad)).items[0].name, 'Justin', 'his own still shows him');
    await ok('PATCH', `/people/${justin}`, dad, { hidden: false });
    assert.deepEqual(await found('justin', mum), ['bieber-1.jpg', 'bieber-2.jpg']);
  });

  test('a photo Dad moves into Private shows its faces to nobody else, is found by nobody, and its move is told to nobody else', async () => {
    const photo = id['franck-04117.jpg']!;
    await ok('POST', '/private/unlock', dad, { password: dad.password });
    await everyoneHeard('before private');
    await ok('POST', `/nodes/${photo}/private`, dad);
    await t.server.facesIdle();
    const heard = await everyoneHeard('private');
    assert.deepEqual(
      heard
        .get(dad)!
        .filter((m) => m.type === 'people.changed')
        .map((m) => m.payload.person_ids),
      [[grandma]],
    );
    for (const who of [mum, aunt, uncle, kid]) assert.deepEqual(facesNews(heard.get(who)!), []);
    assertError(await t.client.get(`/photos/${photo}/faces`, { token: mum.access }), 404, 'not_found');
    assert.deepEqual(await found('grandma', mum), ['franck-01829.jpg', 'franck-02683.jpg']);
    assert.equal((await ok('GET', `/people/${grandma}`, dad)).photo_count, 2);
  });
});
