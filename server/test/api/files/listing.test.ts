import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Actor, ServiceDeps } from '../../../src/services/common/context.ts';
import { AccessService } from '../../../src/services/files/access.ts';
import { ListingService, type ListInput } from '../../../src/services/files/listing.ts';
import { galleryFilters } from '../../../src/services/photos/gallery.ts';
import type { SettingsService } from '../../../src/services/server/settings.ts';
import { GalleryRepo } from '../../../src/store/database/gallery.repo.ts';
import { NodesRepo } from '../../../src/store/database/nodes.repo.ts';
import { openConnection } from '../../../src/store/database/db.ts';
import type { Store } from '../../../src/store/index.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';
import { assertError } from '../../helpers/assert.ts';

const DAY_MS = 24 * 60 * 60_000;
const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

// Tiny files with real signatures: the server decides the type from the content.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('png body')]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('jpeg body')]);
const MP4 = Buffer.concat([Buffer.from([0x00, 0x00, 0x00, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

let accounts = 0;
/** A fresh account: flat views (recent, gallery, search, activity) see only what the test made. */
function freshAccount(): Promise<SignedIn> {
  return createMember(t.client, owner, `user${++accounts}`);
}

async function mkdir(who: SignedIn, name: string, parentId?: string): Promise<any> {
  const res = await t.client.post('/nodes/folder', { name, ...(parentId && { parent_id: parentId }) }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

function upload(who: SignedIn, data: Buffer | string, filename: string, parentId?: string): Promise<string> {
  return uploadFile(t.api, who.access, Buffer.isBuffer(data) ? data : Buffer.from(data), {
    filename,
    ...(parentId !== undefined && { parentId }),
  });
}

async function list(who: SignedIn, query: string): Promise<any> {
  const res = await t.client.get(`/nodes?${query}`, { token: who.access });
  assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
  return res.body;
}

async function names(who: SignedIn, query: string): Promise<string[]> {
  return (await list(who, query)).items.map((n: any) => n.name);
}

/** Follows next_cursor to the end; returns every item in order and how many pages it took. */
async function allPages(who: SignedIn, route: string, query: string): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const sep = query === '' ? '' : '&';
    const res: ApiResponse = await t.client.get(`${route}?${query}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`, {
      token: who.access,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
    pages++;
    assert.ok(pages < 100, 'paging does not end');
  } while (cursor !== null);
  return { items, pages };
}

async function trash(who: SignedIn, id: string): Promise<any> {
  const res = await t.client.delete(`/nodes/${id}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function quotaUsed(who: SignedIn): Promise<number> {
  return (await t.client.get('/me', { token: who.access })).body.quota.used;
}

function assertFoldersFirst(items: any[], label: string): void {
  const firstFile = items.findIndex((n) => n.type === 'file');
  if (firstFile === -1) return;
  assert.ok(
    items.slice(firstFile).every((n) => n.type === 'file'),
    `${label}: a folder comes after a file: ${items.map((n) => `${n.type}:${n.name}`).join(', ')}`,
  );
}

/** Milliseconds pass so that the next write gets a later timestamp than the one before. */
function nextMillisecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 3));
}

// ---------------------------------------------------------------------------------------------

describe('GET /nodes: sorting a folder', () => {
  let who: SignedIn;
  let folder: any;

  before(async () => {
    who = await freshAccount();
    folder = await mkdir(who, 'Sorting');
    // Created in this order; sizes chosen to differ from the name and creation orders.
    await mkdir(who, 'b folder', folder.id);
    await nextMillisecond();
    await upload(who, 'x'.repeat(30), 'file 2.txt', folder.id);
    await nextMillisecond();
    await mkdir(who, 'A folder', folder.id);
    await nextMillisecond();
    await upload(who, 'x'.repeat(10), 'file 10.txt', folder.id);
    await nextMillisecond();
    await upload(who, 'x'.repeat(20), 'file 100.txt', folder.id);
    await nextMillisecond();
    await mkdir(who, 'c folder', folder.id);
    await nextMillisecond();
    await upload(who, 'x'.repeat(5), 'Zeta.txt', folder.id);
  });

  test('folders are always above files, whatever the sort and the order', async () => {
    for (const sort of ['name', 'updated', 'created', 'size', 'taken']) {
      for (const order of ['asc', 'desc']) {
        const body = await list(who, `parent_id=${folder.id}&sort=${sort}&order=${order}`);
        assert.equal(body.items.length, 7, `${sort} ${order}`);
        assert.deepEqual(
          body.items.slice(0, 3).map((n: any) => n.type),
          ['folder', 'folder', 'folder'],
          `${sort} ${order}`,
        );
        assertFoldersFirst(body.items, `${sort} ${order}`);
        assert.equal(body.next_cursor, null);
      }
    }
  });

  test('sort=name is natural and ignores case: "file 2" before "file 10" before "file 100"; desc reverses within folders and files', async () => {
    const expected = ['A folder', 'b folder', 'c folder', 'file 2.txt', 'file 10.txt', 'file 100.txt', 'Zeta.txt'];
    assert.deepEqual(await names(who, `parent_id=${folder.id}&sort=name&order=asc`), expected);
    // The default is sort=name, order=asc.
    assert.deepEqual(await names(who, `parent_id=${folder.id}`), expected);
    assert.deepEqual(await names(who, `parent_id=${folder.id}&sort=name&order=desc`), [
      'c folder',
      'b folder',
      'A folder',
      'Zeta.txt',
      'file 100.txt',
      'file 10.txt',
      'file 2.txt',
    ]);
  });

  test('sort=size orders files by bytes, asc and desc', async () => {
    const asc = await names(who, `parent_id=${folder.id}&sort=size&order=asc`);
    assert.deepEqual(asc.slice(3), ['Zeta.txt', 'file 10.txt', 'file 100.txt', 'file 2.txt']);
    const desc = await names(who, `parent_id=${folder.id}&sort=size&order=desc`);
    assert.deepEqual(desc.slice(3), ['file 2.txt', 'file 100.txt', 'file 10.txt', 'Zeta.txt']);
  });

  test('sort=created orders by creation time, asc and desc', async () => {
    assert.deepEqual(await names(who, `parent_id=${folder.id}&sort=created&order=asc`), [
      'b folder',
      'A folder',
      'c folder',
      'file 2.txt',
      'file 10.txt',
      'file 100.txt',
      'Zeta.txt',
    ]);
    assert.deepEqual(await names(who, `parent_id=${folder.id}&sort=created&order=desc`), [
      'c folder',
      'A folder',
      'b folder',
      'Zeta.txt',
      'file 100.txt',
      'file 10.txt',
      'file 2.txt',
    ]);
  });

  test('sort=updated follows the last change: a renamed file moves to the end of asc', async () => {
    const sub = await mkdir(who, 'Updated order', folder.id);
    await upload(who, 'one', 'one.txt', sub.id);
    await nextMillisecond();
    const two = await upload(who, 'two', 'two.txt', sub.id);
    await nextMillisecond();
    await upload(who, 'three', 'three.txt', sub.id);
    await nextMillisecond();
    assert.deepEqual(await names(who, `parent_id=${sub.id}&sort=updated&order=asc`), ['one.txt', 'two.txt', 'three.txt']);
    const renamed = await t.client.patch(`/nodes/${two}`, { name: 'two again.txt' }, { token: who.access });
    assert.equal(renamed.status, 200);
    assert.deepEqual(await names(who, `parent_id=${sub.id}&sort=updated&order=asc`), ['one.txt', 'three.txt', 'two again.txt']);
    assert.deepEqual(await names(who, `parent_id=${sub.id}&sort=updated&order=desc`), ['two again.txt', 'three.txt', 'one.txt']);
    await t.client.delete(`/nodes/${sub.id}`, { token: who.access });
  });
});

describe('GET /nodes: paging with limit and next_cursor', () => {
  let who: SignedIn;
  let big: any;
  const folderNames: string[] = [];
  const fileNames: string[] = [];

  before(async () => {
    who = await freshAccount();
    big = await mkdir(who, 'Big folder');
    for (let i = 1; i <= 240; i++) folderNames.push(`item ${i}`);
    // Shuffled creation order, so creation order and name order differ.
    const order = [...folderNames].sort((a, b) => ((a.length * 7 + Number(a.slice(5))) % 13) - ((b.length * 7 + Number(b.slice(5))) % 13));
    for (let i = 0; i < order.length; i += 24) {
      await Promise.all(order.slice(i, i + 24).map((name) => mkdir(who, name, big.id)));
    }
    for (let i = 1; i <= 10; i++) {
      fileNames.push(`doc ${i}.txt`);
      await upload(who, 'd'.repeat(i), `doc ${i}.txt`, big.id);
    }
  });

  test('250 children with limit=100 come in three pages that visit every child exactly once, in name order', async () => {
    const { items, pages } = await allPages(who, '/nodes', `parent_id=${big.id}&limit=100`);
    assert.equal(pages, 3);
    assert.equal(items.length, 250);
    assert.equal(new Set(items.map((n) => n.id)).size, 250);
    assert.deepEqual(
      items.map((n) => n.name),
      [...folderNames, ...fileNames],
    );
    const first = await list(who, `parent_id=${big.id}&limit=100`);
    assert.equal(first.items.length, 100);
    assert.equal(typeof first.next_cursor, 'string');
  });

  test('paging desc and by other sorts also visits every child once, in the same order as one big page', async () => {
    for (const [sort, order, limit] of [
      ['name', 'desc', 100],
      ['size', 'asc', 70],
      ['created', 'desc', 99],
      ['updated', 'asc', 100],
      ['taken', 'desc', 120],
    ] as const) {
      const whole = await list(who, `parent_id=${big.id}&sort=${sort}&order=${order}&limit=1000`);
      assert.equal(whole.items.length, 250);
      assert.equal(whole.next_cursor, null);
      const { items, pages } = await allPages(who, '/nodes', `parent_id=${big.id}&sort=${sort}&order=${order}&limit=${limit}`);
      assert.equal(pages, Math.ceil(250 / limit), `${sort} ${order}`);
      assert.deepEqual(
        items.map((n) => n.id),
        whole.items.map((n: any) => n.id),
        `${sort} ${order}`,
      );
      assertFoldersFirst(items, `${sort} ${order}`);
    }
    const desc = await list(who, `parent_id=${big.id}&sort=name&order=desc&limit=1000`);
    assert.deepEqual(
      desc.items.map((n: any) => n.name),
      [...[...folderNames].reverse(), ...[...fileNames].reverse()],
    );
  });

  test('a cursor from another sort or order answers 400 invalid_cursor', async () => {
    const first = await list(who, `parent_id=${big.id}&limit=10&sort=name`);
    const cursor = encodeURIComponent(first.next_cursor);
    assertError(
      await t.client.get(`/nodes?parent_id=${big.id}&limit=10&sort=size&cursor=${cursor}`, { token: who.access }),
      400,
      'invalid_cursor',
    );
    assertError(
      await t.client.get(`/nodes?parent_id=${big.id}&limit=10&sort=name&order=desc&cursor=${cursor}`, { token: who.access }),
      400,
      'invalid_cursor',
    );
    // The right listing accepts it.
    const second = await list(who, `parent_id=${big.id}&limit=10&sort=name&cursor=${cursor}`);
    assert.deepEqual(
      second.items.map((n: any) => n.name),
      folderNames.slice(10, 20),
    );
  });

  test('a garbage cursor answers 400 invalid_cursor', async () => {
    const garbage = [
      'garbage',
      '!!!',
      Buffer.from('not json').toString('base64url'),
      Buffer.from('["name",false,0]').toString('base64url'),
      Buffer.from('["name",false,7,"x","y"]').toString('base64url'),
      Buffer.from('{"sort":"name"}').toString('base64url'),
    ];
    for (const cursor of garbage) {
      assertError(
        await t.client.get(`/nodes?parent_id=${big.id}&cursor=${encodeURIComponent(cursor)}`, { token: who.access }),
        400,
        'invalid_cursor',
      );
    }
    assertError(await t.client.get('/trash?cursor=garbage', { token: who.access }), 400, 'invalid_cursor');
    assertError(await t.client.get('/activity?cursor=!!!', { token: who.access }), 400, 'invalid_cursor');
  });

  test('limit=0, limit=1001 and a non-number limit answer 400 invalid_input; limit=1000 is fine', async () => {
    for (const limit of ['0', '1001', '-1', 'ten', '1.5']) {
      const res = await t.client.get(`/nodes?parent_id=${big.id}&limit=${limit}`, { token: who.access });
      assertError(res, 400, 'invalid_input');
      assert.equal(res.body.error.field, 'limit');
    }
    assert.equal((await list(who, `parent_id=${big.id}&limit=1000`)).items.length, 250);
    assert.equal((await list(who, `parent_id=${big.id}&limit=1`)).items.length, 1);
    // The default page is 100.
    assert.equal((await list(who, `parent_id=${big.id}`)).items.length, 100);
  });

  test('unknown filter, sort or order values answer 400 invalid_input', async () => {
    assertError(await t.client.get('/nodes?filter=everything', { token: who.access }), 400, 'invalid_input');
    assertError(await t.client.get('/nodes?sort=colour', { token: who.access }), 400, 'invalid_input');
    assertError(await t.client.get('/nodes?order=up', { token: who.access }), 400, 'invalid_input');
  });

  test('a folder listing sorted by name is one query on the nodes_by_name index, with no temp b-tree', async () => {
    const plans = await listingPlans(t, who.userId, [{ parent_id: big.id }, { parent_id: big.id, sort: 'name', order: 'asc', limit: 100 }]);
    for (const { sql, plan, input } of plans) {
      assert.match(plan, /USING (COVERING )?INDEX nodes_by_name\b/, `${JSON.stringify(input)}\n${sql}\n${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE/, `${JSON.stringify(input)}\n${sql}\n${plan}`);
      assert.doesNotMatch(plan, /\bSCAN n\b/, plan);
    }
    // First page and a page continued from a cursor: both were planned.
    assert.ok(plans.length >= 4, JSON.stringify(plans.map((p) => p.input)));
  });

  test("a folder listing in descending order is served by the sort's index too, with no temp b-tree", async () => {
    const plans = await listingPlans(t, who.userId, [
      { parent_id: big.id, sort: 'name', order: 'desc', limit: 100 },
      { parent_id: big.id, sort: 'updated', order: 'desc', limit: 100 },
      { parent_id: big.id, sort: 'size', order: 'desc', limit: 245 },
    ]);
    assert.ok(plans.length >= 6, JSON.stringify(plans.map((p) => p.input)));
    for (const { sql, plan, input } of plans) {
      const index = { name: 'nodes_by_name', updated: 'nodes_by_updated', size: 'nodes_by_size' }[input.sort as 'name'];
      assert.match(plan, new RegExp(`USING (COVERING )?INDEX ${index}\\b`), `${JSON.stringify(input)}\n${sql}\n${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE/, `${JSON.stringify(input)}\n${sql}\n${plan}`);
    }
  });
});

/**
 * The plans of the SQL that the listing service builds, run against the server's own
 * database (read-only, while the server runs). The service is the real one; only the store
 * under it is a second connection that records each listing query and explains it.
 */
async function listingPlans(
  server: TestServer,
  userId: string,
  inputs: ListInput[],
): Promise<Array<{ input: ListInput; sql: string; plan: string; rows: number }>> {
  const db = openConnection(path.join(server.dataDir, 'hearth.db'), { readonly: true });
  try {
    const recorded: Array<{ input: ListInput; sql: string; plan: string; rows: number }> = [];
    let current: ListInput = {};
    const recording = new Proxy(db, {
      get(target, prop) {
        if (prop === 'prepareRaw') {
          return (sql: string) => {
            const statement = target.prepareRaw(sql);
            if (!/ORDER BY/.test(sql) || !/LIMIT @limit/.test(sql)) return statement;
            return {
              all: (params: Record<string, unknown>) => {
                const plan = (target.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as Array<{ detail: string }>)
                  .map((row) => row.detail)
                  .join(' | ');
                const rows = statement.all(params);
                recorded.push({ input: current, sql, plan, rows: rows.length });
                return rows;
              },
            };
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    const store = { nodes: new NodesRepo(recording), gallery: new GalleryRepo(recording) } as unknown as Store;
    const deps = { store, now: Date.now } as unknown as ServiceDeps;
    const settings = { current: () => ({ trash_retention_days: 30 }) } as unknown as SettingsService;
    const listing = new ListingService(deps, new AccessService(deps), settings, galleryFilters);
    const actor: Actor = { userId, sessionId: 'plan', role: 'member', scope: 'full', mustChangePassword: false };
    for (const input of inputs) {
      current = input;
      const first = listing.list(actor, input);
      // The same listing over HTTP gives the same page: the service here is the one the server runs.
      if (first.next_cursor !== null) {
        current = { ...input, cursor: first.next_cursor };
        listing.list(actor, current);
      }
    }
    return recorded;
  } finally {
    db.close();
  }
}

describe('GET /nodes?query=: name search', () => {
  let who: SignedIn;
  let sub: any;
  let ids: Record<string, string>;

  before(async () => {
    who = await freshAccount();
    sub = await mkdir(who, 'Letters');
    const deep = await mkdir(who, 'Deep', sub.id);
    ids = {
      top: await upload(who, 'a', '\u00c9lise.txt'),
      inSub: await upload(who, 'b', 'notes for elise.md', sub.id),
      deep: await upload(who, 'c', 'ELISE again.txt', deep.id),
      other: await upload(who, 'd', 'Other.txt'),
      underscore: await upload(who, 'e', 'a_b.txt'),
      percent: await upload(who, 'f', 'axb.txt'),
    };
    ids.folder = (await mkdir(who, 'Elise folder', sub.id)).id;
  });

  test('a search without parent_id looks through the whole account, ignoring case and accents ("ELISE" finds "Élise.txt")', async () => {
    const found = await list(who, 'query=ELISE&limit=1000');
    assert.deepEqual(found.items.map((n: any) => n.id).sort(), [ids.top, ids.inSub, ids.deep, ids.folder].sort());
    // Folders above files in search results too.
    assert.equal(found.items[0].id, ids.folder);
    const accented = await list(who, `query=${encodeURIComponent('\u00e9LI')}`);
    assert.equal(accented.items.length, 4);
    const decomposed = await list(who, `query=${encodeURIComponent('e\u0301lise')}`);
    assert.equal(decomposed.items.length, 4);
  });

  test('a search with parent_id looks only in that folder (not below it)', async () => {
    const found = await list(who, `query=elise&parent_id=${sub.id}`);
    assert.deepEqual(found.items.map((n: any) => n.id).sort(), [ids.inSub, ids.folder].sort());
    const top = await list(who, 'query=elise&parent_id=root');
    assert.deepEqual(
      top.items.map((n: any) => n.id),
      [ids.top],
    );
  });

  test('% and _ in a query are plain characters, and a query matching nothing answers an empty page', async () => {
    assert.deepEqual(await names(who, 'query=a_b'), ['a_b.txt']);
    assert.deepEqual(await names(who, 'query=%25'), []);
    assert.deepEqual(await names(who, 'query=nothing-like-this'), []);
  });

  test('a search pages with a cursor like any listing', async () => {
    const { items, pages } = await allPages(who, '/nodes', 'query=e&limit=2');
    const whole = await list(who, 'query=e&limit=1000');
    assert.ok(whole.items.length >= 5);
    assert.equal(pages, Math.ceil(whole.items.length / 2));
    assert.deepEqual(
      items.map((n) => n.id),
      whole.items.map((n: any) => n.id),
    );
  });
});

describe('GET /nodes?filter=recent, gallery and starred', () => {
  test('filter=recent lists files only, from every folder, most recently updated first', async () => {
    const who = await freshAccount();
    const folder = await mkdir(who, 'Recent folder');
    const first = await upload(who, '1', 'first.txt');
    await nextMillisecond();
    const second = await upload(who, '2', 'second.txt', folder.id);
    await nextMillisecond();
    const third = await upload(who, '3', 'third.txt', folder.id);
    await nextMillisecond();
    await mkdir(who, 'Newer folder');
    assert.deepEqual(
      (await list(who, 'filter=recent')).items.map((n: any) => n.id),
      [third, second, first],
    );
    await nextMillisecond();
    // A change makes a file recent again.
    const renamed = await t.client.patch(`/nodes/${first}`, { name: 'first renamed.txt' }, { token: who.access });
    assert.equal(renamed.status, 200);
    const recent = await list(who, 'filter=recent');
    assert.deepEqual(
      recent.items.map((n: any) => n.id),
      [first, third, second],
    );
    assert.ok(recent.items.every((n: any) => n.type === 'file'));
    // Paged.
    const { items } = await allPages(who, '/nodes', 'filter=recent&limit=1');
    assert.deepEqual(
      items.map((n) => n.id),
      [first, third, second],
    );
    // One query on the recent partial index, with no temp b-tree.
    const plans = await listingPlans(t, who.userId, [{ filter: 'recent', limit: 1 }]);
    assert.equal(plans.length, 2);
    for (const { sql, plan } of plans) {
      assert.match(plan, /USING (COVERING )?INDEX nodes_recent\b/, `${sql}\n${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE/, `${sql}\n${plan}`);
    }
  });

  test('filter=gallery lists every image and video, flat from all folders, never a folder or another file', async () => {
    const who = await freshAccount();
    const a = await mkdir(who, 'Holiday');
    const b = await mkdir(who, 'Deeper', a.id);
    const png = await upload(who, PNG, 'shot.png');
    await nextMillisecond();
    const jpeg = await upload(who, JPEG, 'photo.jpg', a.id);
    await nextMillisecond();
    const mp4 = await upload(who, MP4, 'clip.mp4', b.id);
    await nextMillisecond();
    // The content decides, not the name: a PNG called .dat is an image.
    const disguised = await upload(who, PNG, 'disguised.dat', b.id);
    await upload(who, 'plain text', 'readme.txt', a.id);
    await upload(who, '%PDF-1.4 not an image', 'doc.pdf');
    await mkdir(who, 'pictures.jpg');

    const gallery = await list(who, 'filter=gallery&limit=1000');
    assert.deepEqual(gallery.items.map((n: any) => n.id).sort(), [png, jpeg, mp4, disguised].sort());
    assert.ok(gallery.items.every((n: any) => n.type === 'file'));
    const types = Object.fromEntries(gallery.items.map((n: any) => [n.id, n.mime_type]));
    assert.equal(types[png], 'image/png');
    assert.equal(types[jpeg], 'image/jpeg');
    assert.equal(types[mp4], 'video/mp4');
    assert.equal(types[disguised], 'image/png');

    // Default: taken, newest first; with no capture time, taken is the upload time.
    assert.deepEqual(
      gallery.items.map((n: any) => n.id),
      [disguised, mp4, jpeg, png],
    );
    assert.deepEqual(
      (await list(who, 'filter=gallery&sort=taken&order=desc')).items.map((n: any) => n.id),
      [disguised, mp4, jpeg, png],
    );
    assert.deepEqual(
      (await list(who, 'filter=gallery&sort=taken&order=asc')).items.map((n: any) => n.id),
      [png, jpeg, mp4, disguised],
    );
    const { items, pages } = await allPages(who, '/nodes', 'filter=gallery&sort=taken&order=asc&limit=3');
    assert.equal(pages, 2);
    assert.deepEqual(
      items.map((n) => n.id),
      [png, jpeg, mp4, disguised],
    );

    // A gallery listing is one query on the gallery's partial index, with no temp b-tree.
    const plans = await listingPlans(t, who.userId, [
      { filter: 'gallery' },
      { filter: 'gallery', sort: 'taken', order: 'desc', limit: 2 },
      { filter: 'gallery', sort: 'taken', order: 'asc', limit: 2 },
      // One month of the timeline is one range of the same index.
      { filter: 'gallery', month: monthOf(Date.now()), limit: 2 },
    ]);
    assert.ok(plans.length >= 7, JSON.stringify(plans.map((p) => p.input)));
    for (const { sql, plan, input } of plans) {
      if (input.month !== undefined) assert.match(plan, /taken_sort>\? AND taken_sort<\?/, `${sql}\n${plan}`);
      assert.match(plan, /USING (COVERING )?INDEX nodes_gallery\b/, `${JSON.stringify(input)}\n${sql}\n${plan}`);
      assert.doesNotMatch(plan, /TEMP B-TREE/, `${JSON.stringify(input)}\n${sql}\n${plan}`);
    }
  });

  test("filter=starred lists the account's bookmarks, folders first, and nothing unstarred", async () => {
    const who = await freshAccount();
    const folder = await mkdir(who, 'Starred folder');
    const file = await upload(who, 'x', 'starred.txt', folder.id);
    await mkdir(who, 'Plain folder');
    const unstarred = await upload(who, 'y', 'unstarred.txt');
    for (const id of [file, folder.id, unstarred]) {
      assert.equal((await t.client.post(`/nodes/${id}/star`, undefined, { token: who.access })).status, 204);
    }
    assert.equal((await t.client.delete(`/nodes/${unstarred}/star`, { token: who.access })).status, 204);
    const starred = await list(who, 'filter=starred');
    assert.deepEqual(
      starred.items.map((n: any) => n.id),
      [folder.id, file],
    );
    assert.ok(starred.items.every((n: any) => n.starred === true));
  });
});

describe('A listed node is the node', () => {
  test('every field of every listed node, in every view, equals what GET /nodes/{id} answers for it', async () => {
    const who = await freshAccount();
    const other = await freshAccount();
    const colored = await mkdir(who, 'Colored');
    assert.equal((await t.client.patch(`/nodes/${colored.id}`, { color: 'blue' }, { token: who.access })).status, 200);
    const photo = await upload(
      who,
      await sharp({ create: { width: 30, height: 20, channels: 3, background: '#c84' } })
        .jpeg()
        .toBuffer(),
      'photo.jpg',
    );
    const starred = await upload(who, 'starred text', 'starred.txt', colored.id);
    assert.equal((await t.client.post(`/nodes/${starred}/star`, undefined, { token: who.access })).status, 204);
    const theirs = await mkdir(other, 'Shared with who');
    const granted = await t.client.post(
      `/nodes/${theirs.id}/permissions`,
      { user_id: who.userId, role: 'viewer' },
      { token: other.access },
    );
    assert.equal(granted.status, 201, JSON.stringify(granted.body));
    await t.server.mediaIdle();

    const seen = new Set<string>();
    for (const query of [
      'parent_id=root',
      `parent_id=${colored.id}`,
      'filter=gallery',
      'filter=recent',
      'filter=starred',
      'filter=shared',
      'query=e',
      'sort=size&order=desc',
    ]) {
      for (const item of (await list(who, query)).items) {
        const alone = await t.client.get(`/nodes/${item.id}`, { token: who.access });
        assert.equal(alone.status, 200);
        assert.deepEqual(item, alone.body, `${query}: ${item.name}`);
        seen.add(item.id);
      }
    }
    // Each kind of field was compared: a color, a star, media fields, and a node of someone else's.
    assert.deepEqual(
      [colored.id, photo, starred, theirs.id].filter((id) => !seen.has(id)),
      [],
    );
    const listedPhoto = (await list(who, 'filter=gallery')).items[0];
    assert.equal(listedPhoto.image_width, 30);
    assert.equal(listedPhoto.has_thumbnail, true);
  });
});

describe('Trashed items never appear in listings', () => {
  let who: SignedIn;
  let folder: any;
  let inner: any;
  let fileInFolder: string;
  let imageInFolder: string;
  let trashedImage: string;
  let keptImage: string;
  let plainFile: string;

  before(async () => {
    who = await freshAccount();
    folder = await mkdir(who, 'needle folder');
    inner = await mkdir(who, 'needle inner', folder.id);
    fileInFolder = await upload(who, 'x', 'needle in folder.txt', inner.id);
    imageInFolder = await upload(who, PNG, 'needle image.png', folder.id);
    trashedImage = await upload(who, JPEG, 'needle trashed.jpg');
    keptImage = await upload(who, JPEG, 'needle kept.jpg');
    plainFile = await upload(who, 'z', 'needle kept.txt');
    for (const id of [folder.id, fileInFolder, trashedImage]) {
      await t.client.post(`/nodes/${id}/star`, undefined, { token: who.access });
    }
    await trash(who, folder.id);
    await trash(who, trashedImage);
  });

  test('neither a trashed item nor anything inside a trashed folder shows in a folder, gallery, recent, starred or search listing', async () => {
    const hidden = [folder.id, inner.id, fileInFolder, imageInFolder, trashedImage];
    const views: Record<string, string[]> = {};
    for (const query of [
      '',
      'parent_id=root',
      'filter=gallery',
      'filter=recent',
      'filter=starred',
      'query=needle',
      'query=needle&parent_id=root',
    ]) {
      views[query] = (await list(who, `${query}&limit=1000`)).items.map((n: any) => n.id);
      for (const id of hidden) assert.ok(!views[query]!.includes(id), `${query} shows trashed ${id}`);
    }
    // What was not trashed is still there.
    assert.deepEqual(views['filter=gallery'], [keptImage]);
    assert.deepEqual(views['filter=recent'], [plainFile, keptImage]);
    assert.deepEqual(views['query=needle']!.sort(), [keptImage, plainFile].sort());
    assert.deepEqual(views['filter=starred'], []);
  });

  test('listing a trashed folder, or a folder inside one, answers 409 in_trash', async () => {
    assertError(await t.client.get(`/nodes?parent_id=${folder.id}`, { token: who.access }), 409, 'in_trash');
    assertError(await t.client.get(`/nodes?parent_id=${inner.id}`, { token: who.access }), 409, 'in_trash');
  });

  test('listing a file as parent_id answers 400 invalid_input; an unknown one 404 not_found', async () => {
    const res = await t.client.get(`/nodes?parent_id=${plainFile}`, { token: who.access });
    assertError(res, 400, 'invalid_input');
    assert.equal(res.body.error.field, 'parent_id');
    assertError(await t.client.get('/nodes?parent_id=01HZZZZZZZZZZZZZZZZZZZZZZZ', { token: who.access }), 404, 'not_found');
  });

  test('after restore the folder and its contents are listed again', async () => {
    const restored = await t.client.post(`/nodes/${folder.id}/restore`, undefined, { token: who.access });
    assert.equal(restored.status, 200);
    assert.deepEqual(
      (await list(who, `parent_id=${folder.id}`)).items.map((n: any) => n.id),
      [inner.id, imageInFolder],
    );
    assert.ok((await list(who, 'filter=gallery')).items.some((n: any) => n.id === imageInFolder));
    await trash(who, folder.id);
  });
});

describe('GET /trash', () => {
  test('the trash lists only the roots of what was trashed, most recent first, with retention_days 30 by default', async () => {
    const who = await freshAccount();
    const folder = await mkdir(who, 'Trashed tree');
    const inner = await mkdir(who, 'Inner', folder.id);
    const innerFile = await upload(who, 'x', 'inner.txt', inner.id);
    const loose = await upload(who, 'y', 'loose.txt');
    const separately = await mkdir(who, 'Trashed on its own', folder.id);
    await mkdir(who, 'Not trashed');
    await trash(who, separately.id);
    await nextMillisecond();
    await trash(who, folder.id);
    await nextMillisecond();
    await trash(who, loose);

    const res = await t.client.get('/trash', { token: who.access });
    assert.equal(res.status, 200);
    assert.equal(res.body.retention_days, 30);
    assert.equal(res.body.next_cursor, null);
    assert.deepEqual(
      res.body.items.map((n: any) => n.id),
      [loose, folder.id, separately.id],
    );
    for (const item of res.body.items) assert.equal(typeof item.trashed_at, 'number');
    assert.ok(!res.body.items.some((n: any) => n.id === inner.id || n.id === innerFile));
  });

  test('retention_days follows PATCH /server/settings trash_retention_days', async () => {
    const who = await freshAccount();
    const patched = await t.client.patch('/server/settings', { trash_retention_days: 7 }, { token: owner.access });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    try {
      assert.equal((await t.client.get('/trash', { token: who.access })).body.retention_days, 7);
    } finally {
      const back = await t.client.patch('/server/settings', { trash_retention_days: 30 }, { token: owner.access });
      assert.equal(back.status, 200);
    }
    assert.equal((await t.client.get('/trash', { token: who.access })).body.retention_days, 30);
  });

  test('the trash pages with limit and next_cursor, visiting every trashed root once', async () => {
    const who = await freshAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const f = await mkdir(who, `trash page ${i}`);
      await trash(who, f.id);
      ids.push(f.id);
    }
    const { items, pages } = await allPages(who, '/trash', 'limit=2');
    assert.equal(pages, 3);
    assert.deepEqual(
      items.map((n) => n.id),
      [...ids].reverse(),
    );
    assertError(await t.client.get('/trash?limit=0', { token: who.access }), 400, 'invalid_input');
  });

  test('items past the retention period are purged by maintenance: the node, its content file and its quota are gone', async () => {
    const who = await freshAccount();
    const size = 4321;
    const oldId = await upload(who, Buffer.alloc(size, 9), 'old.bin');
    const recentId = await upload(who, Buffer.alloc(100, 8), 'recent.bin');
    const folder = await mkdir(who, 'Old folder');
    const inFolder = await upload(who, Buffer.alloc(50, 7), 'inside.bin', folder.id);
    const used = await quotaUsed(who);
    assert.equal(used, size + 150);
    for (const id of [oldId, recentId, folder.id]) await trash(who, id);

    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { fileMustExist: true });
    let blobs: string[];
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('busy_timeout = 5000');
      const blobOf = (id: string) => (db.prepare('SELECT blob FROM node_versions WHERE node_id = ?').get(id) as { blob: string }).blob;
      blobs = [blobOf(oldId), blobOf(inFolder)];
      const setTrashedAt = db.prepare('UPDATE nodes SET trashed_at = ? WHERE id = ?');
      setTrashedAt.run(Date.now() - 31 * DAY_MS, oldId);
      setTrashedAt.run(Date.now() - 31 * DAY_MS, folder.id);
      setTrashedAt.run(Date.now() - 29 * DAY_MS, recentId);
    } finally {
      db.close();
    }
    const blobPath = (blob: string) => path.join(t.dataDir, 'files', 'blobs', blob.slice(-2), blob);
    for (const blob of blobs) assert.ok(fs.existsSync(blobPath(blob)), blobPath(blob));

    await t.server.runMaintenance();

    for (const id of [oldId, folder.id, inFolder]) assertError(await t.client.get(`/nodes/${id}`, { token: who.access }), 404, 'not_found');
    for (const blob of blobs) assert.equal(fs.existsSync(blobPath(blob)), false, `${blobPath(blob)} is still on disk`);
    assert.equal(await quotaUsed(who), 100);
    // Not yet past retention: kept.
    const kept = await t.client.get(`/nodes/${recentId}`, { token: who.access });
    assert.equal(kept.status, 200);
    assert.deepEqual(
      (await t.client.get('/trash', { token: who.access })).body.items.map((n: any) => n.id),
      [recentId],
    );
  });
});

describe('GET /activity', () => {
  test("the account's activity lists what happened, newest first, with actor_id and node_id, and pages", async () => {
    const who = await freshAccount();
    const folder = await mkdir(who, 'Activity folder');
    const target = await mkdir(who, 'Activity target');
    const fileId = await upload(who, 'logged', 'logged.txt', folder.id);
    assert.equal((await t.client.patch(`/nodes/${fileId}`, { name: 'renamed.txt' }, { token: who.access })).status, 200);
    assert.equal((await t.client.patch(`/nodes/${fileId}`, { parent_id: target.id }, { token: who.access })).status, 200);
    await trash(who, fileId);
    assert.equal((await t.client.post(`/nodes/${fileId}/restore`, undefined, { token: who.access })).status, 200);
    assert.equal((await t.client.delete(`/nodes/${fileId}/permanent`, { token: who.access })).status, 204);

    const res = await t.client.get('/activity', { token: who.access });
    assert.equal(res.status, 200);
    assert.equal(res.body.next_cursor, null);
    const items = res.body.items;
    assert.deepEqual(
      items.map((a: any) => [a.type, a.node_id]),
      [
        ['node.deleted', fileId],
        ['node.restored', fileId],
        ['node.trashed', fileId],
        ['node.moved', fileId],
        ['node.renamed', fileId],
        ['file.uploaded', fileId],
        ['folder.created', target.id],
        ['folder.created', folder.id],
      ],
    );
    for (const entry of items) {
      assert.deepEqual(Object.keys(entry).sort(), ['actor_id', 'at', 'details', 'id', 'node_id', 'type']);
      assert.equal(entry.actor_id, who.userId);
      assert.equal(typeof entry.at, 'number');
      assert.equal(typeof entry.details, 'object');
    }
    const ats = items.map((a: any) => a.at);
    assert.deepEqual(
      ats,
      [...ats].sort((x: number, y: number) => y - x),
    );
    assert.deepEqual(items[4].details, { from: 'logged.txt', to: 'renamed.txt' });
    assert.deepEqual(items[3].details, { from: folder.id, to: target.id });

    const { items: paged, pages } = await allPages(who, '/activity', 'limit=3');
    assert.equal(pages, 3);
    assert.deepEqual(
      paged.map((a) => a.id),
      items.map((a: any) => a.id),
    );
  });

  test("another account's activity is not visible", async () => {
    const one = await freshAccount();
    const two = await freshAccount();
    const folder = await mkdir(one, 'Private activity');
    const res = await t.client.get('/activity?limit=1000', { token: two.access });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.items, []);
    const own = await t.client.get('/activity', { token: one.access });
    assert.deepEqual(
      own.body.items.map((a: any) => a.node_id),
      [folder.id],
    );
  });
});
