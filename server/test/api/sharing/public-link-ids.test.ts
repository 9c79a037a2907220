import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/* Issue 12, finding 16: a link visitor learns nothing of the owner's account or of the folders above the link. */

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

describe('a public link reveals no account or tree ids', () => {
  test('GET /s/{token} answers the shared node without owner_id and with parent_id null; /children items carry no owner_id', async () => {
    const member = await createMember(t.client, owner, 'lena');
    const outer = await createFolder(t.client, member, 'Private outer');
    const shared = await createFolder(t.client, member, 'Holiday', outer.id);
    await uploadFile(t.api, member.access, Buffer.from('hello'), { filename: 'note.txt', parentId: shared.id });
    const link = await t.client.post(`/nodes/${shared.id}/share`, {}, { token: member.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));

    const info = await fetch(`${t.api}/s/${link.body.token}`);
    const text = await info.text();
    assert.equal(info.status, 200, text);
    const body = JSON.parse(text);
    assert.equal(body.node.id, shared.id);
    assert.equal(body.node.name, 'Holiday');
    assert.equal(body.node.parent_id, null);
    assert.equal('owner_id' in body.node, false, text);
    assert.ok(!text.includes(member.userId), 'the owner id appears nowhere');
    assert.ok(!text.includes(outer.id), 'the id of the folder above appears nowhere');

    const children = await fetch(`${t.api}/s/${link.body.token}/children`);
    const listed = await children.text();
    assert.equal(children.status, 200, listed);
    const items = JSON.parse(listed).items;
    assert.equal(items.length, 1);
    assert.equal(items[0].parent_id, shared.id);
    assert.equal('owner_id' in items[0], false);
    assert.ok(!listed.includes(member.userId));
  });

  test('the OpenAPI document describes public nodes without owner_id', async () => {
    const doc = (await t.client.get('/openapi.json')).body;
    const schema = doc.paths['/s/{token}'].get.responses['200'].content['application/json'].schema;
    assert.ok(schema.properties.node.properties.id);
    assert.equal(schema.properties.node.properties.owner_id, undefined);
  });
});
