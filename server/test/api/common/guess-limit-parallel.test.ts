import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { OWNER, createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 12, finding 1: the 10-failures limit was checked before the slow password hash and
 * the failure counted after it, so guesses sent all at once were all verified (60 wrong
 * passwords: 60 answers, no 429). Each test here sends 60 wrong guesses in parallel, over
 * 60 real connections from one address, and expects exactly 10 verified and 50 refused.
 */

const PARALLEL = 60;
const LIMIT = 10;

/** Counts the answers by status; asserts every refusal is a 429 rate_limited with Retry-After. */
function tally(answers: ApiResponse[], wrongStatus: number, wrongCode: string): { wrong: number; limited: number } {
  let wrong = 0;
  let limited = 0;
  for (const res of answers) {
    if (res.status === 429) {
      assertError(res, 429, 'rate_limited');
      assert.ok(Number(res.headers.get('retry-after')) >= 1, 'Retry-After is set');
      limited++;
    } else {
      assertError(res, wrongStatus, wrongCode);
      wrong++;
    }
  }
  return { wrong, limited };
}

describe('parallel guesses all count against the limit (issue 12, finding 1)', () => {
  let t: TestServer;
  let owner: SignedIn;

  before(async () => {
    // Short account delays: the ten guesses let through run one after the other.
    t = await startTestServer({ rateLimit: { slowBaseMs: 20, slowMaxMs: 100 } });
    owner = await setupOwner(t.client);
  });
  after(() => t.close());

  test('60 wrong sign-in passwords sent at once from one address get 10 answers of 401 invalid_credentials and 50 of 429 rate_limited', async () => {
    const guesser = new ClientFrom(t.api, '127.0.0.21');
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => guesser.post('/auth/login', { username: OWNER.username, password: `wrong-guess-${i}-x` })),
    );
    assert.deepEqual(tally(answers, 401, 'invalid_credentials'), { wrong: LIMIT, limited: PARALLEL - LIMIT });
  });

  test('60 wrong share-link passwords sent at once from one address get 10 answers of 403 wrong_password and 50 of 429 rate_limited', async () => {
    const fileId = await uploadFile(t.api, owner.access, Buffer.from('guarded'), { filename: 'guarded.txt' });
    const link = await t.client.post(`/nodes/${fileId}/share`, { password: 'the-link-password' }, { token: owner.access });
    assert.equal(link.status, 201, JSON.stringify(link.body));
    const guesser = new ClientFrom(t.api, '127.0.0.22');
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) => guesser.post(`/s/${link.body.token}/unlock`, { password: `wrong-guess-${i}-x` })),
    );
    assert.deepEqual(tally(answers, 403, 'wrong_password'), { wrong: LIMIT, limited: PARALLEL - LIMIT });
  });

  test('60 wrong current passwords to PATCH /me/password sent at once get 10 answers of 403 wrong_password and 50 of 429 rate_limited', async () => {
    const victim = await createMember(t.client, owner, 'pat');
    const thief = new ClientFrom(t.api, '127.0.0.23'); // holds a stolen access token
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        thief.patch(
          '/me/password',
          { current_password: `wrong-guess-${i}-x`, new_password: 'taken-over-password' },
          { token: victim.access },
        ),
      ),
    );
    assert.deepEqual(tally(answers, 403, 'wrong_password'), { wrong: LIMIT, limited: PARALLEL - LIMIT });
    // The account's own password still works: nothing was changed.
    assert.equal((await t.client.post('/auth/login', { username: 'pat', password: victim.password })).status, 200);
  });

  test('60 wrong passwords to POST /auth/2fa/disable sent at once get 10 answers of 403 wrong_password and 50 of 429 rate_limited', async () => {
    const victim = await createMember(t.client, owner, 'tess');
    const begin = await t.client.post('/auth/2fa/begin', undefined, { token: victim.access });
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begin.body.secret) }).generate();
    assert.equal((await t.client.post('/auth/2fa/verify', { code }, { token: victim.access })).status, 200);
    const thief = new ClientFrom(t.api, '127.0.0.24');
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        thief.post('/auth/2fa/disable', { password: `wrong-guess-${i}-x` }, { token: victim.access }),
      ),
    );
    assert.deepEqual(tally(answers, 403, 'wrong_password'), { wrong: LIMIT, limited: PARALLEL - LIMIT });
    assert.equal((await t.client.get('/me', { token: victim.access })).body.totp_enabled, true, 'two-factor is still on');
  });
});
