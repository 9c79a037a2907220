import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Partner sharing (/partner-shares): an account shows its photos and videos, all of them or
// those taken from a day on, in another account's family timeline; the owner starts, changes
// and stops it, and both see who shares with whom.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `partner${++accounts}`);
}

async function share(owner: SignedIn, partner: SignedIn, since?: string | null): Promise<any> {
  const res = await t.client.post(
    '/partner-shares',
    { user_id: partner.userId, ...(since !== undefined && { since }) },
    { token: owner.access },
  );
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function familyNames(who: SignedIn): Promise<string[]> {
  const months = (await t.client.get('/nodes/gallery/months?scope=family', { token: who.access })).body.items as { month: string }[];
  const names: string[] = [];
  for (const { month } of months) {
    const page = await t.client.get(`/nodes?filter=gallery&scope=family&month=${month}&limit=1000`, { token: who.access });
    names.push(...page.body.items.map((n: { name: string }) => n.name));
  }
  return names;
}

describe('POST /partner-shares', () => {
  test('shares from a day: 201 {owner, partner, since, created_at, updated_at}; the partner sees exactly the photos taken from that day; again changes the day, null shares them all', async () => {
    const [dad, mum] = [await person(), await person()];
    await uploadPhoto(t, dad, 'dad-2021-06.jpg', { when: '2021:06:30 23:59:59' });
    await uploadPhoto(t, dad, 'dad-2022-01-01.jpg', { when: '2022:01:01 00:00:00' });
    await uploadPhoto(t, dad, 'dad-2023-03.jpg', { when: '2023:03:03 03:03:03' });
    await t.server.mediaIdle();

    const shared = await share(dad, mum, '2022-01-01');
    assert.deepEqual(Object.keys(shared).sort(), ['created_at', 'owner', 'partner', 'since', 'updated_at']);
    assert.deepEqual(shared.owner, { id: dad.userId, name: dad.username, avatar_seed: shared.owner.avatar_seed });
    assert.equal(shared.partner.id, mum.userId);
    assert.equal(shared.since, '2022-01-01');
    // The first second of the day is in; the last second before it is not.
    assert.deepEqual(await familyNames(mum), ['dad-2023-03.jpg', 'dad-2022-01-01.jpg']);
    // Her own timeline is hers alone; his has nothing of hers.
    assert.deepEqual((await t.client.get('/nodes/gallery/months', { token: mum.access })).body.items, []);
    assert.deepEqual(await familyNames(dad), ['dad-2023-03.jpg', 'dad-2022-01-01.jpg', 'dad-2021-06.jpg']);

    const later = await share(dad, mum, '2023-01-01');
    assert.equal(later.since, '2023-01-01');
    assert.equal(later.created_at, shared.created_at);
    assert.deepEqual(await familyNames(mum), ['dad-2023-03.jpg']);
    assert.equal((await share(dad, mum, null)).since, null);
    assert.deepEqual(await familyNames(mum), ['dad-2023-03.jpg', 'dad-2022-01-01.jpg', 'dad-2021-06.jpg']);
    // Omitted is all of them too.
    assert.equal((await share(dad, mum)).since, null);
  });

  test('refusals: herself 400 cannot_share_with_self, nobody or a disabled account 400 unknown_user, a day that is none or not YYYY-MM-DD 400 invalid_input on since, no token 401', async () => {
    const [dad, mum, gone] = [await person(), await person(), await person()];
    assertError(
      await t.client.post('/partner-shares', { user_id: dad.userId }, { token: dad.access }),
      400,
      'cannot_share_with_self',
      'user_id',
    );
    assertError(await t.client.post('/partner-shares', { user_id: 'nobody' }, { token: dad.access }), 400, 'unknown_user', 'user_id');
    assert.equal((await t.client.patch(`/admin/users/${gone.userId}`, { disabled: true }, { token: admin.access })).status, 200);
    assertError(await t.client.post('/partner-shares', { user_id: gone.userId }, { token: dad.access }), 400, 'unknown_user', 'user_id');
    for (const since of ['2023-02-30', '2023-13-01', '2023-1-1', '1 January 2023', '0000-01-01', 20230101]) {
      assertError(
        await t.client.post('/partner-shares', { user_id: mum.userId, since }, { token: dad.access }),
        400,
        'invalid_input',
        'since',
      );
    }
    assertError(await t.client.post('/partner-shares', { since: '2023-01-01' }, { token: dad.access }), 400, 'missing_field', 'user_id');
    assertError(await t.client.post('/partner-shares', { user_id: mum.userId }), 401, 'unauthorized');
    // Nothing was shared by any of it.
    assert.deepEqual((await t.client.get('/partner-shares', { token: mum.access })).body, { items: [], next_cursor: null });
  });
});

describe('GET /partner-shares', () => {
  test('each sees the shares they give and receive, first started first; nobody else sees them', async () => {
    const [dad, mum, emma] = [await person(), await person(), await person()];
    const dadToMum = await share(dad, mum, '2020-05-05');
    const mumToDad = await share(mum, dad);
    const forMum = (await t.client.get('/partner-shares', { token: mum.access })).body;
    assert.deepEqual(forMum, { items: [dadToMum, mumToDad], next_cursor: null });
    assert.deepEqual((await t.client.get('/partner-shares', { token: dad.access })).body.items, [dadToMum, mumToDad]);
    assert.deepEqual((await t.client.get('/partner-shares', { token: emma.access })).body.items, []);
    assertError(await t.client.get('/partner-shares'), 401, 'unauthorized');
  });
});

describe('DELETE /partner-shares/{userId}', () => {
  test('the owner stops it: 204, her timeline loses his photos at once (she hears partner_share.deleted with access_lost); again 404; the partner cannot stop his', async () => {
    const [dad, mum] = [await person(), await person()];
    const photo = await uploadPhoto(t, dad, 'dad.jpg', { when: '2023:03:03 03:03:03' });
    await t.server.mediaIdle();
    const events = await EventSocket.open(t.url, mum.access);
    try {
      await share(dad, mum);
      await events.waitFor(
        (m) => m.type === 'partner_share.changed' && m.payload.owner_id === dad.userId && m.payload.partner_id === mum.userId,
      );
      assert.equal((await t.client.get(`/nodes/${photo}`, { token: mum.access })).status, 200);
      // She stops nothing of his: her id in the path is her own share with him, which does not exist.
      assertError(await t.client.delete(`/partner-shares/${dad.userId}`, { token: mum.access }), 404, 'not_found');
      assert.equal((await t.client.delete(`/partner-shares/${mum.userId}`, { token: dad.access })).status, 204);
      const gone = await events.waitFor((m) => m.type === 'partner_share.deleted');
      assert.deepEqual(gone.payload, { owner_id: dad.userId, partner_id: mum.userId, access_lost: true });
      assert.deepEqual(await familyNames(mum), []);
      assertError(await t.client.get(`/nodes/${photo}`, { token: mum.access }), 404, 'not_found');
      assertError(await t.client.delete(`/partner-shares/${mum.userId}`, { token: dad.access }), 404, 'not_found');
      assertError(await t.client.delete(`/partner-shares/${mum.userId}`), 401, 'unauthorized');
    } finally {
      events.close();
    }
  });

  test('a folder of his trashed takes its photos out of her open timeline: she hears that his photos changed, never the folder', async () => {
    const [dad, mum] = [await person(), await person()];
    const folder = (await t.client.post('/nodes/folder', { name: 'Private name' }, { token: dad.access })).body;
    await uploadPhoto(t, dad, 'in-folder.jpg', { when: '2023:03:03 03:03:03', parentId: folder.id });
    await t.server.mediaIdle();
    await share(dad, mum);
    assert.deepEqual(await familyNames(mum), ['in-folder.jpg']);
    const events = await EventSocket.open(t.url, mum.access);
    try {
      assert.equal((await t.client.delete(`/nodes/${folder.id}`, { token: dad.access })).status, 200);
      await events.waitFor((m) => m.type === 'partner_share.changed' && m.payload.owner_id === dad.userId);
      assert.ok(!JSON.stringify(events.pending()).includes('Private name'), 'the folder is not hers to know');
      assert.deepEqual(await familyNames(mum), []);
    } finally {
      events.close();
    }
  });
});
