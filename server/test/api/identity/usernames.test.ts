import assert from 'node:assert/strict';
import { test } from 'node:test';
import { USERNAME_MAX, USERNAME_MIN, usernameProblem } from '../../../src/contract/usernames.ts';
import { OWNER } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer } from '../../helpers/server.ts';

/*
 * The web app and the server hold one username rule (server/src/contract/usernames.ts): what the
 * form accepts, the server accepts. Spaces around a username are not part of it on either side
 * (a phone keyboard adds one after a word), so " owner " sets up, registers and signs in as
 * "owner" wherever it is typed.
 */
test('spaces around a username are not part of it: setup, registration and sign-in take " name " as "name"; spaces inside are still refused', async () => {
  const t = await startTestServer();
  try {
    const setup = await t.client.post('/setup', { username: ` ${OWNER.username} `, password: OWNER.password });
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    assert.equal(setup.body.user.username, OWNER.username);
    const owner = setup.body.access_token as string;
    assert.equal((await t.client.post('/auth/login', { username: `${OWNER.username}\u0020`, password: OWNER.password })).status, 200);

    const invite = await t.client.post('/admin/invites', {}, { token: owner });
    const registered = await t.client.post('/auth/register', {
      username: '  bobby\t',
      password: 'bobby-password-1',
      invite_code: invite.body.code,
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    assert.equal(registered.body.user.username, 'bobby');
    assert.equal((await t.client.post('/auth/login', { username: ' bobby', password: 'bobby-password-1' })).status, 200);

    const again = await t.client.post('/admin/invites', {}, { token: owner });
    for (const username of ['bob by', ' ab ', '   ']) {
      assertError(
        await t.client.post('/auth/register', { username, password: 'bobby-password-1', invite_code: again.body.code }),
        400,
        'invalid_username',
        'username',
      );
    }
  } finally {
    await t.close();
  }
});

test('the rule itself: 3 to 32 of a–z, A–Z, 0–9, dot, dash, underscore, each problem named', () => {
  assert.equal(usernameProblem('a.b-c_D9'), null);
  assert.deepEqual(usernameProblem(''), { kind: 'empty' });
  assert.deepEqual(usernameProblem('émile ok'), { kind: 'characters', wrong: ['é', ' '] });
  assert.deepEqual(usernameProblem('x'.repeat(USERNAME_MIN - 1)), { kind: 'too_short', length: USERNAME_MIN - 1 });
  assert.deepEqual(usernameProblem('x'.repeat(USERNAME_MAX + 1)), { kind: 'too_long', length: USERNAME_MAX + 1 });
  assert.equal(usernameProblem('x'.repeat(USERNAME_MAX)), null);
});
