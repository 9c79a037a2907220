import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OWNER, setupOwner } from '../../helpers/accounts.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { startTestServer, type ApiResponse } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 12, finding 14: ten wrong passwords from anywhere locked the owner out for 15
 * minutes (the right password then got 429), and ten wrong link passwords locked a link for
 * every visitor. The guesser's address stays limited; the account, and the link, are only
 * slowed down. The guesser and the rightful user send from different loopback addresses.
 */

/** Account delays short enough for a test (the production ones grow to 10 s). */
const QUICK_DELAYS = { slowBaseMs: 20, slowMaxMs: 200 };

function assertRateLimited(res: ApiResponse): void {
  assertError(res, 429, 'rate_limited');
  const retryAfter = Number(res.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 15 * 60, `Retry-After ${res.headers.get('retry-after')}`);
}

describe('a guesser cannot lock the rightful user out (issue 12, finding 14)', () => {
  test('after 10 wrong passwords for the owner from 127.0.0.2, that address gets 429 even with the right password, while the owner signs in from 127.0.0.3', async () => {
    const t = await startTestServer({ rateLimit: QUICK_DELAYS });
    try {
      await setupOwner(t.client);
      const guesser = new ClientFrom(t.api, '127.0.0.2');
      for (let i = 0; i < 10; i++) {
        assertError(
          await guesser.post('/auth/login', { username: OWNER.username, password: `guess-number-${i}` }),
          401,
          'invalid_credentials',
        );
      }
      assertRateLimited(await guesser.post('/auth/login', OWNER));
      const owner = await new ClientFrom(t.api, '127.0.0.3').post('/auth/login', OWNER);
      assert.equal(owner.status, 200, JSON.stringify(owner.body));
      // And the guesser's address stays refused after the owner's success.
      assertRateLimited(await guesser.post('/auth/login', OWNER));
    } finally {
      await t.close();
    }
  });

  test('ten addresses guessing once each do not lock the account: the right password from an eleventh address signs in', async () => {
    const t = await startTestServer({ rateLimit: QUICK_DELAYS });
    try {
      await setupOwner(t.client);
      for (let i = 0; i < 10; i++) {
        const res = await new ClientFrom(t.api, `127.0.0.${10 + i}`).post('/auth/login', {
          username: OWNER.username,
          password: `guess-${i}-xx`,
        });
        assertError(res, 401, 'invalid_credentials');
      }
      const owner = await new ClientFrom(t.api, '127.0.0.30').post('/auth/login', { ...OWNER, username: 'OWNER' });
      assert.equal(owner.status, 200, JSON.stringify(owner.body));
    } finally {
      await t.close();
    }
  });

  test("after 10 wrong link passwords from one visitor's address, that address gets 429 even with the right password, while another visitor unlocks the link", async () => {
    const t = await startTestServer({ rateLimit: QUICK_DELAYS });
    try {
      const owner = await setupOwner(t.client);
      const fileId = await uploadFile(t.api, owner.access, Buffer.from('for the family'), { filename: 'family.txt' });
      const link = (await t.client.post(`/nodes/${fileId}/share`, { password: 'the-right-one' }, { token: owner.access })).body;
      const guesser = new ClientFrom(t.api, '127.0.0.2');
      for (let i = 1; i <= 10; i++) {
        assertError(await guesser.post(`/s/${link.token}/unlock`, { password: `wrong guess ${i}` }), 403, 'wrong_password');
      }
      assertRateLimited(await guesser.post(`/s/${link.token}/unlock`, { password: 'the-right-one' }));
      const visitor = await new ClientFrom(t.api, '127.0.0.3').post(`/s/${link.token}/unlock`, { password: 'the-right-one' });
      assert.equal(visitor.status, 200, JSON.stringify(visitor.body));
      assert.equal(typeof visitor.body.grant, 'string');
      // The guesser's limit is per link: another link of the family opens for that address.
      const other = (await t.client.post(`/nodes/${fileId}/share`, { password: 'other-right-one' }, { token: owner.access })).body;
      assert.equal((await guesser.post(`/s/${other.token}/unlock`, { password: 'other-right-one' })).status, 200);
    } finally {
      await t.close();
    }
  });
});
