/**
 * Things: real photos (server/test/fixtures/things, from @stdlib's public-domain image packages)
 * are looked at for things in the face finder's pass; "boat", "boats" or "ship" in Photos' search
 * finds the photo of boats, and not the others. Someone who cannot see a photo never finds it by
 * a thing (their own gallery, their family timeline); an album member finds it in the family
 * timeline, as the gallery shows it there. A photo in Private is never looked at.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum } from '../../helpers/albums.ts';
import { openConnection } from '../../../src/store/database/db.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures');

let t: TestServer;
let mum: SignedIn;
let neighbour: SignedIn;
let boats: string;
let privateBoats: string;

async function ok(method: string, route: string, as: SignedIn, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: as.access, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The names of the photos a search finds, month by month, as Photos lists them. */
async function search(q: string, as: SignedIn, scope: 'mine' | 'family' = 'mine'): Promise<string[]> {
  const query = `q=${encodeURIComponent(q)}${scope === 'family' ? '&scope=family' : ''}`;
  const months = await ok('GET', `/nodes/gallery/months?${query}`, as);
  const names: string[] = [];
  for (const month of months.items) {
    const page = await ok('GET', `/nodes?filter=gallery&month=${month.month}&${query}&limit=1000`, as);
    names.push(...page.items.map((n: any) => n.name));
  }
  return names.sort();
}

/** What the database holds about a photo's things (nothing of it leaves the server otherwise). */
function thingRows(nodeId: string): { things: unknown[]; scans: unknown[] } {
  const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true });
  try {
    return {
      things: db.prepare('SELECT label FROM things WHERE node_id = ?').all(nodeId),
      scans: db.prepare('SELECT * FROM thing_scans WHERE node_id = ?').all(nodeId),
    };
  } finally {
    db.close();
  }
}

before(async () => {
  t = await startTestServer({ findFaces: true });
  const owner = await setupOwner(t.client);
  mum = await createMember(t.client, owner, 'mum');
  neighbour = await createMember(t.client, owner, 'neighbour');
  const upload = async (file: string, name: string, parentId?: string) =>
    uploadFile(t.api, mum.access, await fs.readFile(path.join(FIXTURES, file)), { filename: name, ...(parentId && { parentId }) });
  boats = await upload('things/nagasaki-boats.jpg', 'harbour.jpg');
  await upload('things/airplane-from-above.jpg', 'flight.jpg');
  await upload('faces/franck-01829.jpg', 'uncle.jpg');
  await ok('POST', '/private/unlock', mum, { password: mum.password });
  const folder = (await ok('GET', '/private', mum)).folder_id as string;
  privateBoats = await upload('things/nagasaki-boats.jpg', 'secret-harbour.jpg', folder);
  await t.server.mediaIdle();
  await t.server.facesIdle();
});
after(() => t.close());

describe('things found in photos, searched by name', () => {
  test('"boat", "boats" and "ship" find the photo of boats, and nothing else', async () => {
    assert.deepEqual(await search('boat', mum), ['harbour.jpg']);
    assert.deepEqual(await search('Boats', mum), ['harbour.jpg']);
    assert.deepEqual(await search('ship', mum), ['harbour.jpg']);
  });

  test('a thing that is in none of the photos finds nothing', async () => {
    for (const word of ['dog', 'cats', 'car', 'bike', 'horse', 'bird']) assert.deepEqual(await search(word, mum), [], word);
  });

  test('only a whole word names a thing: "boa" finds nothing', async () => {
    assert.deepEqual(await search('boa', mum), []);
  });

  test('someone who cannot see the photo never finds it by a thing', async () => {
    assert.deepEqual(await search('boat', neighbour), []);
    assert.deepEqual(await search('boat', neighbour, 'family'), []);
  });

  test('an album member finds the shared photo in the family timeline, and only that one', async () => {
    const album = await makeAlbum(t, mum, 'Harbour', [boats]);
    await invite(t, mum, album.id, neighbour, 'viewer');
    assert.deepEqual(await search('boats', neighbour, 'family'), ['harbour.jpg']);
    assert.deepEqual(await search('boats', neighbour), [], 'not in their own photos');
  });

  test('a photo in Private is never looked at for things', async () => {
    assert.deepEqual(thingRows(privateBoats), { things: [], scans: [] });
    assert.deepEqual(await search('boat', mum), ['harbour.jpg']);
  });

  test('a photo moved into Private loses its things, and is not found by them', async () => {
    assert.deepEqual([...new Set(thingRows(boats).things.map((r: any) => r.label))], ['boat']);
    await ok('POST', `/nodes/${boats}/private`, mum);
    await t.server.facesIdle();
    assert.deepEqual(thingRows(boats), { things: [], scans: [] });
    assert.deepEqual(await search('boat', mum), []);
  });
});
