import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 12, finding 11: a disabled account's public links kept working, and so did what it
 * had shared with other accounts. Disabling an account (someone left the family, a phone
 * was stolen) now suspends both; enabling it again brings them back, untouched.
 */

describe("a disabled account's links and grants are suspended (issue 12, finding 11)", () => {
  let t: TestServer;
  let owner: SignedIn;
  let ada: SignedIn;
  let ben: SignedIn;
  let folderId: string;
  let fileId: string;
  let link: { token: string };
  let protectedLink: { token: string };

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    ada = await createMember(t.client, owner, 'ada');
    ben = await createMember(t.client, owner, 'ben');
    folderId = (await t.client.post('/nodes/folder', { name: 'Recipes' }, { token: ada.access })).body.id;
    fileId = await uploadFile(t.api, ada.access, Buffer.from("grandma's pie"), { filename: 'pie.txt', parentId: folderId });
    assert.equal(
      (await t.client.post(`/nodes/${folderId}/permissions`, { user_id: ben.userId, role: 'editor' }, { token: ada.access })).status,
      201,
    );
    link = (await t.client.post(`/nodes/${folderId}/share`, {}, { token: ada.access })).body;
    protectedLink = (await t.client.post(`/nodes/${fileId}/share`, { password: 'pie-password-1' }, { token: ada.access })).body;
  });
  after(() => t.close());

  async function setDisabled(disabled: boolean): Promise<void> {
    const res = await t.client.patch(`/admin/users/${ada.userId}`, { disabled }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }

  const publicGet = (route: string) => t.client.get(route);

  test('while the account is disabled, its public links answer 404 not_found on every public route, the unlock included', async () => {
    assert.equal((await publicGet(`/s/${link.token}`)).status, 200);
    await setDisabled(true);
    try {
      assertError(await publicGet(`/s/${link.token}`), 404, 'not_found');
      assertError(await publicGet(`/s/${link.token}/children`), 404, 'not_found');
      assertError(await publicGet(`/s/${link.token}/download?node_id=${fileId}`), 404, 'not_found');
      assertError(await publicGet(`/s/${link.token}/thumbnail?node_id=${fileId}`), 404, 'not_found');
      assertError(await t.client.post(`/s/${protectedLink.token}/unlock`, { password: 'pie-password-1' }), 404, 'not_found');
    } finally {
      await setDisabled(false);
    }
  });

  test('while the account is disabled, what it shared is gone for the grantee: the node, its content, the top level, "shared" and uploads into it', async () => {
    const opts = { token: ben.access };
    await t.client.post(`/nodes/${fileId}/star`, undefined, opts);
    await setDisabled(true);
    try {
      assertError(await t.client.get(`/nodes/${folderId}`, opts), 404, 'not_found');
      assertError(await t.client.get(`/nodes/${fileId}`, opts), 404, 'not_found');
      assertError(await t.client.get(`/nodes/${fileId}/download`, opts), 404, 'not_found');
      assertError(await t.client.get(`/nodes?parent_id=${folderId}`, opts), 404, 'not_found');
      const root = await t.client.get('/nodes?parent_id=root', opts);
      assert.ok(!root.body.items.some((n: any) => n.id === folderId), 'listed at the top level');
      const shared = await t.client.get('/nodes?filter=shared', opts);
      assert.ok(!shared.body.items.some((n: any) => n.id === folderId), 'listed under shared');
      const starred = await t.client.get('/nodes?filter=starred', opts);
      assert.ok(!starred.body.items.some((n: any) => n.id === fileId), 'listed under starred');
      await assert.rejects(uploadFile(t.api, ben.access, Buffer.from('sneaky'), { filename: 'sneaky.txt', parentId: folderId }));
    } finally {
      await setDisabled(false);
    }
  });

  test('enabling the account again brings its links and grants back as they were', async () => {
    await setDisabled(true);
    await setDisabled(false);
    assert.equal((await publicGet(`/s/${link.token}`)).status, 200);
    assert.equal((await t.client.post(`/s/${protectedLink.token}/unlock`, { password: 'pie-password-1' })).status, 200);
    const opts = { token: ben.access };
    assert.equal((await t.client.get(`/nodes/${fileId}/download`, opts)).status, 200);
    assert.ok((await t.client.get('/nodes?filter=shared', opts)).body.items.some((n: any) => n.id === folderId));
    assert.equal((await t.client.get(`/nodes/${folderId}/permissions`, { token: ben.access })).body.items[0].role, 'editor');
  });
});
