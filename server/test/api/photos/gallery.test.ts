import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { openConnection } from '../../../src/store/database/db.ts';
import { GalleryRepo } from '../../../src/store/database/gallery.repo.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

let accounts = 0;
function freshAccount(): Promise<SignedIn> {
  return createMember(t.client, owner, `gallery${++accounts}`);
}

let shade = 0;
/** A small JPEG taken at `when` (EXIF DateTimeOriginal, "YYYY:MM:DD hh:mm:ss"); each one different. */
async function photoTaken(when: string | null): Promise<Buffer> {
  shade += 1;
  const image = sharp({ create: { width: 24, height: 16, channels: 3, background: { r: (shade * 41) % 256, g: 90, b: 160 } } }).jpeg();
  return (when === null ? image : image.withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when } })).toBuffer();
}

function upload(who: SignedIn, data: Buffer | string, filename: string, parentId?: string): Promise<string> {
  return uploadFile(t.api, who.access, Buffer.isBuffer(data) ? data : Buffer.from(data), {
    filename,
    ...(parentId !== undefined && { parentId }),
  });
}

async function get(who: SignedIn | null, route: string): Promise<any> {
  const res = await t.client.get(route, who ? { token: who.access } : {});
  assert.equal(res.status, 200, `${route}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Every item of one month, following next_cursor. */
async function monthItems(who: SignedIn, month: string, limit = 1000): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await get(
      who,
      `/nodes?filter=gallery&month=${month}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor !== null);
  return items;
}

function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

describe('GET /nodes/gallery/months', () => {
  test('counts the photos and videos of each month, newest first: the same items as filter=gallery, by capture time, else upload time', async () => {
    const who = await freshAccount();
    const folder = (await t.client.post('/nodes/folder', { name: 'Holiday' }, { token: who.access })).body;
    const march = [
      await upload(who, await photoTaken('2021:03:31 23:59:59'), 'late-march.jpg', folder.id),
      await upload(who, await photoTaken('2021:03:01 00:00:00'), 'early-march.jpg'),
    ];
    const may = await upload(who, await photoTaken('2019:05:06 07:08:09'), 'may.jpg', folder.id);
    // The first second of April (UTC) is April, not March.
    const april = await upload(who, await photoTaken('2021:04:01 00:00:00'), 'april.jpg');
    const video = await upload(who, await mediaFixture('clip.mp4'), 'clip.mp4', folder.id); // created 2020-01-02
    // A scanned print dated before 1970 (a negative time) is in its own month.
    const scan = await upload(who, await photoTaken('1965:12:31 23:59:59'), 'grandma.jpg');
    const undated = await upload(who, await photoTaken(null), 'no-exif.jpg');
    // Neither a trashed photo, a folder nor a document counts.
    const trashed = await upload(who, await photoTaken('2021:03:15 12:00:00'), 'trashed.jpg');
    await upload(who, 'just text', 'notes.txt', folder.id);
    await t.server.mediaIdle();
    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: who.access })).status, 200);

    const undatedNode = await get(who, `/nodes/${undated}`);
    assert.equal(undatedNode.taken_at ?? null, null);
    const now = monthOf(undatedNode.created_at);
    const months = await get(who, '/nodes/gallery/months');
    assert.deepEqual(months, {
      items: [
        { month: now, photos: 1, videos: 0 },
        { month: '2021-04', photos: 1, videos: 0 },
        { month: '2021-03', photos: 2, videos: 0 },
        { month: '2020-01', photos: 0, videos: 1 },
        { month: '2019-05', photos: 1, videos: 0 },
        { month: '1965-12', photos: 1, videos: 0 },
      ],
    });

    // Each month lists exactly what it counts, newest taken first; together, the whole gallery.
    assert.deepEqual(
      (await monthItems(who, '2021-03')).map((n) => n.id),
      march,
    );
    assert.deepEqual(
      (await monthItems(who, '2021-04')).map((n) => n.id),
      [april],
    );
    assert.deepEqual(
      (await monthItems(who, '2020-01')).map((n) => n.id),
      [video],
    );
    assert.deepEqual(
      (await monthItems(who, '2019-05')).map((n) => n.id),
      [may],
    );
    assert.deepEqual(
      (await monthItems(who, '1965-12')).map((n) => n.id),
      [scan],
    );
    assert.deepEqual(
      (await monthItems(who, now)).map((n) => n.id),
      [undated],
    );
    assert.deepEqual(await monthItems(who, '2021-02'), []);
    const whole = (await get(who, '/nodes?filter=gallery&limit=1000')).items;
    assert.deepEqual(
      whole.map((n: any) => n.id),
      [undated, april, ...march, video, may, scan],
    );
    for (const item of whole) {
      const month = monthOf(item.taken_at ?? item.created_at);
      assert.ok(
        months.items.some((m: any) => m.month === month),
        `${item.name} in ${month}`,
      );
    }

    // A restored photo counts again.
    assert.equal((await t.client.post(`/nodes/${trashed}/restore`, undefined, { token: who.access })).status, 200);
    const march2 = (await get(who, '/nodes/gallery/months')).items.find((m: any) => m.month === '2021-03');
    assert.deepEqual(march2, { month: '2021-03', photos: 3, videos: 0 });
  });

  test('an empty gallery has no months', async () => {
    const who = await freshAccount();
    assert.deepEqual(await get(who, '/nodes/gallery/months'), { items: [] });
  });

  test('without a token: 401', async () => {
    assertError(await t.client.get('/nodes/gallery/months'), 401, 'unauthorized');
    assertError(await t.client.get('/nodes?filter=gallery&month=2021-03'), 401, 'unauthorized');
  });

  test("never counts or lists another account's photos, not even those shared with the caller (they are under Shared)", async () => {
    const who = await freshAccount();
    const other = await freshAccount();
    await upload(who, await photoTaken('2018:08:08 08:08:08'), 'mine.jpg');
    const sharedFolder = (await t.client.post('/nodes/folder', { name: 'Family' }, { token: other.access })).body;
    const theirs = await upload(other, await photoTaken('2018:08:09 09:09:09'), 'theirs.jpg', sharedFolder.id);
    await upload(other, await photoTaken('2017:07:07 07:07:07'), 'private.jpg');
    const granted = await t.client.post(
      `/nodes/${sharedFolder.id}/permissions`,
      { user_id: who.userId, role: 'editor' },
      { token: other.access },
    );
    assert.equal(granted.status, 201);
    await t.server.mediaIdle();
    // The caller can open the shared photo, yet the gallery is the caller's own photos only.
    assert.equal((await t.client.get(`/nodes/${theirs}`, { token: who.access })).status, 200);
    assert.deepEqual((await get(who, '/nodes/gallery/months')).items, [{ month: '2018-08', photos: 1, videos: 0 }]);
    assert.deepEqual(
      (await monthItems(who, '2018-08')).map((n) => n.name),
      ['mine.jpg'],
    );
    assert.deepEqual(await monthItems(who, '2017-07'), []);
    assert.deepEqual((await get(other, '/nodes/gallery/months')).items, [
      { month: '2018-08', photos: 1, videos: 0 },
      { month: '2017-07', photos: 1, videos: 0 },
    ]);
  });
});

describe('GET /nodes?filter=gallery&month=', () => {
  test('pages through a month newest taken first, and a page never crosses into the next month', async () => {
    const who = await freshAccount();
    const ids: string[] = [];
    for (let day = 1; day <= 5; day++) ids.unshift(await upload(who, await photoTaken(`2022:06:0${day} 10:00:00`), `june-${day}.jpg`));
    await upload(who, await photoTaken('2022:05:31 23:00:00'), 'may.jpg');
    await upload(who, await photoTaken('2022:07:01 00:00:01'), 'july.jpg');
    await t.server.mediaIdle();
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: any = await get(
        who,
        `/nodes?filter=gallery&month=2022-06&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      pages.push(page.items.map((n: any) => n.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    assert.deepEqual(pages, [ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    // Oldest first when asked.
    assert.deepEqual(
      (await get(who, '/nodes?filter=gallery&month=2022-06&order=asc')).items.map((n: any) => n.id),
      [...ids].reverse(),
    );
  });

  test('a month that is not YYYY-MM, or a month without filter=gallery: 400 invalid_input on month', async () => {
    const who = await freshAccount();
    for (const month of ['2021-13', '2021-00', '2021-3', '21-03', '2021-03-01', 'March', '']) {
      assertError(
        await t.client.get(`/nodes?filter=gallery&month=${encodeURIComponent(month)}`, { token: who.access }),
        400,
        'invalid_input',
        'month',
      );
    }
    assertError(await t.client.get('/nodes?month=2021-03', { token: who.access }), 400, 'invalid_input', 'month');
    assertError(await t.client.get('/nodes?filter=recent&month=2021-03', { token: who.access }), 400, 'invalid_input', 'month');
  });

  test('the months are counted on the gallery indexes, each month one range, with no sort of every row', () => {
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      const prepared: string[] = [];
      const recording = new Proxy(db, {
        get: (target, prop) =>
          prop === 'prepare' || prop === 'prepareRaw'
            ? (sql: string) => (prepared.push(sql), target.prepare(sql))
            : Reflect.get(target, prop),
      });
      const repo = new GalleryRepo(recording);
      // What the repository prepares for itself (the family's reach) is not the walk.
      prepared.length = 0;
      const mine = { userId: 'nobody', family: null };
      repo.newestTakenBefore(mine, 0, 0);
      repo.countTaken(mine, 0, 0, 1);
      const planOf = (sql: string) =>
        (
          db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({
            owner: 'nobody',
            before: 0,
            from: 0,
            ...(sql.includes('@search_from') && { search_from: 0, search_before: 1, word_0: '%', word_start_0: '%' }),
          }) as {
            detail: string;
          }[]
        )
          .map((r) => r.detail)
          .join(' | ');
      const plans = prepared.map(planOf);
      // One statement per step of the walk: the newest before, then a month's items and videos,
      // each a range of a gallery index (nodes_gallery_dated holds the mime type too).
      assert.equal(plans.length, 2);
      assert.match(plans[0]!, /USING COVERING INDEX nodes_gallery(_dated)? \(owner_id=\? AND taken_sort<\?\)/, plans[0]);
      const ranges = plans[1]!.match(/USING (COVERING )?INDEX nodes_gallery\w* \(owner_id=\? AND taken_sort>\? AND taken_sort<\?\)/g);
      assert.equal(ranges?.length, 2, plans[1]);
      for (const plan of plans) assert.doesNotMatch(plan, /TEMP B-TREE/, plan);
      // A search walks the same index, within the months asked.
      prepared.length = 0;
      repo.newestTakenBefore(mine, 0, 0, { range: { from: 0, before: 1 }, everyYear: null, words: ['lisbon'] });
      assert.match(planOf(prepared[0]!), /USING (COVERING )?INDEX nodes_gallery\w* \(owner_id=\? AND taken_sort>\? AND taken_sort<\?\)/);
    } finally {
      db.close();
    }
  });
});
