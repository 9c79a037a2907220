import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { uploadPhoto } from '../../helpers/albums.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, davErrorOf, driveLogin, propfindBody, responsesOf, type DriveLogin } from './dav-support.ts';

// A drive is no session that unlocked Private: what is in Private never opens over WebDAV,
// even while the same person has it open in the app.

let t: TestServer;
let mum: SignedIn;
let drive: DriveLogin;

before(async () => {
  t = await startTestServer();
  mum = await createMember(t.client, await setupOwner(t.client), 'mum');
  drive = await driveLogin(t, mum, 'mum');
});
after(() => t.close());

test('what is in Private is not listed, read or changed over WebDAV, even while the app has it open', async () => {
  const photoId = await uploadPhoto(t, mum, 'secret.jpg');
  const moved = await t.client.request('POST', `/nodes/${photoId}/private`, { token: mum.access });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const opened = await t.client.request('POST', '/private/unlock', { token: mum.access, body: { password: mum.password } });
  assert.equal(opened.status, 200, JSON.stringify(opened.body));
  const folder = await t.client.request('GET', `/nodes/${opened.body.folder_id}`, { token: mum.access });
  const privateName = encodeURIComponent(folder.body.name as string);

  const top = await dav(t, 'PROPFIND', '/dav/', { login: drive, headers: { Depth: '1' }, body: propfindBody('<D:displayname/>') });
  assert.equal(top.status, 207);
  const listed = await top.text();
  assert.doesNotMatch(listed, /secret\.jpg/);

  const inside = await dav(t, 'PROPFIND', `/dav/${privateName}/`, { login: drive, headers: { Depth: '1' } });
  assert.equal(inside.status, 403);
  assert.equal((await davErrorOf(inside)).code, 'private_locked');
  const read = await dav(t, 'GET', `/dav/${privateName}/secret.jpg`, { login: drive });
  assert.ok(read.status === 403 || read.status === 404, `GET answered ${read.status}`);
  const removed = await dav(t, 'DELETE', `/dav/${privateName}/secret.jpg`, { login: drive });
  assert.ok(removed.status === 403 || removed.status === 404, `DELETE answered ${removed.status}`);
  assert.equal((await t.client.request('GET', `/nodes/${photoId}`, { token: mum.access })).status, 200, 'the photo is still there');
  // Listing the top read nothing inside Private.
  assert.ok(![...responsesOf(listed).keys()].some((href) => href.includes('secret')));
});
