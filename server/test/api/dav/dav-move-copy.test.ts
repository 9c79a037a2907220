import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, type DriveLogin } from './dav-support.ts';

let t: TestServer;
let owner: SignedIn;
let drive: DriveLogin;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  drive = await driveLogin(t, owner, 'owner');
});
after(() => t.close());

function to(path: string): Record<string, string> {
  return { Destination: `${t.url}${path}` };
}

async function text(path: string): Promise<string | number> {
  const res = await dav(t, 'GET', path, { login: drive });
  return res.status === 200 ? res.text() : res.status;
}

describe('WebDAV: MOVE', () => {
  test('a rename keeps the node (same id, its versions); a move into another folder', async () => {
    await dav(t, 'MKCOL', '/dav/A', { login: drive });
    await dav(t, 'MKCOL', '/dav/B', { login: drive });
    await dav(t, 'PUT', '/dav/A/one.txt', { login: drive, body: 'one' });
    const before = (await t.client.get('/nodes', { token: owner.access })).body.items.find((n: any) => n.name === 'A');
    const inA = (await t.client.get(`/nodes?parent_id=${before.id}`, { token: owner.access })).body.items[0];

    assert.equal((await dav(t, 'MOVE', '/dav/A/one.txt', { login: drive, headers: to('/dav/B/uno.txt') })).status, 201);
    assert.equal(await text('/dav/A/one.txt'), 404);
    assert.equal(await text('/dav/B/uno.txt'), 'one');
    assert.equal((await t.client.get(`/nodes/${inA.id}`, { token: owner.access })).body.name, 'uno.txt', 'the same node');
    assert.equal((await dav(t, 'MOVE', '/dav/B/uno.txt', { login: drive, headers: to('/dav/B/UNO.txt') })).status, 201, 'case only');
  });

  test('Overwrite F onto something: 412; T (default): the old one goes to the trash, 204', async () => {
    await dav(t, 'PUT', '/dav/keep.txt', { login: drive, body: 'keep' });
    await dav(t, 'PUT', '/dav/new.txt', { login: drive, body: 'new' });
    assert.equal((await dav(t, 'MOVE', '/dav/new.txt', { login: drive, headers: { ...to('/dav/keep.txt'), Overwrite: 'F' } })).status, 412);
    assert.equal(await text('/dav/keep.txt'), 'keep');
    assert.equal((await dav(t, 'MOVE', '/dav/new.txt', { login: drive, headers: to('/dav/keep.txt') })).status, 204);
    assert.equal(await text('/dav/keep.txt'), 'new');
    const trash = await t.client.get('/trash', { token: owner.access });
    assert.ok(
      trash.body.items.some((n: any) => n.name === 'keep.txt'),
      'the replaced file is in the trash',
    );
  });

  test('no parent: 409; into itself or onto itself: 403; another server: 502; no Destination: 400', async () => {
    assert.equal((await dav(t, 'MOVE', '/dav/A', { login: drive, headers: to('/dav/Nope/A') })).status, 409);
    assert.equal((await dav(t, 'MOVE', '/dav/A', { login: drive, headers: to('/dav/A/inner') })).status, 403);
    assert.equal((await dav(t, 'MOVE', '/dav/A', { login: drive, headers: to('/dav/A') })).status, 403);
    assert.equal(
      (await dav(t, 'MOVE', '/dav/A', { login: drive, headers: { Destination: 'http://elsewhere.example/dav/A2' } })).status,
      502,
    );
    assert.equal((await dav(t, 'MOVE', '/dav/A', { login: drive })).status, 400);
    assert.equal((await dav(t, 'MOVE', '/dav/A', { login: drive, headers: to('/dav/a%2Fb') })).status, 400);
  });
});

describe('WebDAV: COPY', () => {
  test('a file: a new file with the same bytes; the source stays', async () => {
    await dav(t, 'PUT', '/dav/src.txt', { login: drive, body: 'bytes' });
    assert.equal((await dav(t, 'COPY', '/dav/src.txt', { login: drive, headers: to('/dav/B/copy.txt') })).status, 201);
    assert.equal(await text('/dav/B/copy.txt'), 'bytes');
    assert.equal(await text('/dav/src.txt'), 'bytes');
    assert.equal(
      (await dav(t, 'COPY', '/dav/src.txt', { login: drive, headers: { ...to('/dav/B/copy.txt'), Overwrite: 'F' } })).status,
      412,
    );
  });

  test('a folder: with all it holds at Depth infinity, empty at Depth 0', async () => {
    await dav(t, 'MKCOL', '/dav/Tree', { login: drive });
    await dav(t, 'MKCOL', '/dav/Tree/sub', { login: drive });
    await dav(t, 'PUT', '/dav/Tree/sub/leaf.txt', { login: drive, body: 'leaf' });
    assert.equal((await dav(t, 'COPY', '/dav/Tree', { login: drive, headers: to('/dav/Tree2') })).status, 201);
    assert.equal(await text('/dav/Tree2/sub/leaf.txt'), 'leaf');
    assert.equal((await dav(t, 'COPY', '/dav/Tree', { login: drive, headers: { ...to('/dav/Tree3'), Depth: '0' } })).status, 201);
    assert.equal((await dav(t, 'PROPFIND', '/dav/Tree3/sub', { login: drive, headers: { Depth: '0' } })).status, 404);
    assert.equal((await dav(t, 'COPY', '/dav/Tree', { login: drive, headers: to('/dav/Tree/sub/again') })).status, 403);
  });
});
