/**
 * A person's faces (GET /people/{id}/faces): one for each photo they are in, with the photo's
 * name, its turn and where the face is, so the family can spot one that is not them and move it out. A
 * face moved out, or a photo in the trash, leaves the list; another account's person is 404.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/faces');
const PHOTOS = ['franck-01829.jpg', 'franck-02683.jpg', 'franck-04117.jpg', 'cage-1.jpg'];

let t: TestServer;
let mum: SignedIn;
let neighbour: SignedIn;
const idOf = new Map<string, string>();

async function ok(method: string, route: string, as: SignedIn, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: as.access, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function allFaces(personId: string, limit: number): Promise<any[]> {
  const faces: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await ok('GET', `/people/${personId}/faces?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, mum);
    faces.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return faces;
}

before(async () => {
  t = await startTestServer({ findFaces: true });
  const owner = await setupOwner(t.client);
  mum = await createMember(t.client, owner, 'mum');
  neighbour = await createMember(t.client, owner, 'neighbour');
  for (const name of PHOTOS) {
    idOf.set(name, await uploadFile(t.api, mum.access, await fs.readFile(path.join(FACES, name)), { filename: name }));
  }
  await t.server.mediaIdle();
  await t.server.facesIdle();
});
after(() => t.close());

test("a person's faces are listed with their photos' names and boxes, paged by cursor", async () => {
  const franck = (await ok('GET', '/people', mum)).items[0];
  assert.equal(franck.photo_count, 3);
  const faces = await allFaces(franck.id, 2);
  assert.deepEqual(faces.map((f) => f.name).sort(), PHOTOS.filter((n) => n.startsWith('franck')).sort());
  for (const face of faces) {
    assert.equal(face.node_id, idOf.get(face.name));
    assert.equal(typeof face.version, 'number');
    for (const v of Object.values(face.box) as number[]) assert.ok(v >= 0 && v <= 1);
  }
  assertError(await t.client.get(`/people/${franck.id}/faces?cursor=nonsense`, { token: mum.access }), 400, 'invalid_cursor');
});

test('a photo the family turned says so: its thumbnail comes turned, and its face keeps its box on the photo unturned', async () => {
  const franck = (await ok('GET', '/people', mum)).items[0];
  const id = idOf.get('franck-01829.jpg')!;
  const before = (await allFaces(franck.id, 100)).find((f) => f.node_id === id);
  assert.equal(before.rotation, 0);
  await ok('PATCH', `/photos/${id}/edits`, mum, { rotation: 90 });
  await t.server.facesIdle();
  const after = (await allFaces(franck.id, 100)).find((f) => f.node_id === id);
  assert.equal(after.rotation, 90);
  assert.deepEqual(after.box, before.box);
  const people = await ok('GET', '/people', mum);
  for (const person of people.items) {
    assert.equal(person.cover.rotation, person.cover.node_id === id ? 90 : 0);
  }
  await ok('PATCH', `/photos/${id}/edits`, mum, { rotation: 0 });
});

test('a face moved out, or a photo in the trash, leaves the list', async () => {
  const franck = (await ok('GET', '/people', mum)).items[0];
  const faces = await allFaces(franck.id, 100);
  const wrong = faces.find((f) => f.name === 'franck-04117.jpg');
  await ok('DELETE', `/people/${franck.id}/faces/${wrong.id}`, mum);
  await ok('DELETE', `/nodes/${idOf.get('franck-02683.jpg')}`, mum);
  assert.deepEqual(
    (await allFaces(franck.id, 100)).map((f) => f.name),
    ['franck-01829.jpg'],
  );
});

test("another account's person is 404, and signing in is needed", async () => {
  const theirs = (await ok('GET', '/people', mum)).items[0];
  assertError(await t.client.get(`/people/${theirs.id}/faces`, { token: neighbour.access }), 404, 'not_found');
  assertError(await t.client.get('/people/no-such-person/faces', { token: mum.access }), 404, 'not_found');
  assert.equal((await t.client.get(`/people/${theirs.id}/faces`)).status, 401);
});
