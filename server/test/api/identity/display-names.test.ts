import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

/*
 * Issue 12, finding 12: a display name could copy another account's name, so a request or a
 * share could pass for someone else's.
 */

describe("a display name cannot copy another account's name (issue 12, finding 12)", () => {
  let t: TestServer;
  let owner: SignedIn;
  let mum: SignedIn;
  let kid: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    mum = await createMember(t.client, owner, 'mum');
    kid = await createMember(t.client, owner, 'kid');
    assert.equal((await t.client.patch('/me/profile', { display_name: 'Grandma Rose' }, { token: owner.access })).status, 200);
  });
  after(() => t.close());

  test("taking another account's display name or username, in any case or width, answers 409 display_name_taken", async () => {
    for (const display_name of ['Grandma Rose', 'grandma rose', 'GRANDMA  ROSE', 'Ｇｒａｎｄｍａ Ｒｏｓｅ', 'Mum', 'MUM', 'owner']) {
      assertError(await t.client.patch('/me/profile', { display_name }, { token: kid.access }), 409, 'display_name_taken', 'display_name');
    }
    assert.equal((await t.client.get('/me', { token: kid.access })).body.display_name, null);
  });

  test('an account may take its own username as its display name, and keep its own display name', async () => {
    assert.equal((await t.client.patch('/me/profile', { display_name: 'Mum' }, { token: mum.access })).status, 200);
    assert.equal((await t.client.patch('/me/profile', { display_name: 'Mum' }, { token: mum.access })).status, 200);
  });

  test("registering with another account's display name answers 409 display_name_taken; a username reading as another's display name 409 username_taken", async () => {
    const invite = async () => (await t.client.post('/admin/invites', { max_uses: 5 }, { token: owner.access })).body.code;
    const code = await invite();
    const copy = await t.client.post('/auth/register', {
      username: 'rose2',
      password: 'rose2-password',
      invite_code: code,
      display_name: 'grandma rose',
    });
    assertError(copy, 409, 'display_name_taken', 'display_name');
    assert.equal((await t.client.patch('/me/profile', { display_name: 'Nana' }, { token: owner.access })).status, 200);
    const lookalike = await t.client.post('/auth/register', { username: 'NANA', password: 'nana-password-1', invite_code: code });
    assertError(lookalike, 409, 'username_taken', 'username');
  });

  test('two accounts racing for one display name: exactly one gets it', async () => {
    const others = await Promise.all(['pat1', 'pat2', 'pat3', 'pat4'].map((u) => createMember(t.client, owner, u)));
    const answers = await Promise.all(others.map((o) => t.client.patch('/me/profile', { display_name: 'Uncle Bob' }, { token: o.access })));
    assert.equal(answers.filter((a) => a.status === 200).length, 1, answers.map((a) => a.status).join(' '));
    for (const a of answers.filter((x) => x.status !== 200)) assertError(a, 409, 'display_name_taken');
  });
});
