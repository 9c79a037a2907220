import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { OWNER, setupOwner } from '../../helpers/accounts.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { startTestServer, type ApiResponse } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

/*
 * Issue 12, finding 2: the password-hash queue had no bound, so 300 bogus sign-ins from one
 * address made the owner's real sign-in, from another address, wait 68 s behind them. These
 * tests use a hash cost high enough (2^15) that a line of hashes really forms.
 */

const SLOW_HASH = 2 ** 15;

describe('the password-hash queue is bounded (issue 12, finding 2)', () => {
  test("300 bogus sign-ins from one address at once: at most 10 are hashed (one at a time), the rest refused with 429, and the owner signing in from another address is answered before the guesser's verifications are through", async () => {
    const t = await startTestServer({ passwordHashCost: SLOW_HASH });
    try {
      await setupOwner(t.client);
      const guesser = new ClientFrom(t.api, '127.0.0.31');
      const order: string[] = [];
      const flood = Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          const res = await guesser.post('/auth/login', { username: `ghost-${i}`, password: 'a-bogus-password' });
          order.push(res.status === 401 ? 'verified' : `refused ${res.status}`);
          return res;
        }),
      );
      // The owner starts once the flood is on the wire.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const owner = await new ClientFrom(t.api, '127.0.0.32').post('/auth/login', OWNER);
      order.push('owner');
      assert.equal(owner.status, 200, JSON.stringify(owner.body));
      const answers = await flood;

      const verified = answers.filter((r) => r.status === 401);
      assert.ok(verified.length <= 10, `${verified.length} bogus sign-ins were hashed`);
      for (const res of answers.filter((r) => r.status !== 401)) assertError(res, 429, 'rate_limited');
      // Before the fix the owner's hash queued behind all 300; now the guesser's run one at a
      // time beside the owner's, so the owner is done while the guesser is not.
      const verifiedAfterOwner = order.slice(order.indexOf('owner')).filter((o) => o === 'verified').length;
      assert.ok(verifiedAfterOwner >= 1, `the owner waited behind all ${verified.length} bogus verifications: ${order.join(', ')}`);
    } finally {
      await t.close();
    }
  });

  test("sign-ins from many addresses at once beyond the queue's bound answer 503 busy with Retry-After instead of waiting", async () => {
    // Hashes slow enough (the production cost) that all 24 arrive while the first few are still
    // being hashed, even on a loaded machine.
    const t = await startTestServer({ passwordHashCost: 2 ** 17, passwordHashQueue: { maxWaiting: 3 } });
    try {
      await setupOwner(t.client);
      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          new ClientFrom(t.api, `127.0.0.${40 + i}`).post('/auth/login', { username: `ghost-${i}`, password: 'a-bogus-password' }),
        ),
      );
      const busy = answers.filter((r) => r.status === 503);
      assert.ok(busy.length >= 1, `statuses: ${answers.map((r) => r.status).join(' ')}`);
      for (const res of busy) {
        assertError(res, 503, 'busy');
        const retryAfter = Number(res.headers.get('retry-after'));
        assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${res.headers.get('retry-after')}`);
      }
      for (const res of answers.filter((r) => r.status !== 503)) assertError(res, 401, 'invalid_credentials');
      // The slots and the bounded line, plus the few that arrive after some finished: an
      // unbounded queue hashes all 24.
      assert.ok(answers.length - busy.length <= 12, `${answers.length - busy.length} were hashed`);
    } finally {
      await t.close();
    }
  });

  test('registrations from one address beyond the per-address bound answer 429 rate_limited; the ones let in are created', async () => {
    const t = await startTestServer({ passwordHashCost: SLOW_HASH, passwordHashQueue: { maxWaitingPerAddress: 2 } });
    try {
      const owner = await setupOwner(t.client);
      await t.client.patch('/server/settings', { allow_self_registration: true }, { token: owner.access });
      const flooder = new ClientFrom(t.api, '127.0.0.70');
      const answers: ApiResponse[] = await Promise.all(
        Array.from({ length: 12 }, (_, i) => flooder.post('/auth/register', { username: `flood-${i}`, password: 'a-long-password' })),
      );
      const limited = answers.filter((r) => r.status === 429);
      assert.ok(limited.length >= 1, `statuses: ${answers.map((r) => r.status).join(' ')}`);
      for (const res of limited) assertError(res, 429, 'rate_limited');
      for (const res of answers.filter((r) => r.status !== 429)) assert.equal(res.status, 201, JSON.stringify(res.body));
      // Another address is not held up by that one.
      const other = await new ClientFrom(t.api, '127.0.0.71').post('/auth/register', { username: 'nephew', password: 'a-long-password' });
      assert.equal(other.status, 201, JSON.stringify(other.body));
    } finally {
      await t.close();
    }
  });
});
