import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../../src/app-error.ts';
import { DEFAULT_CONFIG } from '../../../src/config.ts';
import type { ServiceDeps } from '../../../src/services/common/context.ts';
import { RateLimiter } from '../../../src/services/common/rate-limiter.ts';
import { DavPasswordService, MAX_DAV_PASSWORDS, type DavCredentials } from '../../../src/services/identity/dav-passwords.ts';
import { openConnection, type Db } from '../../../src/store/database/db.ts';
import { createStore } from '../../../src/store/index.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let t: TestServer;
let owner: SignedIn;
let alice: SignedIn;
let db: Db;
/**
 * The drive door's verifier has no route until /dav/ exists: it is the real service on the
 * server's own database (a second connection), so what the HTTP routes make, revoke or disable
 * is what it sees, with no cache between.
 */
let verifier: DavPasswordService;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  alice = await createMember(t.client, owner, 'alice');
  db = openConnection(path.join(t.dataDir, 'hearth.db'), { fileMustExist: true });
  const store = createStore(db);
  const rateLimiter = new RateLimiter(store.rateEvents, DEFAULT_CONFIG.rateLimit, Date.now, store.transaction);
  verifier = new DavPasswordService({ store, rateLimiter, now: Date.now } as unknown as ServiceDeps);
});
after(async () => {
  db.close();
  await t.close();
});

async function make(who: SignedIn, name: string): Promise<any> {
  const res = await t.client.post('/me/dav-passwords', { name }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

async function listed(who: SignedIn): Promise<any[]> {
  const res = await t.client.get('/me/dav-passwords', { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.next_cursor, null);
  return res.body.items;
}

let addresses = 0;
/** An address of its own for each test: the limiter counts wrong guesses per address. */
function freshAddress(): { ip: string; userAgent: null } {
  return { ip: `10.0.0.${++addresses}`, userAgent: null };
}

/** The AppError code the verifier refuses with, or 'ok' with the account's id. */
function attempt(credentials: DavCredentials, ip = freshAddress()): string {
  try {
    return `ok:${verifier.verify(credentials, ip).userId}`;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe('drive passwords: the routes', () => {
  test('POST makes one and shows it once: random, typable groups; GET lists it without it', async () => {
    const made = await make(owner, "  Dad's laptop ");
    assert.equal(made.name, "Dad's laptop", 'spaces around the name are not part of it');
    assert.match(made.password, /^[0-9A-Z]{5}(-[0-9A-Z]{5}){4}-[0-9A-Z]$/, 'groups of letters and digits, easy to type');
    assert.equal(typeof made.id, 'string');
    assert.ok(Math.abs(made.created_at - Date.now()) < 60_000);
    const other = await make(owner, 'Kitchen PC');
    assert.notEqual(other.password, made.password);

    const items = await listed(owner);
    const mine = items.find((item) => item.id === made.id);
    assert.deepEqual(mine, { id: made.id, name: "Dad's laptop", created_at: made.created_at, last_used_at: null });
    const res = await t.client.get('/me/dav-passwords', { token: owner.access });
    assert.ok(!JSON.stringify(res.body).includes(made.password), 'the password is never listed');
    assert.ok(!JSON.stringify(res.body).includes('hash'), 'nor its hash');
  });

  test("DELETE revokes one's own; another account's is not there (404) and keeps working", async () => {
    const ownersOwn = await make(owner, 'Study');
    const alices = await make(alice, 'Alice laptop');

    assertError(await t.client.delete(`/me/dav-passwords/${ownersOwn.id}`, { token: alice.access }), 404, 'not_found');
    assert.ok((await listed(owner)).some((item) => item.id === ownersOwn.id));
    assert.ok(!(await listed(alice)).some((item) => item.id === ownersOwn.id), "another's drive passwords are not listed");
    assert.equal(attempt({ username: 'owner', password: ownersOwn.password }), `ok:${owner.userId}`);

    const del = await t.client.delete(`/me/dav-passwords/${alices.id}`, { token: alice.access });
    assert.equal(del.status, 204);
    assert.ok(!(await listed(alice)).some((item) => item.id === alices.id));
    assertError(await t.client.delete(`/me/dav-passwords/${alices.id}`, { token: alice.access }), 404, 'not_found');
  });

  test('a name is required, 1 to 64 characters, and cannot spoof', async () => {
    assertError(await t.client.post('/me/dav-passwords', {}, { token: owner.access }), 400, 'missing_field', 'name');
    assertError(await t.client.post('/me/dav-passwords', { name: 7 }, { token: owner.access }), 400, 'invalid_input', 'name');
    assertError(await t.client.post('/me/dav-passwords', { name: '   ' }, { token: owner.access }), 400, 'invalid_name', 'name');
    assertError(await t.client.post('/me/dav-passwords', { name: 'x'.repeat(65) }, { token: owner.access }), 400, 'invalid_name', 'name');
    assertError(await t.client.post('/me/dav-passwords', { name: 'pdf\u202Eexe' }, { token: owner.access }), 400, 'invalid_name', 'name');
    assert.equal((await make(owner, 'é'.repeat(64))).name, 'é'.repeat(64), '64 characters, however many bytes');
  });

  test(`an account holds at most ${MAX_DAV_PASSWORDS}; revoking one makes room`, async () => {
    const bob = await createMember(t.client, owner, 'bob');
    const made = [];
    for (let i = 0; i < MAX_DAV_PASSWORDS; i++) made.push(await make(bob, `Computer ${i + 1}`));
    assertError(await t.client.post('/me/dav-passwords', { name: 'One more' }, { token: bob.access }), 409, 'too_many_drive_passwords');
    assert.equal((await listed(bob)).length, MAX_DAV_PASSWORDS);
    assert.equal((await t.client.delete(`/me/dav-passwords/${made[0].id}`, { token: bob.access })).status, 204);
    await make(bob, 'One more');
    assert.equal((await make(alice, 'Not counted against bob')).name, 'Not counted against bob');
  });

  test('signed out: 401 on each route', async () => {
    assertError(await t.client.get('/me/dav-passwords'), 401, 'unauthorized');
    assertError(await t.client.post('/me/dav-passwords', { name: 'x' }), 401, 'unauthorized');
    assertError(await t.client.delete('/me/dav-passwords/01ABC'), 401, 'unauthorized');
  });
});

describe('drive passwords: the verifier for the coming /dav/ door', () => {
  test('the username and a drive password give the account, however the password is typed; last use is recorded', async () => {
    const made = await make(alice, 'Alice desktop');
    assert.equal(attempt({ username: 'alice', password: made.password }), `ok:${alice.userId}`);
    assert.equal(attempt({ username: ' ALICE ', password: made.password.toLowerCase().replaceAll('-', ' ') }), `ok:${alice.userId}`);
    const actor = verifier.verify({ username: 'alice', password: made.password }, freshAddress());
    assert.equal(actor.davPasswordId, made.id);
    assert.equal(actor.role, 'member');
    assert.notEqual(actor.sessionId, alice.sessionId, 'no session of the app: what a session unlocks stays locked');
    const used = (await listed(alice)).find((item) => item.id === made.id);
    assert.ok(used.last_used_at !== null && Math.abs(used.last_used_at - Date.now()) < 60_000, 'GET shows the last use');
  });

  test("the account's own password is refused (two-step sign-in cannot be gone around), as are another's drive password and a wrong one", async () => {
    const alices = await make(alice, 'Alice tablet');
    assert.equal(attempt({ username: 'alice', password: alice.password }), 'invalid_credentials');
    assert.equal(attempt({ username: 'owner', password: owner.password }), 'invalid_credentials');
    assert.equal(
      attempt({ username: 'owner', password: alices.password }),
      'invalid_credentials',
      'a drive password opens only its own account',
    );
    assert.equal(attempt({ username: 'nobody', password: alices.password }), 'invalid_credentials');
    assert.equal(attempt({ username: 'alice', password: '' }), 'invalid_credentials');
    assert.equal(attempt({ username: 'alice', password: `${alices.password}${'x'.repeat(300)}` }), 'invalid_credentials');
  });

  test('revoked: refused from the next request on', async () => {
    const made = await make(alice, 'Old laptop');
    assert.equal(attempt({ username: 'alice', password: made.password }), `ok:${alice.userId}`);
    assert.equal((await t.client.delete(`/me/dav-passwords/${made.id}`, { token: alice.access })).status, 204);
    assert.equal(attempt({ username: 'alice', password: made.password }), 'invalid_credentials');
  });

  test('switching an account off or giving it a temporary password revokes its drive passwords, as it ends its sessions', async () => {
    const carol = await createMember(t.client, owner, 'carol');
    const made = await make(carol, 'Carol laptop');
    assert.equal(attempt({ username: 'carol', password: made.password }), `ok:${carol.userId}`);
    assert.equal((await t.client.patch(`/admin/users/${carol.userId}`, { disabled: true }, { token: owner.access })).status, 200);
    assert.equal(attempt({ username: 'carol', password: made.password }), 'invalid_credentials');
    assert.equal((await t.client.patch(`/admin/users/${carol.userId}`, { disabled: false }, { token: owner.access })).status, 200);
    assert.equal(attempt({ username: 'carol', password: made.password }), 'invalid_credentials', 'switched on again, not back');
    const carolAgain = await login(t.client, 'carol', carol.password);
    const again = await make(carolAgain, 'Carol laptop');
    assert.equal(attempt({ username: 'carol', password: again.password }), `ok:${carol.userId}`);

    const reset = await t.client.post(`/admin/users/${carol.userId}/reset-password`, {}, { token: owner.access });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal(attempt({ username: 'carol', password: again.password }), 'invalid_credentials');
  });

  test("wrong guesses from one address are limited like sign-in's (then even the right one waits); other addresses and the app's sign-in are not held", async () => {
    const made = await make(alice, 'Guessed at');
    const guesser = freshAddress();
    const { maxFailures } = DEFAULT_CONFIG.rateLimit;
    for (let i = 0; i < maxFailures; i++) {
      assert.equal(attempt({ username: 'alice', password: `WRONG-${i}` }, guesser), 'invalid_credentials');
    }
    assert.equal(attempt({ username: 'alice', password: 'WRONG-again' }, guesser), 'rate_limited');
    assert.equal(attempt({ username: 'alice', password: made.password }, guesser), 'rate_limited');
    try {
      verifier.verify({ username: 'alice', password: made.password }, guesser);
      assert.fail('refused');
    } catch (error) {
      assert.ok(Number((error as AppError).headers?.['Retry-After']) > 0, 'says when to try again');
    }
    assert.equal(attempt({ username: 'alice', password: made.password }), `ok:${alice.userId}`, 'another address is not held');

    // A drive still holding a revoked password, retrying from this very computer, must not lock it out of the app.
    const here = { ip: '127.0.0.1', userAgent: null };
    for (let i = 0; i <= maxFailures; i++) attempt({ username: 'alice', password: 'stale' }, here);
    assert.equal(attempt({ username: 'alice', password: made.password }, here), 'rate_limited');
    await login(t.client, 'alice', alice.password);
  });
});
