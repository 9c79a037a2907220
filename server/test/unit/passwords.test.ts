import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { DEFAULT_CONFIG } from '../../src/config.ts';
import { PasswordHasher } from '../../src/services/identity/passwords.ts';

const PASSWORD = 'correct horse battery staple';
const hasher = new PasswordHasher(DEFAULT_CONFIG.passwordHashCost, DEFAULT_CONFIG.passwordHashConcurrency);
let stored: string;

before(async () => {
  stored = await hasher.hash(PASSWORD);
});

test('the production default scrypt cost is N = 2^17 (OWASP minimum) with r = 8, p = 1', () => {
  assert.equal(DEFAULT_CONFIG.passwordHashCost, 131072);
});

test('a hash made at the production cost is stored as scrypt$131072$8$1$<16-byte salt>$<32-byte key>', () => {
  assert.match(stored, /^scrypt\$131072\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.ok(!stored.includes(PASSWORD));
});

test('the same password hashes differently each time (random salt)', async () => {
  const again = await hasher.hash(PASSWORD);
  assert.notEqual(again, stored);
  assert.equal(await hasher.verify(PASSWORD, again), true);
});

test('verify accepts the right password and refuses a wrong one', async () => {
  const [right, trailingSpace, otherCase, empty] = await Promise.all([
    hasher.verify(PASSWORD, stored),
    hasher.verify(`${PASSWORD} `, stored),
    hasher.verify('Correct horse battery staple', stored),
    hasher.verify('', stored),
  ]);
  assert.equal(right, true);
  assert.equal(trailingSpace, false);
  assert.equal(otherCase, false);
  assert.equal(empty, false);
});

test('verify treats composed and decomposed Unicode spellings of a password as the same (NFC)', async () => {
  const composed = 'caf\u00e9-password';
  const decomposed = 'cafe\u0301-password';
  const hash = await hasher.hash(composed);
  assert.equal(await hasher.verify(decomposed, hash), true);
});

test('verify refuses a stored value that is not a well-formed scrypt hash', async () => {
  for (const bad of ['', 'plain', 'bcrypt$10$8$1$salt$key', stored.split('$').slice(0, 5).join('$')]) {
    assert.equal(await hasher.verify(PASSWORD, bad), false, bad);
  }
});

test('verifyAgainstDummy always answers false, whatever the password', async () => {
  const results = await Promise.all([hasher.verifyAgainstDummy(PASSWORD), hasher.verifyAgainstDummy('')]);
  assert.deepEqual(results, [false, false]);
});

test("needsRehash is false for a hash at today's cost and true for one made weaker; the weaker one still verifies", async () => {
  assert.equal(hasher.needsRehash(stored), false);
  const weak = await new PasswordHasher(2 ** 12, 1).hash(PASSWORD);
  assert.match(weak, /^scrypt\$4096\$8\$1\$/);
  assert.equal(hasher.needsRehash(weak), true);
  assert.equal(await hasher.verify(PASSWORD, weak), true);
  assert.equal(await hasher.verify('wrong password!', weak), false);
});

test('the line of hashes waiting for a slot is bounded: beyond it 503 busy with Retry-After, beyond 2 from one address 429 rate_limited', async () => {
  const small = new PasswordHasher(2 ** 10, 1, { maxWaiting: 3, maxWaitingPerAddress: 2 });
  const settled = await Promise.allSettled([
    small.hash('a-password-1', 'A'), // runs
    small.hash('a-password-2', 'A'), // waits
    small.hash('a-password-3', 'A'), // waits
    small.hash('a-password-4', 'A'), // a third from A: refused
    small.hash('a-password-5', 'B'), // waits (the line is now full)
    small.hash('a-password-6', 'C'), // refused: busy
  ]);
  const codes = settled.map((r) => (r.status === 'fulfilled' ? 'ok' : (r.reason as { code: string }).code));
  assert.deepEqual(codes, ['ok', 'ok', 'ok', 'rate_limited', 'ok', 'busy']);
  const busy = (settled[5] as PromiseRejectedResult).reason as { headers: Record<string, string> };
  assert.ok(Number(busy.headers['Retry-After']) >= 1);
});

test('the line is fair: an address with no hashes lately goes ahead of one that had some', async () => {
  const fair = new PasswordHasher(2 ** 10, 1, { maxWaiting: 10, maxWaitingPerAddress: 10 });
  const order: string[] = [];
  const run = (name: string, address: string) => fair.hash('a-password-1', address).then(() => order.push(name));
  await Promise.all([run('guesser 1', 'G'), run('guesser 2', 'G'), run('guesser 3', 'G'), run('owner', 'O')]);
  assert.deepEqual(order, ['guesser 1', 'owner', 'guesser 2', 'guesser 3']);
});

test('a hash waiting for a slot leaves the line when its signal aborts (a guess held as long as it may): it never runs, and the next one does', async () => {
  const small = new PasswordHasher(2 ** 10, 1);
  const stored = await small.hash('a-password-2');
  const giveUp = new AbortController();
  const running = small.hash('a-password-1', 'A');
  const waiting = small.verify('a-password-2', stored, 'B', giveUp.signal);
  const next = small.hash('a-password-3', 'C');
  giveUp.abort(new Error('held long enough'));
  await assert.rejects(waiting, /held long enough/);
  assert.match(await running, /^scrypt\$1024\$/);
  assert.match(await next, /^scrypt\$1024\$/);
  const alreadyAborted = AbortSignal.abort(new Error('too late'));
  await assert.rejects(small.verify('x', 'scrypt$1024$8$1$aa$bb', 'D', alreadyAborted), /too late/);
});
