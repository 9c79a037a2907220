import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, propfindBody, rawRequest, responsesOf, type DriveLogin } from './dav-support.ts';

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

describe('WebDAV: signing in', () => {
  test('OPTIONS answers without credentials: DAV classes 1 and 2 and the methods', async () => {
    const res = await dav(t, 'OPTIONS', '/dav/');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('dav'), '1, 2');
    for (const method of ['PROPFIND', 'GET', 'PUT', 'MKCOL', 'DELETE', 'LOCK', 'UNLOCK'])
      assert.match(res.headers.get('allow')!, new RegExp(method));
  });

  test('no credentials, a wrong drive password, or the account password: 401 with the Basic challenge', async () => {
    const cases: (DriveLogin | undefined)[] = [
      undefined,
      { username: 'owner', password: 'AAAAA-AAAAA-AAAAA-AAAAA-AAAAA-A' },
      { username: 'owner', password: 'owner-password-1' },
    ];
    for (const login of cases) {
      const res = await dav(t, 'PROPFIND', '/dav/', { login, headers: { Depth: '0' } });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate')!, /^Basic realm="Hearth"/);
    }
  });
});

describe('WebDAV: PROPFIND', () => {
  test('depth 1 lists the top with the live properties; depth 0 the resource alone', async () => {
    assert.equal((await dav(t, 'MKCOL', '/dav/Photos', { login: drive })).status, 201);
    assert.equal(
      (await dav(t, 'PUT', '/dav/notes%20%26%20plans.txt', { login: drive, body: 'hello', headers: { 'Content-Type': 'text/plain' } }))
        .status,
      201,
    );

    const res = await dav(t, 'PROPFIND', '/dav/', { login: drive, headers: { Depth: '1' } });
    assert.equal(res.status, 207);
    assert.match(res.headers.get('content-type')!, /application\/xml/);
    const byHref = responsesOf(await res.text());
    assert.deepEqual([...byHref.keys()].sort(), ['/dav/', '/dav/Photos/', '/dav/Shared%20with%20me/', '/dav/notes%20%26%20plans.txt']);
    assert.match(byHref.get('/dav/Photos/')!, /<d:resourcetype><d:collection\/><\/d:resourcetype>/);
    const file = byHref.get('/dav/notes%20%26%20plans.txt')!;
    assert.match(file, /<d:displayname>notes &amp; plans.txt<\/d:displayname>/, 'names are escaped');
    assert.match(file, /<d:getcontentlength>5<\/d:getcontentlength>/);
    assert.match(file, /<d:getcontenttype>text\/plain<\/d:getcontenttype>/);
    assert.match(file, /<d:getlastmodified>\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d GMT<\/d:getlastmodified>/, 'RFC 1123');
    assert.match(file, /<d:creationdate>\d{4}-\d\d-\d\dT/);
    assert.match(file, /<d:getetag>&quot;[^<]+&quot;<\/d:getetag>/);
    assert.match(file, /<d:resourcetype\/>/);

    const zero = await dav(t, 'PROPFIND', '/dav/Photos/', { login: drive, headers: { Depth: '0' } });
    assert.equal(zero.status, 207);
    assert.deepEqual([...responsesOf(await zero.text()).keys()], ['/dav/Photos/']);
  });

  test('named properties: quotas found, unknown ones in a 404 propstat', async () => {
    await t.client.patch(`/admin/users/${alice.userId}`, { quota_bytes: 1_000_000 }, { token: owner.access });
    const body = propfindBody('<D:quota-used-bytes/><D:quota-available-bytes/><D:getetag/><X:color xmlns:X="urn:example"/>');
    const res = await dav(t, 'PROPFIND', '/dav/', { login: aliceDrive, headers: { Depth: '0' }, body });
    assert.equal(res.status, 207);
    const xml = await res.text();
    const [ok, missing] = xml.split('404 Not Found')[0]!.split('HTTP/1.1 200 OK');
    assert.match(ok!, /<d:quota-used-bytes>0<\/d:quota-used-bytes><d:quota-available-bytes>1000000<\/d:quota-available-bytes>/);
    assert.match(
      missing!,
      /<d:getetag\/><color xmlns="urn:example"\/>/,
      'a folder has no etag; the unknown property comes back by its own namespace',
    );
  });

  test('Depth infinity (or none) is refused with propfind-finite-depth; a body that is not XML is 400', async () => {
    for (const headers of [{ Depth: 'infinity' }, {} as Record<string, string>]) {
      const res = await dav(t, 'PROPFIND', '/dav/', { login: drive, headers });
      assert.equal(res.status, 403);
      assert.match(await res.text(), /<d:propfind-finite-depth\/>/);
    }
    for (const body of [
      'this is not xml',
      '<D:propfind xmlns:D="DAV:"><D:prop>',
      '<a:propfind xmlns:a="urn:not-dav"><a:allprop/></a:propfind>',
      '<D:propfind xmlns:D="DAV:"><D:prop><bar:foo xmlns:bar=""/></D:prop></D:propfind>',
      '<D:propfind xmlns:D="DAV:"><D:prop><x:foo/></D:prop></D:propfind>',
    ]) {
      const res = await dav(t, 'PROPFIND', '/dav/', { login: drive, headers: { Depth: '0' }, body });
      assert.equal(res.status, 400, body);
    }
  });

  test("each account sees only its own tree: another account's folder is not there", async () => {
    assert.equal((await dav(t, 'PROPFIND', '/dav/Photos/', { login: aliceDrive, headers: { Depth: '0' } })).status, 404);
    const top = await dav(t, 'PROPFIND', '/dav/', { login: aliceDrive, headers: { Depth: '1' } });
    assert.deepEqual([...responsesOf(await top.text()).keys()], ['/dav/', '/dav/Shared%20with%20me/']);
  });

  test('paths that would leave the tree: .., encoded slashes and NUL are refused', async () => {
    for (const path of ['/dav/../api/v1/me', '/dav/Photos/%2e%2e/x', '/dav/a%2Fb', '/dav/a%5Cb', '/dav/a%00b', '/dav/%ff']) {
      const status = await rawRequest(t, 'PROPFIND', path, drive);
      assert.ok(status === 400 || status === 404, `${path}: ${status}`);
    }
  });
});

describe('WebDAV: GET and HEAD', () => {
  test('the bytes, a range, the same ETag as PROPFIND, and 304 for it', async () => {
    await dav(t, 'PUT', '/dav/Photos/range.bin', { login: drive, body: '0123456789' });
    const get = await dav(t, 'GET', '/dav/Photos/range.bin', { login: drive });
    assert.equal(get.status, 200);
    assert.equal(await get.text(), '0123456789');
    const etag = get.headers.get('etag')!;
    const found = await dav(t, 'PROPFIND', '/dav/Photos/range.bin', { login: drive, headers: { Depth: '0' } });
    assert.ok((await found.text()).includes(`<d:getetag>${etag.replaceAll('"', '&quot;')}</d:getetag>`));

    const part = await dav(t, 'GET', '/dav/Photos/range.bin', { login: drive, headers: { Range: 'bytes=2-4' } });
    assert.equal(part.status, 206);
    assert.equal(await part.text(), '234');
    const head = await dav(t, 'HEAD', '/dav/Photos/range.bin', { login: drive });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), '10');
    assert.equal((await dav(t, 'GET', '/dav/Photos/range.bin', { login: drive, headers: { 'If-None-Match': etag } })).status, 304);
    assert.equal((await dav(t, 'GET', '/dav/Photos/nothing.bin', { login: drive })).status, 404);
  });
});
