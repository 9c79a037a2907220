import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import { heldGet, type HeldResponse } from '../../helpers/held-responses.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { basic, dav, driveLogin, type DriveLogin } from './dav-support.ts';

let t: TestServer;
let drive: DriveLogin;
const held: HeldResponse[] = [];
const MINIREDIR = 'Microsoft-WebDAV-MiniRedir/10.0.19045';

before(async () => {
  // Two downloads at once per address, so a third shows the limit.
  t = await startTestServer({ downloads: { perAddress: 2, perSession: 1000, perLink: 1000 } });
  drive = await driveLogin(t, await setupOwner(t.client), 'owner');
});
after(async () => {
  for (const response of held) response.close();
  await t.close();
});

describe("WebDAV: Windows' probe of the server's root", () => {
  test('Explorer asking / what it speaks hears the drive door (DAV: 1, 2), unsigned', async () => {
    const res = await dav(t, 'OPTIONS', '/', { headers: { 'User-Agent': MINIREDIR } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('dav'), '1, 2');
    assert.equal(res.headers.get('ms-author-via'), 'DAV');
  });

  test("Office's DavClnt looking for the drive at / is sent to /dav/", async () => {
    const res = await dav(t, 'PROPFIND', '/', { headers: { 'User-Agent': 'DavClnt', Depth: '0' }, redirect: 'manual' });
    assert.equal(res.status, 301);
    assert.equal(new URL(res.headers.get('location')!, t.url).pathname, '/dav/');
  });

  test('a browser asking / what it speaks, and a GET of /, are not the drive door', async () => {
    const res = await dav(t, 'OPTIONS', '/', { headers: { 'User-Agent': 'Mozilla/5.0' } });
    assert.equal(res.headers.get('dav'), null);
    // A GET of / is the web app's, whoever asks (the test server has no built web app: 404).
    const page = await dav(t, 'GET', '/', { headers: { 'User-Agent': MINIREDIR } });
    assert.equal(page.headers.get('dav'), null);
  });
});

describe('WebDAV: GETs at once are counted with the downloads', () => {
  test("a drive's third GET at once from one address is 429 with Retry-After, in a DAV:error body; a GET ended frees its place", async () => {
    const film = randomBytes(16 * 1024 * 1024);
    assert.equal((await dav(t, 'PUT', '/dav/film.mp4', { login: drive, body: film })).status, 201);
    const url = `${t.url}/dav/film.mp4`;
    const headers = { Authorization: basic(drive) };
    for (let i = 0; i < 2; i++) {
      const open = await heldGet(url, { headers });
      held.push(open);
      assert.equal(open.status, 200);
    }
    const refused = await heldGet(url, { headers });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '5');
    assert.match(String(refused.body), /<h:code>too_many_downloads<\/h:code>/);
    held.shift()!.close();
    const deadline = Date.now() + 30_000;
    let again: HeldResponse;
    do {
      again = await heldGet(url, { headers });
      held.push(again);
    } while (again.status === 429 && Date.now() < deadline && (await new Promise((r) => setTimeout(r, 50)), true));
    assert.equal(again.status, 200);
  });
});
