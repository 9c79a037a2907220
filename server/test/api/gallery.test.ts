import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { uploadFile } from '../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;
let bob: SignedIn;

/** A real JPEG taken at `when` (EXIF DateTimeOriginal, read as the camera's wall clock). */
async function photoTaken(when: string): Promise<Buffer> {
  return sharp({ create: { width: 32, height: 24, channels: 3, background: '#336699' } })
    .jpeg()
    .withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when } })
    .toBuffer();
}

before(async () => {
  t = await startTestServer({ mediaWorkersAtStart: true });
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  bob = await createMember(t.client, owner, 'bob');
  const taken = ['2023:12:31 23:59:59', '2024:01:01 00:00:00', '2024:01:15 12:00:00', '2024:03:02 08:00:00', '2024:03:30 18:00:00', '2024:03:31 23:00:00'];
  for (const [i, when] of taken.entries()) await uploadFile(t.api, alice.access, await photoTaken(when), { filename: `p${i}.jpg`, filetype: 'image/jpeg' });
  // Not media: never in the gallery.
  await uploadFile(t.api, alice.access, Buffer.from('notes'), { filename: 'notes.txt', filetype: 'text/plain' });
  await uploadFile(t.api, bob.access, await photoTaken('2024:03:10 10:00:00'), { filename: 'bob.jpg', filetype: 'image/jpeg' });
  await t.server.mediaIdle();
});
after(() => t.close());

describe('GET /nodes/gallery/months', () => {
  test('counts the account\'s photos and videos per month of capture time, newest first, with each month\'s range', async () => {
    const res = await t.client.get('/nodes/gallery/months', { token: alice.access });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.items, [
      { month: '2024-03', start: Date.UTC(2024, 2, 1), end: Date.UTC(2024, 3, 1), count: 3 },
      { month: '2024-01', start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 1, 1), count: 2 },
      { month: '2023-12', start: Date.UTC(2023, 11, 1), end: Date.UTC(2024, 0, 1), count: 1 },
    ]);
  });

  test('another account\'s photos never count, and trashed ones drop out', async () => {
    const bobs = await t.client.get('/nodes/gallery/months', { token: bob.access });
    assert.deepEqual(bobs.body.items.map((m: { month: string; count: number }) => [m.month, m.count]), [['2024-03', 1]]);
    const march = await t.client.get(`/nodes?filter=gallery&taken_from=${Date.UTC(2024, 2, 1)}&taken_to=${Date.UTC(2024, 3, 1)}`, { token: alice.access });
    const trashed = march.body.items[0].id;
    assert.equal((await t.client.delete(`/nodes/${trashed}`, { token: alice.access })).status, 200);
    const after = await t.client.get('/nodes/gallery/months', { token: alice.access });
    assert.equal(after.body.items[0].count, 2);
    assert.equal((await t.client.post(`/nodes/${trashed}/restore`, undefined, { token: alice.access })).status, 200);
  });

  test('without a session it answers 401', async () => {
    const res = await t.client.get('/nodes/gallery/months');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'unauthorized');
  });
});

describe('GET /nodes?filter=gallery with taken_from and taken_to', () => {
  test('lists exactly the photos taken in [from, to), newest first, paged with cursors', async () => {
    const from = Date.UTC(2024, 0, 1);
    const to = Date.UTC(2024, 2, 31);
    const first = await t.client.get(`/nodes?filter=gallery&taken_from=${from}&taken_to=${to}&limit=2`, { token: alice.access });
    assert.equal(first.status, 200);
    const second = await t.client.get(`/nodes?filter=gallery&taken_from=${from}&taken_to=${to}&limit=2&cursor=${first.body.next_cursor}`, { token: alice.access });
    const names = [...first.body.items, ...second.body.items].map((n: { name: string }) => n.name);
    assert.deepEqual(names, ['p4.jpg', 'p3.jpg', 'p2.jpg', 'p1.jpg']);
    assert.equal(second.body.next_cursor, null);
  });

  test('the range applies to the gallery only: elsewhere it is a 400 naming the field', async () => {
    const res = await t.client.get(`/nodes?parent_id=root&taken_from=0`, { token: alice.access });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'invalid_input');
    assert.equal(res.body.error.field, 'taken_from');
    const bad = await t.client.get(`/nodes?filter=gallery&taken_from=soon`, { token: alice.access });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'invalid_input');
  });
});
