import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { addressKey, RateLimiter } from '../../src/services/common/rate-limiter.ts';
import { migrate, openConnection } from '../../src/store/database/db.ts';
import { RateEventsRepo } from '../../src/store/database/rate-events.repo.ts';

const LIMITS = { maxFailures: 10, windowMs: 15 * 60_000, slowAfter: 5, slowBaseMs: 500, slowMaxMs: 10_000, maxHoldMs: 10_000 };

describe('the guess limiter', () => {
  let clock: number;
  let waits: number[];
  let repo: RateEventsRepo;
  let limiter: RateLimiter;

  beforeEach(() => {
    const db = openConnection(':memory:');
    migrate(db);
    repo = new RateEventsRepo(db);
    clock = 1_000_000;
    waits = [];
    // The clock moves by the time waited, as it would.
    const wait = async (ms: number) => {
      waits.push(ms);
      clock += ms;
    };
    limiter = new RateLimiter(
      repo,
      LIMITS,
      () => clock,
      (work) => db.transaction(work),
      wait,
    );
  });

  const wrong = () => Promise.resolve(false);
  const right = () => Promise.resolve(true);
  const buckets = (address: string) => ({ limited: [`login:ip:${address}`], slowed: 'login:acct:owner' });

  test('an account is slowed after 5 failures: verifications are spaced 0.5 s, then doubling up to 10 s, and never refused', async () => {
    const starts: number[] = [];
    const wrongAt = () => (starts.push(clock), Promise.resolve(false));
    for (let i = 0; i < 12; i++) assert.equal(await limiter.guess(buckets(`10.0.0.${i}`), wrongAt), false);
    const spacing = starts.slice(1).map((at, i) => at - starts[i]!);
    assert.deepEqual(spacing, [0, 0, 0, 0, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    assert.equal(await limiter.guess(buckets('10.0.0.99'), right), true);
  });

  test('the delay counts from the latest failure: a user coming back a minute later does not wait', async () => {
    for (let i = 0; i < 6; i++) await limiter.guess(buckets(`10.0.0.${i}`), wrong);
    waits = [];
    clock += 60_000;
    assert.equal(await limiter.guess(buckets('10.0.0.50'), right), true);
    assert.deepEqual(waits, []);
  });

  test("a success forgets nothing by itself, but the caller's reset of the account bucket starts the delays over", async () => {
    for (let i = 0; i < 6; i++) await limiter.guess(buckets(`10.0.0.${i}`), wrong);
    limiter.reset('login:acct:owner');
    waits = [];
    for (let i = 0; i < 5; i++) await limiter.guess(buckets(`10.0.1.${i}`), wrong);
    assert.deepEqual(waits, [], 'five fresh failures are free again');
  });

  test('an address is refused with 429 after 10 failures, even for a right guess, and a right guess does not count', async () => {
    await limiter.guess(buckets('10.0.0.1'), right);
    for (let i = 0; i < 10; i++) await limiter.guess({ limited: ['login:ip:10.0.0.1'] }, wrong);
    await assert.rejects(
      limiter.guess({ limited: ['login:ip:10.0.0.1'] }, right),
      (e: any) => e.code === 'rate_limited' && Number(e.headers['Retry-After']) >= 1,
    );
  });

  test('a guess is counted before it is verified: guesses in flight use up the allowance, and an error in verification gives the attempt back', async () => {
    let release!: () => void;
    const held = new Promise<boolean>((resolve) => (release = () => resolve(false)));
    const inFlight = Array.from({ length: 10 }, () => limiter.guess({ limited: ['share:L:ip:A'] }, () => held));
    await assert.rejects(limiter.guess({ limited: ['share:L:ip:A'] }, right), (e: any) => e.code === 'rate_limited');
    release();
    await Promise.all(inFlight);
    assert.equal(repo.countSince('share:L:ip:A', 0).count, 10);
    await assert.rejects(limiter.guess({ limited: ['x:ip:B'] }, () => Promise.reject(new Error('queue full'))));
    assert.equal(repo.countSince('x:ip:B', 0).count, 0);
  });

  test('at most one verification is in flight per bucket; different buckets run side by side', async () => {
    let running = 0;
    let most = 0;
    const verify = async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setImmediate(resolve));
      running--;
      return false;
    };
    await Promise.all([1, 2, 3, 4].map(() => limiter.guess({ limited: ['login:ip:A'] }, verify)));
    assert.equal(most, 1, 'one address');
    most = 0;
    await Promise.all(['B', 'C', 'D'].map((a) => limiter.guess({ limited: [`login:ip:${a}`] }, verify)));
    assert.equal(most, 3, 'three addresses');
    most = 0;
    await Promise.all(['E', 'F'].map((a) => limiter.guess({ limited: [`login:ip:${a}`], slowed: 'login:acct:x' }, verify)));
    assert.equal(most, 1, 'one account');
  });
});

describe('no guess is held past maxHoldMs (issue 19, item 19)', () => {
  let clock: number;
  let waits: number[];
  let repo: RateEventsRepo;
  let db: ReturnType<typeof openConnection>;

  beforeEach(() => {
    db = openConnection(':memory:');
    migrate(db);
    repo = new RateEventsRepo(db);
    clock = 1_000_000;
    waits = [];
  });

  /** A limiter on the test's clock; each check is expected to take `checkMs`. */
  const limiterWith = (limits: Partial<typeof LIMITS>, checkMs = 0) =>
    new RateLimiter(
      repo,
      { ...LIMITS, ...limits },
      () => clock,
      (work) => db.transaction(work),
      async (ms: number) => {
        waits.push(ms);
        clock += ms;
      },
      () => checkMs,
    );
  const wrong = () => Promise.resolve(false);
  const onLink = (address: string) => ({ limited: [`share:L:ip:${address}`], slowed: 'share:L' });
  const retryAfterOf = (error: any) => Number(error.headers['Retry-After']);

  test('guesses sent at once to a slowed link: those whose turn, after the line ahead and their slow-down, would pass the bound are refused at once with Retry-After, and do not count', async () => {
    const limiter = limiterWith({ slowAfter: 1, slowBaseMs: 4_000, slowMaxMs: 4_000 }, 500);
    assert.equal(await limiter.guess(onLink('A'), wrong), false);
    const settled = await Promise.allSettled(['A', 'B', 'C', 'D'].map((address) => limiter.guess(onLink(address), wrong)));
    // 4 s + 0.5 s, then 4 s + 0.5 s more: two fit in 10 s; the third would start 13 s from now.
    assert.deepEqual(
      settled.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as { code: string }).code)),
      [false, false, 'rate_limited', 'rate_limited'],
    );
    assert.deepEqual(
      settled.slice(2).map((r) => retryAfterOf((r as PromiseRejectedResult).reason)),
      [13, 13],
    );
    assert.deepEqual(waits, [4_000, 4_000], 'the two admitted waited their slow-down, nothing more');
    assert.equal(repo.countSince('share:L', 0).count, 3, 'the first failure and the two checked; the refused were no guesses');
    assert.equal(repo.countSince('share:L:ip:C', 0).count, 0);
  });

  test("a guess alone in its line is never refused for its slow-down: the delay stops short of the bound by the check's time", async () => {
    const limiter = limiterWith({ slowAfter: 1, slowBaseMs: 500, slowMaxMs: 10_000 }, 300);
    for (let i = 0; i < 8; i++) assert.equal(await limiter.guess(onLink(`10.0.0.${i}`), wrong), false);
    assert.deepEqual(waits, [500, 1_000, 2_000, 4_000, 8_000, 9_700, 9_700]);
  });

  test('a guess still waiting in its line when its time is up gives up with 429 and Retry-After, and does not count; the line behind it goes on', async () => {
    const limiter = limiterWith({ maxHoldMs: 50 });
    let release!: () => void;
    const held = new Promise<boolean>((resolve) => (release = () => resolve(false)));
    // The first guess of address A holds its line (a check that takes far longer than expected).
    const first = limiter.guess({ limited: ['login:ip:A'] }, () => held);
    await assert.rejects(limiter.guess({ limited: ['login:ip:A'] }, wrong), (e: any) => e.code === 'rate_limited' && retryAfterOf(e) >= 1);
    assert.equal(repo.countSince('login:ip:A', 0).count, 1, 'only the guess being checked counts');
    release();
    assert.equal(await first, false);
    assert.equal(await limiter.guess({ limited: ['login:ip:A'] }, wrong), false, 'the lock was handed on');
  });

  test('a guess that gives up while its check waits for a hash slot is refused, and the check is told to stop waiting', async () => {
    const limiter = limiterWith({ maxHoldMs: 50 });
    let toldToStop = false;
    const waitsForSlot = (signal: AbortSignal) =>
      new Promise<boolean>((_, reject) =>
        signal.addEventListener('abort', () => {
          toldToStop = true;
          reject(new Error('left the hash line'));
        }),
      );
    await assert.rejects(limiter.guess({ limited: ['login:ip:B'] }, waitsForSlot), (e: any) => e.code === 'rate_limited');
    assert.equal(toldToStop, true);
    assert.equal(repo.countSince('login:ip:B', 0).count, 0);
  });
});

describe('addressKey: which bucket a client address counts in', () => {
  test('IPv6 addresses count by /64: every address of one home network is one bucket', () => {
    assert.equal(addressKey('2001:db8:1:2::a'), addressKey('2001:db8:1:2:ffff:ffff:ffff:1'));
    assert.equal(addressKey('2001:db8:1:2::a'), '2001:db8:1:2::/64');
    assert.equal(addressKey('2001:0DB8:0001:0002:0:0:0:1'), '2001:db8:1:2::/64');
    assert.notEqual(addressKey('2001:db8:1:2::a'), addressKey('2001:db8:1:3::a'));
    assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressKey('::1'), '0:0:0:0::/64');
  });

  test('IPv4 addresses, also when an IPv6 socket reports them mapped, count one by one', () => {
    assert.equal(addressKey('192.168.1.20'), '192.168.1.20');
    assert.equal(addressKey('::ffff:192.168.1.20'), '192.168.1.20');
    assert.notEqual(addressKey('192.168.1.20'), addressKey('192.168.1.21'));
    assert.equal(addressKey(null), 'unknown');
  });
});
