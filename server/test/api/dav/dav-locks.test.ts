import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, propfindBody, responsesOf, type DriveLogin } from './dav-support.ts';

let t: TestServer;
let drive: DriveLogin;
let aliceDrive: DriveLogin;

before(async () => {
  t = await startTestServer();
  const owner = await setupOwner(t.client);
  drive = await driveLogin(t, owner, 'owner');
  aliceDrive = await driveLogin(t, await createMember(t.client, owner, 'alice'), 'alice');
});
after(() => t.close());

function lockBody(scope: 'exclusive' | 'shared', owner = 'Test computer'): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:">' +
    `<D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype>` +
    `<D:owner><D:href>${owner}</D:href></D:owner></D:lockinfo>`
  );
}

/** A LOCK over real HTTP; the token from its Lock-Token header. */
async function lock(
  path: string,
  options: { scope?: 'exclusive' | 'shared'; depth?: string; timeout?: string; login?: DriveLogin } = {},
): Promise<{ res: Response; token: string; body: string }> {
  const headers: Record<string, string> = { Depth: options.depth ?? '0', 'Content-Type': 'application/xml' };
  if (options.timeout) headers.Timeout = options.timeout;
  const res = await dav(t, 'LOCK', path, { login: options.login ?? drive, headers, body: lockBody(options.scope ?? 'exclusive') });
  const token = /^<(.+)>$/.exec(res.headers.get('lock-token') ?? '')?.[1] ?? '';
  return { res, token, body: await res.text() };
}

async function put(path: string, body: string, headers: Record<string, string> = {}, login = drive): Promise<number> {
  return (await dav(t, 'PUT', path, { login, body, headers })).status;
}

async function lockdiscovery(path: string): Promise<string> {
  const res = await dav(t, 'PROPFIND', path, { login: drive, headers: { Depth: '0' }, body: propfindBody('<D:lockdiscovery/>') });
  assert.equal(res.status, 207);
  return [...responsesOf(await res.text()).values()][0]!;
}

describe('WebDAV: exclusive locks', () => {
  test('block PUT, DELETE and MOVE without the token (423), and allow them with it in If', async () => {
    assert.equal(await put('/dav/report.txt', 'one'), 201);
    const { res, token, body } = await lock('/dav/report.txt');
    assert.equal(res.status, 200);
    assert.match(token, /^urn:uuid:[0-9a-f-]{36}$/);
    assert.match(body, /<d:lockscope><d:exclusive\/><\/d:lockscope>/);
    assert.match(body, /<d:timeout>Second-3600<\/d:timeout>/, 'no Timeout asked: the hour cap');

    const refused = await dav(t, 'PUT', '/dav/report.txt', { login: drive, body: 'two' });
    assert.equal(refused.status, 423);
    assert.match(await refused.text(), /<d:lock-token-submitted><d:href>\/dav\/report\.txt<\/d:href><\/d:lock-token-submitted>/);
    assert.equal((await dav(t, 'DELETE', '/dav/report.txt', { login: drive })).status, 423);
    const moveAway = { Destination: `${t.url}/dav/moved.txt` };
    assert.equal((await dav(t, 'MOVE', '/dav/report.txt', { login: drive, headers: moveAway })).status, 423);
    const proppatch =
      '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:x">1</x></D:prop></D:set></D:propertyupdate>';
    assert.equal((await dav(t, 'PROPPATCH', '/dav/report.txt', { login: drive, body: proppatch })).status, 423);
    assert.equal(await (await dav(t, 'GET', '/dav/report.txt', { login: drive })).text(), 'one', 'nothing changed');

    const withToken = { If: `(<${token}>)` };
    assert.equal(await put('/dav/report.txt', 'two', withToken), 204);
    assert.equal(await put('/dav/report.txt', 'three', { If: `<${t.url}/dav/report.txt> (<${token}>)` }), 204, 'a tagged list');
    assert.equal((await dav(t, 'MOVE', '/dav/report.txt', { login: drive, headers: { ...moveAway, ...withToken } })).status, 201);
    assert.equal(await put('/dav/report.txt', 'new'), 201, 'the lock stayed with the old name, which is free again');
    assert.doesNotMatch(await lockdiscovery('/dav/moved.txt'), /activelock/, 'a lock does not follow a MOVE');
  });

  test('a second LOCK on a locked file is 423; a DELETE with the token frees the name', async () => {
    assert.equal(await put('/dav/held.txt', 'x'), 201);
    const { token } = await lock('/dav/held.txt');
    const again = await lock('/dav/held.txt', { scope: 'shared' });
    assert.equal(again.res.status, 423);
    assert.match(again.body, /no-conflicting-lock/);
    assert.equal((await dav(t, 'DELETE', '/dav/held.txt', { login: drive, headers: { If: `(<${token}>)` } })).status, 204);
    assert.equal(await put('/dav/held.txt', 'y'), 201, 'the deleted file took its lock with it');
  });

  test('a MOVE or COPY onto a locked file is 423, and replaces it with the token', async () => {
    assert.equal(await put('/dav/target.txt', 'old'), 201);
    assert.equal(await put('/dav/source.txt', 'new'), 201);
    const { token } = await lock('/dav/target.txt');
    const onto = { Destination: `${t.url}/dav/target.txt` };
    assert.equal((await dav(t, 'MOVE', '/dav/source.txt', { login: drive, headers: onto })).status, 423);
    assert.equal((await dav(t, 'COPY', '/dav/source.txt', { login: drive, headers: onto })).status, 423);
    const moved = await dav(t, 'MOVE', '/dav/source.txt', {
      login: drive,
      headers: { ...onto, If: `<${t.url}/dav/target.txt> (<${token}>)` },
    });
    assert.equal(moved.status, 204);
    assert.equal(await (await dav(t, 'GET', '/dav/target.txt', { login: drive })).text(), 'new');
  });
});

describe('WebDAV: shared locks', () => {
  test('two shared locks live together; an exclusive one is refused; either token lets a change through', async () => {
    assert.equal(await put('/dav/shared.txt', 'x'), 201);
    const first = await lock('/dav/shared.txt', { scope: 'shared' });
    const second = await lock('/dav/shared.txt', { scope: 'shared' });
    assert.equal(first.res.status, 200);
    assert.equal(second.res.status, 200);
    assert.notEqual(first.token, second.token);
    assert.equal((await lock('/dav/shared.txt')).res.status, 423, 'exclusive over shared');
    const found = await lockdiscovery('/dav/shared.txt');
    assert.equal(found.match(/<d:activelock>/g)?.length, 2);
    assert.match(found, /<d:owner xmlns:D="DAV:"><D:href>Test computer<\/D:href><\/d:owner>/, 'the owner as the client sent it');
    assert.equal(await put('/dav/shared.txt', 'y'), 423);
    assert.equal(await put('/dav/shared.txt', 'y', { If: `(<${second.token}>)` }), 204);
  });
});

describe('WebDAV: a folder lock', () => {
  test('Depth infinity covers what the folder holds and what is put in it', async () => {
    assert.equal((await dav(t, 'MKCOL', '/dav/Album', { login: drive })).status, 201);
    assert.equal(await put('/dav/Album/one.txt', 'x'), 201);
    const { res, token } = await lock('/dav/Album/', { depth: 'infinity' });
    assert.equal(res.status, 200);
    assert.equal(await put('/dav/Album/one.txt', 'y'), 423, 'a file inside');
    assert.equal(await put('/dav/Album/two.txt', 'y'), 423, 'a new file inside');
    assert.equal((await dav(t, 'MKCOL', '/dav/Album/Sub', { login: drive })).status, 423);
    assert.equal((await dav(t, 'DELETE', '/dav/Album/one.txt', { login: drive })).status, 423);
    const child = await lockdiscovery('/dav/Album/one.txt');
    assert.match(child, /<d:depth>infinity<\/d:depth>/);
    assert.match(child, /<d:lockroot><d:href>\/dav\/Album\/<\/d:href><\/d:lockroot>/);
    assert.equal(
      await put('/dav/Album/two.txt', 'y', { If: `<${t.url}/dav/Album/> (<${token}>)` }),
      201,
      'tagged with the folder, as neon sends it',
    );
    assert.equal(await put('/dav/Album/one.txt', 'z', { If: `(<${token}>)` }), 204);
  });

  test('Depth 0 on a folder keeps its list of names, not its files', async () => {
    assert.equal((await dav(t, 'MKCOL', '/dav/Names', { login: drive })).status, 201);
    assert.equal(await put('/dav/Names/a.txt', 'x'), 201);
    await lock('/dav/Names/', { depth: '0' });
    assert.equal(await put('/dav/Names/a.txt', 'changed'), 204, 'a file inside is not locked');
    assert.equal(await put('/dav/Names/b.txt', 'new'), 423, 'a new name is');
    assert.equal((await dav(t, 'DELETE', '/dav/Names/a.txt', { login: drive })).status, 423);
    assert.equal((await lock('/dav/Names/c.txt')).res.status, 423, 'nor can a LOCK make a new file in it');
  });
});

describe('WebDAV: timeouts', () => {
  test('a refresh (LOCK with If and no body) extends the lock; an unknown token cannot refresh (412)', async () => {
    assert.equal(await put('/dav/lease.txt', 'x'), 201);
    const { token, body } = await lock('/dav/lease.txt', { timeout: 'Second-2' });
    assert.match(body, /<d:timeout>Second-2<\/d:timeout>/);
    const refreshed = await dav(t, 'LOCK', '/dav/lease.txt', { login: drive, headers: { If: `(<${token}>)`, Timeout: 'Infinite' } });
    assert.equal(refreshed.status, 200);
    assert.match(await refreshed.text(), /<d:timeout>Second-3600<\/d:timeout>/, 'Infinite is capped at an hour');
    await sleep(2300);
    assert.equal(await put('/dav/lease.txt', 'y'), 423, 'still locked after the first timeout would have ended');
    const unknown = await dav(t, 'LOCK', '/dav/lease.txt', {
      login: drive,
      headers: { If: '(<urn:uuid:00000000-0000-0000-0000-000000000000>)' },
    });
    assert.equal(unknown.status, 412);
  });

  test('an expired lock is gone: the file can be written, and lockdiscovery is empty', async () => {
    assert.equal(await put('/dav/short.txt', 'x'), 201);
    const { token } = await lock('/dav/short.txt', { timeout: 'Second-2' });
    assert.equal(await put('/dav/short.txt', 'y'), 423);
    await sleep(2300);
    assert.doesNotMatch(await lockdiscovery('/dav/short.txt'), /activelock/);
    assert.equal(await put('/dav/short.txt', 'y'), 204);
    assert.equal((await dav(t, 'UNLOCK', '/dav/short.txt', { login: drive, headers: { 'Lock-Token': `<${token}>` } })).status, 409);
  });
});

describe('WebDAV: UNLOCK and the If header', () => {
  test('UNLOCK frees the file (204); again, or on another file, 409; without Lock-Token, 400', async () => {
    assert.equal(await put('/dav/free.txt', 'x'), 201);
    assert.equal(await put('/dav/other.txt', 'x'), 201);
    const { token } = await lock('/dav/free.txt');
    const header = { 'Lock-Token': `<${token}>` };
    assert.equal((await dav(t, 'UNLOCK', '/dav/other.txt', { login: drive, headers: header })).status, 409, 'not that file’s lock');
    assert.equal((await dav(t, 'UNLOCK', '/dav/free.txt', { login: drive })).status, 400);
    assert.equal((await dav(t, 'UNLOCK', '/dav/free.txt', { login: drive, headers: header })).status, 204);
    assert.equal(await put('/dav/free.txt', 'y'), 204);
    const again = await dav(t, 'UNLOCK', '/dav/free.txt', { login: drive, headers: header });
    assert.equal(again.status, 409);
    assert.match(await again.text(), /lock-token-matches-request-uri/);
  });

  test('an unknown lock token, a wrong entity tag, or a header that is not one: 412, 412, 400', async () => {
    const made = await dav(t, 'PUT', '/dav/plain.txt', { login: drive, body: 'x' });
    const etag = made.headers.get('etag')!;
    assert.equal(await put('/dav/plain.txt', 'y', { If: '(<urn:uuid:11111111-1111-1111-1111-111111111111>)' }), 412);
    assert.equal(await put('/dav/plain.txt', 'y', { If: '(["not-the-etag"])' }), 412);
    assert.equal(await put('/dav/plain.txt', 'y', { If: `(Not <DAV:no-lock> [${etag}])` }), 204, 'Not and an entity tag that holds');
    assert.equal(await put('/dav/plain.txt', 'z', { If: 'tokens please' }), 400);
  });

  test('another account’s token does not count', async () => {
    assert.equal(await put('/dav/mine.txt', 'x', {}, aliceDrive), 201);
    assert.equal(await put('/dav/mine.txt', 'x'), 201);
    const alices = await lock('/dav/mine.txt', { login: aliceDrive });
    await lock('/dav/mine.txt');
    assert.equal(await put('/dav/mine.txt', 'y', { If: `(<${alices.token}>)` }), 412, 'her token is no lock of this account');
    const unlock = { 'Lock-Token': `<${alices.token}>` };
    assert.equal((await dav(t, 'UNLOCK', '/dav/mine.txt', { login: drive, headers: unlock })).status, 409);
    assert.equal(await put('/dav/mine.txt', 'y', {}, aliceDrive), 423, 'her lock still holds for her');
  });
});

describe('WebDAV: LOCK requests', () => {
  test('a LOCK on a free name makes an empty file (201); in a missing folder, 409', async () => {
    const { res, token } = await lock('/dav/placeholder.txt');
    assert.equal(res.status, 201);
    assert.ok(token);
    const got = await dav(t, 'GET', '/dav/placeholder.txt', { login: drive });
    assert.equal(got.status, 200);
    assert.equal(await got.text(), '');
    assert.equal(await put('/dav/placeholder.txt', 'filled', { If: `(<${token}>)` }), 204);
    assert.equal((await lock('/dav/nowhere/file.txt')).res.status, 409);
  });

  test('a body that is not XML, or not a write lock, is 400; supportedlock lists exclusive and shared', async () => {
    assert.equal(await put('/dav/body.txt', 'x'), 201);
    const notXml = await dav(t, 'LOCK', '/dav/body.txt', { login: drive, body: 'lock it please' });
    assert.equal(notXml.status, 400);
    const readLock = lockBody('exclusive').replace('<D:write/>', '<D:read/>');
    assert.equal((await dav(t, 'LOCK', '/dav/body.txt', { login: drive, body: readLock })).status, 400);
    assert.equal((await dav(t, 'LOCK', '/dav/body.txt', { login: drive, headers: { Depth: '1' }, body: lockBody('shared') })).status, 400);
    const longOwner = lockBody('shared', 'x'.repeat(5000));
    assert.equal((await dav(t, 'LOCK', '/dav/body.txt', { login: drive, body: longOwner })).status, 400, 'an owner past 4096 characters');
    const res = await dav(t, 'PROPFIND', '/dav/body.txt', {
      login: drive,
      headers: { Depth: '0' },
      body: propfindBody('<D:supportedlock/>'),
    });
    const xml = await res.text();
    assert.match(xml, /<d:lockentry><d:lockscope><d:exclusive\/><\/d:lockscope><d:locktype><d:write\/><\/d:locktype><\/d:lockentry>/);
    assert.match(xml, /<d:lockentry><d:lockscope><d:shared\/><\/d:lockscope>/);
  });
});
