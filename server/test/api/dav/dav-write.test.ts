import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, type DriveLogin } from './dav-support.ts';

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;
let drive: DriveLogin;
let aliceDrive: DriveLogin;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  drive = await driveLogin(t, owner, 'owner');
  aliceDrive = await driveLogin(t, alice, 'alice');
});
after(() => t.close());

/** The node the web app lists under that name at the top of the owner's files. */
async function topNode(who: SignedIn, name: string): Promise<any> {
  const res = await t.client.get('/nodes', { token: who.access });
  return res.body.items.find((node: any) => node.name === name);
}

describe('WebDAV: PUT', () => {
  test('a new file is 201 and a node like any upload; an overwrite is 204, a new version with a new ETag', async () => {
    const made = await dav(t, 'PUT', '/dav/report.txt', { login: drive, body: 'first' });
    assert.equal(made.status, 201);
    const node = await topNode(owner, 'report.txt');
    assert.equal(node.size, 5);
    assert.equal(made.headers.get('etag'), `"${node.id}-${node.version}"`);

    const again = await dav(t, 'PUT', '/dav/report.txt', { login: drive, body: 'second!' });
    assert.equal(again.status, 204);
    assert.notEqual(again.headers.get('etag'), made.headers.get('etag'), 'the ETag changes with the content');
    const versions = await t.client.get(`/nodes/${node.id}/versions`, { token: owner.access });
    assert.equal(versions.body.items.length, 2, 'the old content is kept as a version');
    assert.equal(await (await dav(t, 'GET', '/dav/report.txt', { login: drive })).text(), 'second!');
  });

  test('a chunked PUT without Content-Length (Finder) is stored whole', async () => {
    const parts = ['chunk one, ', 'chunk two, ', 'the end'];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const res = await dav(t, 'PUT', '/dav/chunked.txt', { login: drive, body });
    assert.equal(res.status, 201);
    assert.equal(await (await dav(t, 'GET', '/dav/chunked.txt', { login: drive })).text(), parts.join(''));
  });

  test('past the quota: 507, and no file is left behind', async () => {
    await t.client.patch(`/admin/users/${alice.userId}`, { quota_bytes: 1000 }, { token: owner.access });
    const res = await dav(t, 'PUT', '/dav/big.bin', { login: aliceDrive, body: Buffer.alloc(5000) });
    assert.equal(res.status, 507);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i += 1) controller.enqueue(new Uint8Array(1000));
        controller.close();
      },
    });
    assert.equal((await dav(t, 'PUT', '/dav/big2.bin', { login: aliceDrive, body: chunked })).status, 507);
    assert.equal(await topNode(alice, 'big.bin'), undefined);
    assert.equal(await topNode(alice, 'big2.bin'), undefined);
  });

  test('into a folder that does not exist: 409; onto a folder: 405', async () => {
    assert.equal((await dav(t, 'PUT', '/dav/missing/file.txt', { login: drive, body: 'x' })).status, 409);
    assert.equal((await dav(t, 'MKCOL', '/dav/Folder', { login: drive })).status, 201);
    assert.equal((await dav(t, 'PUT', '/dav/Folder', { login: drive, body: 'x' })).status, 405);
  });
});

describe('WebDAV: MKCOL and DELETE', () => {
  test('MKCOL: 201, 405 when there, 409 without the parent, 415 with a body', async () => {
    assert.equal((await dav(t, 'MKCOL', '/dav/Trips', { login: drive })).status, 201);
    assert.equal((await dav(t, 'MKCOL', '/dav/Trips/2026/', { login: drive })).status, 201);
    assert.equal((await dav(t, 'MKCOL', '/dav/Trips', { login: drive })).status, 405);
    assert.equal((await dav(t, 'MKCOL', '/dav/Nowhere/inner', { login: drive })).status, 409);
    assert.equal(
      (await dav(t, 'MKCOL', '/dav/WithBody', { login: drive, body: '<x/>', headers: { 'Content-Type': 'application/xml' } })).status,
      415,
    );
    assert.equal(await topNode(owner, 'WithBody'), undefined);
    assert.equal((await topNode(owner, 'Trips')).type, 'folder');
  });

  test('DELETE moves to the trash, as in the app; then 404', async () => {
    await dav(t, 'PUT', '/dav/Trips/2026/ticket.pdf', { login: drive, body: '%PDF-' });
    const trips = await topNode(owner, 'Trips');
    assert.equal((await dav(t, 'DELETE', '/dav/Trips/', { login: drive })).status, 204);
    assert.equal(await topNode(owner, 'Trips'), undefined);
    const trash = await t.client.get('/trash', { token: owner.access });
    assert.ok(
      trash.body.items.some((node: any) => node.id === trips.id),
      'the folder is in the trash, restorable',
    );
    assert.equal((await dav(t, 'DELETE', '/dav/Trips/', { login: drive })).status, 404);
    assert.equal((await dav(t, 'GET', '/dav/Trips/2026/ticket.pdf', { login: drive })).status, 404);
    assert.equal((await dav(t, 'DELETE', '/dav/', { login: drive })).status, 403);
  });

  test("another account's drive cannot delete or overwrite the owner's files", async () => {
    assert.equal((await dav(t, 'DELETE', '/dav/report.txt', { login: aliceDrive })).status, 404);
    assert.equal(
      (await dav(t, 'PUT', '/dav/report.txt', { login: aliceDrive, body: 'mine' })).status,
      201,
      'a file of its own, by that name',
    );
    assert.equal(await (await dav(t, 'GET', '/dav/report.txt', { login: drive })).text(), 'second!');
  });
});

describe("WebDAV: Finder's companions", () => {
  test('._ AppleDouble files and .DS_Store are kept, but never join Photos', async () => {
    const appleDouble = Buffer.concat([Buffer.from([0x00, 0x05, 0x16, 0x07, 0x00, 0x02, 0x00, 0x00]), Buffer.alloc(4000)]);
    assert.equal(
      (await dav(t, 'PUT', '/dav/._holiday.jpg', { login: drive, body: appleDouble, headers: { 'Content-Type': 'image/jpeg' } })).status,
      201,
    );
    assert.equal((await dav(t, 'PUT', '/dav/.DS_Store', { login: drive, body: Buffer.from('Bud1\0\0\0\0') })).status, 201);
    const companion = await topNode(owner, '._holiday.jpg');
    assert.equal(companion.mime_type, 'application/applefile');
    assert.notEqual((await topNode(owner, '.DS_Store')).mime_type?.startsWith('image/'), true);
    const gallery = await t.client.get('/nodes?filter=gallery', { token: owner.access });
    assert.deepEqual(
      gallery.body.items.map((node: any) => node.name),
      [],
      'neither is a photo',
    );
  });
});
