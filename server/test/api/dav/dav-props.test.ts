import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection, type Db } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { dav, driveLogin, propfindBody, responsesOf, type DriveLogin } from './dav-support.ts';

let t: TestServer;
let owner: SignedIn;
let drive: DriveLogin;
let aliceDrive: DriveLogin;
let db: Db;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  const alice = await createMember(t.client, owner, 'alice');
  drive = await driveLogin(t, owner, 'owner');
  aliceDrive = await driveLogin(t, alice, 'alice');
  db = openConnection(path.join(t.dataDir, 'hearth.db'), { fileMustExist: true });
});
after(async () => {
  db.close();
  await t.close();
});

const Z = 'http://ns.example.com/z/';

/** A PROPPATCH body: `instructions` are <D:set>/<D:remove> blocks in the order given. */
function update(...instructions: string[]): string {
  return `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="${Z}">${instructions.join('')}</D:propertyupdate>`;
}
const set = (props: string) => `<D:set><D:prop>${props}</D:prop></D:set>`;
const remove = (props: string) => `<D:remove><D:prop>${props}</D:prop></D:remove>`;

async function patch(at: string, body: string, login = drive): Promise<{ status: number; xml: string }> {
  const res = await dav(t, 'PROPPATCH', at, { login, body });
  return { status: res.status, xml: await res.text() };
}

/** The one response of a Depth 0 PROPFIND for these properties (or allprop/propname with a whole body). */
async function find(at: string, props: string, body = propfindBody(props)): Promise<string> {
  const res = await dav(t, 'PROPFIND', at, { login: drive, headers: { Depth: '0' }, body });
  assert.equal(res.status, 207);
  return [...responsesOf(await res.text()).values()][0]!;
}

/** The propstat blocks of a response, as status -> the XML of its <d:prop>. */
function propstats(response: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const match of response.matchAll(/<d:propstat><d:prop>([\s\S]*?)<\/d:prop><d:status>HTTP\/1.1 (\d+)[^<]*<\/d:status>/g)) {
    out.set(Number(match[2]), match[1]!);
  }
  return out;
}

describe('WebDAV dead properties: PROPPATCH and PROPFIND', () => {
  test('a value comes back as it was set: namespaces, nested elements, attributes, xml:lang and CDATA', async () => {
    await dav(t, 'PUT', '/dav/kept.txt', { login: drive, body: 'x' });
    const value =
      '<Z:Author xml:lang="fr">Jim &amp; <b:em xmlns:b="urn:b" b:kind="bold">Amy</b:em> <![CDATA[<raw>]]><plain xmlns="">x</plain></Z:Author>';
    const made = await patch('/dav/kept.txt', update(set(value)));
    assert.equal(made.status, 207);
    assert.equal(propstats(responsesOf(made.xml).get('/dav/kept.txt')!).get(200), `<Author xmlns="${Z}"/>`);

    const got = propstats(await find('/dav/kept.txt', '<Z:Author xmlns:Z="http://ns.example.com/z/"/>')).get(200)!;
    assert.equal(
      got,
      `<Z:Author xmlns:Z="${Z}" xml:lang="fr">Jim &amp; <b:em xmlns:b="urn:b" b:kind="bold">Amy</b:em> &lt;raw&gt;<plain xmlns="">x</plain></Z:Author>`,
    );
  });

  test('xml:lang set on an ancestor is written on the property (RFC 4918 4.3)', async () => {
    await dav(t, 'PUT', '/dav/lang.txt', { login: drive, body: 'x' });
    const body = `<D:propertyupdate xmlns:D="DAV:" xml:lang="en-GB"><D:set><D:prop><t xmlns="urn:t">colour</t></D:prop></D:set></D:propertyupdate>`;
    assert.equal((await patch('/dav/lang.txt', body)).status, 207);
    assert.equal(propstats(await find('/dav/lang.txt', '<t xmlns="urn:t"/>')).get(200), '<t xmlns="urn:t" xml:lang="en-GB">colour</t>');
  });

  test('allprop returns dead properties with the live ones; propname names them without values', async () => {
    await dav(t, 'PUT', '/dav/all.txt', { login: drive, body: 'x' });
    await patch('/dav/all.txt', update(set('<Z:one>1</Z:one><Z:two>2</Z:two>')));
    const all = propstats(await find('/dav/all.txt', '', '<D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>')).get(200)!;
    assert.match(all, /<d:getetag>/);
    assert.match(all, new RegExp(`<Z:one xmlns:Z="${Z}">1</Z:one><Z:two xmlns:Z="${Z}">2</Z:two>`));
    const names = propstats(await find('/dav/all.txt', '', '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>')).get(200)!;
    assert.match(names, new RegExp(`<one xmlns="${Z}"/><two xmlns="${Z}"/>`));
    assert.doesNotMatch(names, />1</);
  });

  test('sets and removes run in document order: set then remove leaves nothing, remove then set keeps the value', async () => {
    await dav(t, 'PUT', '/dav/order.txt', { login: drive, body: 'x' });
    await patch('/dav/order.txt', update(set('<Z:a>old</Z:a>'), remove('<Z:a/>'), remove('<Z:b/>'), set('<Z:b>new</Z:b>')));
    const got = propstats(await find('/dav/order.txt', `<Z:a xmlns:Z="${Z}"/><Z:b xmlns:Z="${Z}"/>`));
    assert.equal(got.get(200), `<Z:b xmlns:Z="${Z}">new</Z:b>`);
    assert.equal(got.get(404), `<a xmlns="${Z}"/>`);
    const replaced = await patch('/dav/order.txt', update(set('<Z:b>newer</Z:b>'), remove('<Z:never-there/>')));
    assert.equal(replaced.status, 207);
    assert.equal(propstats(await find('/dav/order.txt', `<Z:b xmlns:Z="${Z}"/>`)).get(200), `<Z:b xmlns:Z="${Z}">newer</Z:b>`);
  });
});

describe('WebDAV dead properties: all or nothing, and the limits', () => {
  test('a DAV: property is protected (403 cannot-modify-protected-property); the rest are 424 and nothing changes', async () => {
    await dav(t, 'PUT', '/dav/atomic.txt', { login: drive, body: 'x' });
    await patch('/dav/atomic.txt', update(set('<Z:keep>before</Z:keep>')));
    const res = await patch('/dav/atomic.txt', update(set('<Z:keep>after</Z:keep><Z:new>n</Z:new>'), set('<D:getetag>"x"</D:getetag>')));
    assert.equal(res.status, 207);
    const response = responsesOf(res.xml).get('/dav/atomic.txt')!;
    assert.match(
      response,
      /<d:prop><d:getetag\/><\/d:prop><d:status>HTTP\/1.1 403 Forbidden<\/d:status><d:error><d:cannot-modify-protected-property\/>/,
    );
    assert.equal(propstats(response).get(424), `<keep xmlns="${Z}"/><new xmlns="${Z}"/>`);
    const now = propstats(await find('/dav/atomic.txt', `<Z:keep xmlns:Z="${Z}"/><Z:new xmlns:Z="${Z}"/>`));
    assert.equal(now.get(200), `<Z:keep xmlns:Z="${Z}">before</Z:keep>`);
    assert.equal(now.get(404), `<new xmlns="${Z}"/>`);
    for (const live of ['displayname', 'getcontentlength', 'resourcetype']) {
      const refused = await patch('/dav/atomic.txt', update(remove(`<D:${live}/>`)));
      assert.match(refused.xml, /403 Forbidden<\/d:status><d:error><d:cannot-modify-protected-property\/>/, live);
    }
  });

  test('past 100 properties on one node: 507 too-many-properties, and none of the request is kept', async () => {
    await dav(t, 'PUT', '/dav/many.txt', { login: drive, body: 'x' });
    const hundred = Array.from({ length: 100 }, (_, i) => `<Z:p${i}>${i}</Z:p${i}>`).join('');
    assert.doesNotMatch((await patch('/dav/many.txt', update(set(hundred)))).xml, /424|507/);
    const more = await patch('/dav/many.txt', update(set('<Z:p0>changed</Z:p0><Z:p100>one too many</Z:p100>')));
    assert.match(
      more.xml,
      /<p100 xmlns="[^"]+"\/><\/d:prop><d:status>HTTP\/1.1 507 Insufficient Storage<\/d:status><d:error><h:too-many-properties\/>/,
    );
    assert.match(more.xml, /<p0 xmlns="[^"]+"\/><\/d:prop><d:status>HTTP\/1.1 424 Failed Dependency/);
    assert.equal(propstats(await find('/dav/many.txt', `<Z:p0 xmlns:Z="${Z}"/>`)).get(200), `<Z:p0 xmlns:Z="${Z}">0</Z:p0>`);
    // Room made by a removal earlier in the same request counts.
    assert.doesNotMatch((await patch('/dav/many.txt', update(remove('<Z:p1/>'), set('<Z:p100>fits</Z:p100>')))).xml, /424|507/);
  });

  test('a value over 64 KiB: 507 property-too-large', async () => {
    await dav(t, 'PUT', '/dav/large.txt', { login: drive, body: 'x' });
    const res = await patch('/dav/large.txt', update(set(`<Z:big>${'a'.repeat(64 * 1024)}</Z:big>`)));
    assert.match(res.xml, /507 Insufficient Storage<\/d:status><d:error><h:property-too-large\/>/);
    assert.equal(propstats(await find('/dav/large.txt', `<Z:big xmlns:Z="${Z}"/>`)).get(404), `<big xmlns="${Z}"/>`);
  });

  test('the top of the tree keeps none (403 with the precondition); a missing file is 404; another account never reaches them', async () => {
    const top = await patch('/dav/', update(set('<Z:x>1</Z:x>')));
    assert.equal(top.status, 403);
    assert.match(top.xml, /<d:error xmlns:d="DAV:"[^>]*><d:cannot-modify-protected-property\/>/);
    assert.equal((await patch('/dav/absent.txt', update(set('<Z:x>1</Z:x>')))).status, 404);
    await dav(t, 'PUT', '/dav/mine.txt', { login: drive, body: 'x' });
    assert.equal((await patch('/dav/mine.txt', update(set('<Z:x>1</Z:x>')), aliceDrive)).status, 404);
  });
});

describe('WebDAV dead properties follow the node', () => {
  test('MOVE keeps them; COPY copies them, a folder with its children’s', async () => {
    await dav(t, 'MKCOL', '/dav/Trip/', { login: drive });
    await dav(t, 'PUT', '/dav/Trip/day.txt', { login: drive, body: 'x' });
    await patch('/dav/Trip/', update(set('<Z:colour>blue</Z:colour>')));
    await patch('/dav/Trip/day.txt', update(set('<Z:tag>beach</Z:tag>')));
    const moved = await dav(t, 'MOVE', '/dav/Trip/', { login: drive, headers: { Destination: `${t.url}/dav/Trip%202025/` } });
    assert.equal(moved.status, 201);
    assert.equal(
      propstats(await find('/dav/Trip%202025/', `<Z:colour xmlns:Z="${Z}"/>`)).get(200),
      `<Z:colour xmlns:Z="${Z}">blue</Z:colour>`,
    );
    const copied = await dav(t, 'COPY', '/dav/Trip%202025/', { login: drive, headers: { Destination: `${t.url}/dav/Copy/` } });
    assert.equal(copied.status, 201);
    assert.equal(propstats(await find('/dav/Copy/', `<Z:colour xmlns:Z="${Z}"/>`)).get(200), `<Z:colour xmlns:Z="${Z}">blue</Z:colour>`);
    assert.equal(propstats(await find('/dav/Copy/day.txt', `<Z:tag xmlns:Z="${Z}"/>`)).get(200), `<Z:tag xmlns:Z="${Z}">beach</Z:tag>`);
    // The copy's are its own: changing them leaves the original's.
    await patch('/dav/Copy/day.txt', update(set('<Z:tag>copy</Z:tag>')));
    assert.equal(
      propstats(await find('/dav/Trip%202025/day.txt', `<Z:tag xmlns:Z="${Z}"/>`)).get(200),
      `<Z:tag xmlns:Z="${Z}">beach</Z:tag>`,
    );
  });

  test('DELETE sends the file to the trash with them (restored, they are back); deleted for good, they are gone', async () => {
    await dav(t, 'PUT', '/dav/gone.txt', { login: drive, body: 'x' });
    await patch('/dav/gone.txt', update(set('<Z:tag>bin</Z:tag>')));
    const node = (await t.client.get('/nodes', { token: owner.access })).body.items.find((n: { name: string }) => n.name === 'gone.txt');
    const rows = () => (db.prepare('SELECT count(*) AS n FROM dav_properties WHERE node_id = ?').get(node.id) as { n: number }).n;
    assert.equal((await dav(t, 'DELETE', '/dav/gone.txt', { login: drive })).status, 204);
    assert.equal(rows(), 1);
    assert.equal((await t.client.post(`/nodes/${node.id}/restore`, {}, { token: owner.access })).status, 200);
    assert.equal(propstats(await find('/dav/gone.txt', `<Z:tag xmlns:Z="${Z}"/>`)).get(200), `<Z:tag xmlns:Z="${Z}">bin</Z:tag>`);
    await dav(t, 'DELETE', '/dav/gone.txt', { login: drive });
    assert.equal((await t.client.delete(`/nodes/${node.id}/permanent`, { token: owner.access })).status, 204);
    assert.equal(rows(), 0);
  });
});
