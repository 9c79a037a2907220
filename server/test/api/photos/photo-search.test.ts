/**
 * Search in Photos finds what a family asks for: a year, a month, Christmas, a town or
 * country from the photos' GPS, a camera, part of a file name; as months with their counts and
 * as a listing paged by cursor, the same way the timeline shows the whole gallery. Only the
 * caller's own photos are ever found, and every bad input has its code.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { mediaFixture, type MediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let who: SignedIn;
let other: SignedIn;
const ids: Record<string, string> = {};

/** A plain JPEG taken at `when`, named as a phone names it. */
async function photoTaken(when: string, shade: number): Promise<Buffer> {
  return sharp({ create: { width: 24, height: 16, channels: 3, background: { r: shade, g: 90, b: 160 } } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when } })
    .toBuffer();
}

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  who = await createMember(t.client, owner, 'searcher');
  other = await createMember(t.client, owner, 'neighbour');
  const fixtures: MediaFixture[] = [
    'lisbon-pixel.jpg',
    'paris-canon.jpg',
    'christmas-newyork.jpg',
    'tokyo-new-year.jpg',
    'lisbon-iphone.mov',
  ];
  for (const name of fixtures) ids[name] = await uploadFile(t.api, who.access, await mediaFixture(name), { filename: name });
  ids['PXL_20191005_beach.jpg'] = await uploadFile(t.api, who.access, await photoTaken('2019:10:05 11:00:00', 10), {
    filename: 'PXL_20191005_beach.jpg',
  });
  ids['boxing-day.jpg'] = await uploadFile(t.api, who.access, await photoTaken('2018:12:26 23:30:00', 20), { filename: 'boxing-day.jpg' });
  ids['after-christmas.jpg'] = await uploadFile(t.api, who.access, await photoTaken('2018:12:27 00:00:00', 30), {
    filename: 'after-christmas.jpg',
  });
  ids['july-2021.jpg'] = await uploadFile(t.api, who.access, await photoTaken('2021:07:04 09:00:00', 40), { filename: 'july-2021.jpg' });
  // Someone else's photos from the same places and years: never found.
  await uploadFile(t.api, other.access, await mediaFixture('lisbon-pixel.jpg'), { filename: 'their-lisbon.jpg' });
  await uploadFile(t.api, other.access, await photoTaken('2019:05:05 10:00:00', 50), { filename: 'their-2019.jpg' });
  await t.server.mediaIdle();
});
after(() => t.close());

/** Every item a search finds, month by month as the timeline asks for them, each month paged by 2. */
async function search(q: string, as: SignedIn = who): Promise<{ months: any[]; names: string[] }> {
  const months = await t.client.get(`/nodes/gallery/months?q=${encodeURIComponent(q)}`, { token: as.access });
  assert.equal(months.status, 200, JSON.stringify(months.body));
  const names: string[] = [];
  for (const month of months.body.items) {
    let cursor: string | null = null;
    const inMonth: string[] = [];
    do {
      const page: any = await t.client.get(
        `/nodes?filter=gallery&month=${month.month}&q=${encodeURIComponent(q)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: as.access },
      );
      assert.equal(page.status, 200, JSON.stringify(page.body));
      inMonth.push(...page.body.items.map((n: any) => n.name));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    assert.equal(inMonth.length, month.photos + month.videos, `${q}: ${month.month} lists what it counts`);
    names.push(...inMonth);
  }
  return { months: months.body.items, names };
}

describe('search in Photos by date', () => {
  test('"2019" finds the photos taken in 2019, newest first, by the clock where they were taken', async () => {
    const found = await search('2019');
    assert.deepEqual(found.names, ['PXL_20191005_beach.jpg', 'paris-canon.jpg']);
    assert.deepEqual(found.months, [
      { month: '2019-10', photos: 1, videos: 0 },
      { month: '2019-07', photos: 1, videos: 0 },
    ]);
    // Tokyo's New Year photo is 2019 in UTC but 2020 where it was taken.
    assert.deepEqual((await search('2020')).names, ['tokyo-new-year.jpg']);
  });

  test('"July 2021", "jul 2021" and "2021-07" are that month; "july" is every July', async () => {
    for (const q of ['July 2021', 'jul 2021', '2021-07', '2021 July']) assert.deepEqual((await search(q)).names, ['july-2021.jpg'], q);
    assert.deepEqual((await search('july')).names, ['july-2021.jpg', 'paris-canon.jpg']);
  });

  test('"christmas 2018" is 24 to 26 December 2018 (the 26th until midnight, not the 27th)', async () => {
    assert.deepEqual((await search('christmas 2018')).names, ['boxing-day.jpg', 'christmas-newyork.jpg']);
    assert.deepEqual((await search('Christmas')).names, ['boxing-day.jpg', 'christmas-newyork.jpg']);
    assert.deepEqual((await search('christmas 2019')).names, []);
  });

  test('"3 August 2024" and "August 3rd, 2024" are that day', async () => {
    for (const q of ['3 August 2024', 'August 3rd, 2024', '2024-08-03']) {
      assert.deepEqual((await search(q)).names, ['lisbon-iphone.mov', 'lisbon-pixel.jpg'], q);
    }
    assert.deepEqual((await search('4 August 2024')).names, []);
  });
});

describe('search in Photos by place, camera and name', () => {
  test('a town or a country from the GPS the photos carry, ignoring case, as the first letters are typed', async () => {
    assert.deepEqual((await search('Lisbon')).names, ['lisbon-iphone.mov', 'lisbon-pixel.jpg']);
    assert.deepEqual((await search('lisb')).names, ['lisbon-iphone.mov', 'lisbon-pixel.jpg']);
    assert.deepEqual((await search('portugal')).names, ['lisbon-iphone.mov', 'lisbon-pixel.jpg']);
    assert.deepEqual((await search('paris')).names, ['paris-canon.jpg']);
    assert.deepEqual((await search('france')).names, ['paris-canon.jpg']);
    assert.deepEqual((await search('new york')).names, ['christmas-newyork.jpg']);
    assert.deepEqual((await search('usa')).names, ['christmas-newyork.jpg']);
    assert.deepEqual((await search('japan')).names, ['tokyo-new-year.jpg']);
    // A word is found at the start of a place's words, not inside one: "ortugal" is not Portugal.
    assert.deepEqual((await search('ortugal')).names, []);
  });

  test('a camera by make or model', async () => {
    assert.deepEqual((await search('pixel')).names, ['lisbon-pixel.jpg']);
    assert.deepEqual((await search('canon')).names, ['paris-canon.jpg']);
    assert.deepEqual((await search('EOS R6')).names, ['paris-canon.jpg']);
    assert.deepEqual((await search('iphone')).names, ['lisbon-iphone.mov', 'christmas-newyork.jpg']);
    assert.deepEqual((await search('sony')).names, ['tokyo-new-year.jpg']);
  });

  test('part of a file name; and words with a date all count together', async () => {
    assert.deepEqual((await search('beach')).names, ['PXL_20191005_beach.jpg']);
    assert.deepEqual((await search('PXL_2019')).names, ['PXL_20191005_beach.jpg']);
    assert.deepEqual((await search('lisbon 2024')).names, ['lisbon-iphone.mov', 'lisbon-pixel.jpg']);
    assert.deepEqual((await search('lisbon 2019')).names, []);
    assert.deepEqual((await search('iphone christmas')).names, ['christmas-newyork.jpg']);
    assert.deepEqual((await search('nowhere at all')).names, []);
  });

  test("never finds another account's photos, from the same place or year", async () => {
    assert.deepEqual((await search('lisbon', other)).names, ['their-lisbon.jpg']);
    assert.deepEqual((await search('2019', other)).names, ['their-2019.jpg']);
    assert.ok(!(await search('lisbon')).names.includes('their-lisbon.jpg'));
    const fresh = await createMember(t.client, owner, 'nobody-here');
    assert.deepEqual(await search('lisbon', fresh), { months: [], names: [] });
  });

  test('a blank search is no search: the whole gallery', async () => {
    const all = await t.client.get('/nodes/gallery/months', { token: who.access });
    const blank = await t.client.get('/nodes/gallery/months?q=%20%20', { token: who.access });
    assert.deepEqual(blank.body, all.body);
  });
});

describe('search in Photos: bad input', () => {
  test('without a token: 401', async () => {
    assertError(await t.client.get('/nodes/gallery/months?q=2019'), 401, 'unauthorized');
    assertError(await t.client.get('/nodes?filter=gallery&q=2019'), 401, 'unauthorized');
  });

  test('q without filter=gallery, a q over 200 characters or of more than 8 words: 400 invalid_input on q', async () => {
    const as = { token: who.access };
    assertError(await t.client.get('/nodes?q=2019', as), 400, 'invalid_input', 'q');
    assertError(await t.client.get('/nodes?filter=recent&q=2019', as), 400, 'invalid_input', 'q');
    assertError(await t.client.get(`/nodes/gallery/months?q=${'a'.repeat(201)}`, as), 400, 'invalid_input', 'q');
    assertError(await t.client.get(`/nodes?filter=gallery&q=${'a'.repeat(201)}`, as), 400, 'invalid_input', 'q');
    const nine = 'one two three four five six seven eight nine';
    assertError(await t.client.get(`/nodes/gallery/months?q=${encodeURIComponent(nine)}`, as), 400, 'invalid_input', 'q');
    assertError(await t.client.get(`/nodes?filter=gallery&q=${encodeURIComponent(nine)}`, as), 400, 'invalid_input', 'q');
    // Dates do not count against the words.
    const dated = await t.client.get(
      `/nodes/gallery/months?q=${encodeURIComponent('christmas 2018 one two three four five six seven eight')}`,
      as,
    );
    assert.equal(dated.status, 200);
  });

  test('a cursor that is not one: 400 invalid_cursor', async () => {
    assertError(await t.client.get('/nodes?filter=gallery&q=2019&cursor=nonsense', { token: who.access }), 400, 'invalid_cursor', 'cursor');
  });

  test('what looks like SQL or a LIKE pattern is only text', async () => {
    assert.deepEqual((await search("%' OR 1=1 --")).names, []);
    assert.deepEqual((await search('%')).names, []);
    assert.deepEqual((await search('_')).names, ['PXL_20191005_beach.jpg']);
  });
});
