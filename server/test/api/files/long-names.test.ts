import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 19, finding 13: a 300-character name was refused as `invalid_name`, whose sentence
 * tells a person to avoid slashes and invisible characters. Too long is its own reason, with
 * its own code, so the app can say so and offer a shorter name.
 */

const TOO_LONG = `${'Our summer holiday at the lake '.repeat(10)}.jpg`; // 314 bytes
const AT_LIMIT = `${'a'.repeat(251)}.jpg`; // 255 bytes

describe('a name over 255 bytes answers 400 name_too_long (issue 19, finding 13)', () => {
  let t: TestServer;
  let owner: SignedIn;
  let kim: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    kim = await createMember(t.client, owner, 'kim');
  });
  after(() => t.close());

  test('creating a folder or renaming with a 300-character name answers name_too_long naming the field, and the message gives the limit', async () => {
    const created = await t.client.post('/nodes/folder', { name: TOO_LONG }, { token: kim.access });
    assertError(created, 400, 'name_too_long', 'name');
    assert.match(created.body.error.message, /255 bytes/);
    const folder = (await t.client.post('/nodes/folder', { name: 'Summer' }, { token: kim.access })).body;
    assertError(await t.client.patch(`/nodes/${folder.id}`, { name: TOO_LONG }, { token: kim.access }), 400, 'name_too_long', 'name');
    assert.equal((await t.client.get(`/nodes/${folder.id}`, { token: kim.access })).body.name, 'Summer');
    // Other bad names keep their own reason.
    assertError(await t.client.post('/nodes/folder', { name: 'a/b' }, { token: kim.access }), 400, 'invalid_name', 'name');
  });

  test('an upload whose filename is too long is refused at creation with name_too_long, and nothing is listed', async () => {
    await assert.rejects(
      uploadFile(t.api, kim.access, Buffer.from('photo'), { filename: TOO_LONG }),
      (error: Error) => /400/.test(String(error)) && /name_too_long/.test(String(error)) && /filename/.test(String(error)),
    );
    const listed = await t.client.get('/nodes?parent_id=root', { token: kim.access });
    assert.ok(!listed.body.items.some((n: { name: string }) => n.name.startsWith('Our summer')));
  });

  test('the same 255-byte name uploaded twice: the second gets a numbered name that still fits in 255 bytes', async () => {
    const first = await uploadFile(t.api, kim.access, Buffer.from('one'), { filename: AT_LIMIT });
    const second = await uploadFile(t.api, kim.access, Buffer.from('two'), { filename: AT_LIMIT });
    const a = (await t.client.get(`/nodes/${first}`, { token: kim.access })).body;
    const b = (await t.client.get(`/nodes/${second}`, { token: kim.access })).body;
    assert.equal(a.name, AT_LIMIT);
    assert.notEqual(b.name, AT_LIMIT);
    assert.match(b.name, /^a+ \(1\)\.jpg$/);
    assert.ok(Buffer.byteLength(b.name) <= 255, `${Buffer.byteLength(b.name)} bytes`);
    // And a third finds the next free number, though its base was shortened too.
    const third = await uploadFile(t.api, kim.access, Buffer.from('three'), { filename: AT_LIMIT });
    const c = (await t.client.get(`/nodes/${third}`, { token: kim.access })).body;
    assert.match(c.name, /^a+ \(2\)\.jpg$/);
    assert.ok(Buffer.byteLength(c.name) <= 255);
  });
});
