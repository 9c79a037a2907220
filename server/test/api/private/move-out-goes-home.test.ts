import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { uploadPhoto } from '../../helpers/albums.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// "Move out of Private" puts a thing back in the folder it was moved in from; when that folder
// is gone, in the trash or in Private itself, it lands at the top of My files.

let t: TestServer;
let mum: SignedIn;

async function call(method: string, route: string, body?: unknown) {
  return t.client.request(method, route, { token: mum.access, ...(body !== undefined && { body }) });
}

async function ok(method: string, route: string, body?: unknown): Promise<any> {
  const res = await call(method, route, body);
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function namesIn(parentId: string | null): Promise<string[]> {
  const items = (await ok('GET', parentId ? `/nodes?parent_id=${parentId}` : '/nodes')).items as { name: string }[];
  return items.map((n) => n.name);
}

before(async () => {
  t = await startTestServer();
  const admin = await setupOwner(t.client);
  mum = await createMember(t.client, admin, 'mum');
  await ok('POST', '/private/unlock', { password: mum.password });
});
after(() => t.close());

describe('moving out of Private', () => {
  test('goes back to the folder it was moved in from, under a free name if its own was taken meanwhile', async () => {
    const holidays = await ok('POST', '/nodes/folder', { name: 'Holidays' });
    const beach = await uploadPhoto(t, mum, 'beach.jpg', { parentId: holidays.id, when: '2023:08:01 10:00:00' });
    await ok('POST', `/nodes/${beach}/private`);
    assert.deepEqual(await namesIn(holidays.id), []);
    await uploadPhoto(t, mum, 'beach.jpg', { parentId: holidays.id });
    const out = await ok('DELETE', `/nodes/${beach}/private`);
    assert.equal(out.parent_id, holidays.id);
    assert.equal(out.name, 'beach (1).jpg');
    assert.deepEqual((await namesIn(holidays.id)).sort(), ['beach (1).jpg', 'beach.jpg']);
  });

  test('a whole folder goes back inside the folder it was in', async () => {
    const family = await ok('POST', '/nodes/folder', { name: 'Family' });
    const trip = await ok('POST', '/nodes/folder', { name: 'Trip', parent_id: family.id });
    await ok('POST', `/nodes/${trip.id}/private`);
    assert.equal((await ok('DELETE', `/nodes/${trip.id}/private`)).parent_id, family.id);
  });

  test('what came from the top of My files goes back there', async () => {
    const top = await uploadPhoto(t, mum, 'top.jpg');
    await ok('POST', `/nodes/${top}/private`);
    assert.equal((await ok('DELETE', `/nodes/${top}/private`)).parent_id, null);
  });

  test('when its folder is in the trash, deleted for good, or itself now in Private, it goes to the top of My files', async () => {
    const cases: [string, (folderId: string) => Promise<unknown>][] = [
      ['trashed', (id) => ok('DELETE', `/nodes/${id}`)],
      [
        'deleted',
        async (id) => {
          await ok('DELETE', `/nodes/${id}`);
          await ok('DELETE', `/nodes/${id}/permanent`);
        },
      ],
      ['private', (id) => ok('POST', `/nodes/${id}/private`)],
    ];
    for (const [how, gone] of cases) {
      const folder = await ok('POST', '/nodes/folder', { name: `Album ${how}` });
      const photo = await uploadPhoto(t, mum, `${how}.jpg`, { parentId: folder.id });
      await ok('POST', `/nodes/${photo}/private`);
      await gone(folder.id);
      const out = await ok('DELETE', `/nodes/${photo}/private`);
      assert.equal(out.parent_id, null, how);
      assert.ok((await namesIn(null)).includes(`${how}.jpg`), how);
    }
  });

  test('moved in again from elsewhere, it goes back to the newer place', async () => {
    const first = await ok('POST', '/nodes/folder', { name: 'First' });
    const second = await ok('POST', '/nodes/folder', { name: 'Second' });
    const photo = await uploadPhoto(t, mum, 'again.jpg', { parentId: first.id });
    await ok('POST', `/nodes/${photo}/private`);
    await ok('DELETE', `/nodes/${photo}/private`);
    await ok('PATCH', `/nodes/${photo}`, { parent_id: second.id });
    await ok('POST', `/nodes/${photo}/private`);
    assert.equal((await ok('DELETE', `/nodes/${photo}/private`)).parent_id, second.id);
  });
});
