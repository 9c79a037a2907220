import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 19, finding 11: the share dialog promised "Anyone you send a link to can see this
 * file" while the server was reachable only at home. The server says where its links open
 * (`link_reach` in the settings any account reads), so the dialog can tell the truth.
 */

async function reachOf(publicUrl: string | null): Promise<{ reach: string; url: string; memberReach: string }> {
  const t = await startTestServer({ publicUrl });
  try {
    const owner = await setupOwner(t.client);
    const kim = await createMember(t.client, owner, 'kim');
    const folder = (await t.client.post('/nodes/folder', { name: 'Photos' }, { token: kim.access })).body;
    const link = await t.client.post(`/nodes/${folder.id}/share`, {}, { token: kim.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    const forMember = await t.client.get('/server/settings', { token: kim.access });
    assert.equal(forMember.status, 200);
    const forOwner = await t.client.get('/server/settings', { token: owner.access });
    return { reach: forOwner.body.link_reach, url: link.body.url, memberReach: forMember.body.link_reach };
  } finally {
    await t.close();
  }
}

describe('settings say where links open: the home network until PUBLIC_URL is a public name (issue 19, finding 11)', () => {
  test('with no PUBLIC_URL, links are on the detected LAN address and open at home only; every account reads it', async () => {
    const { reach, url, memberReach } = await reachOf(null);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/s\//);
    assert.equal(reach, 'home_network');
    assert.equal(memberReach, 'home_network');
  });

  test('a .local PUBLIC_URL is still the home network', async () => {
    const { reach, url } = await reachOf('http://family-pc.local:8420');
    assert.ok(url.startsWith('http://family-pc.local:8420/s/'), url);
    assert.equal(reach, 'home_network');
  });

  test('a public PUBLIC_URL makes links open from anywhere', async () => {
    const { reach, url } = await reachOf('https://hearth.example.org');
    assert.ok(url.startsWith('https://hearth.example.org/s/'), url);
    assert.equal(reach, 'internet');
  });
});

describe('link_reach is read only', () => {
  let t: TestServer;
  let owner: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
  });
  after(() => t.close());

  test('a PATCH cannot set it, and its answer carries it as it is', async () => {
    const res = await t.client.patch('/server/settings', { link_reach: 'internet', server_name: 'Home' }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.link_reach, 'home_network');
    assert.equal((await t.client.get('/server/settings', { token: owner.access })).body.link_reach, 'home_network');
  });
});
