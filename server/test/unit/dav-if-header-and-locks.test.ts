/**
 * The WebDAV If header's grammar and truth (RFC 4918 10.4) and the lock manager's rules of scope,
 * conflict and expiry, on a clock the test moves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BadIfHeader, ifHolds, parseIf, submittedTokens, type IfState } from '../../src/http/dav/if-header.ts';
import { LockManager, MAX_LOCK_SECONDS } from '../../src/http/dav/lock-manager.ts';
import { timeoutOf } from '../../src/http/dav/locking.ts';

test('untagged and tagged lists, Not, entity tags; a header that is not the grammar is refused', () => {
  assert.equal(parseIf(''), null);
  assert.deepEqual(parseIf('(<urn:uuid:a> ["1"]) (Not <DAV:no-lock>)'), [
    {
      resource: null,
      conditions: [
        { not: false, token: 'urn:uuid:a' },
        { not: false, etag: '"1"' },
      ],
    },
    { resource: null, conditions: [{ not: true, token: 'DAV:no-lock' }] },
  ]);
  assert.deepEqual(parseIf('<http://h/dav/a> (<t1>) (<t2>) </dav/b> (["x"])'), [
    { resource: 'http://h/dav/a', conditions: [{ not: false, token: 't1' }] },
    { resource: 'http://h/dav/a', conditions: [{ not: false, token: 't2' }] },
    { resource: '/dav/b', conditions: [{ not: false, etag: '"x"' }] },
  ]);
  for (const bad of ['tokens please', '(<a>', '()', '(<a>) <http://h/x> (<b>)', '<http://h/x>', '(<a> junk)']) {
    assert.throws(() => parseIf(bad), BadIfHeader, bad);
  }
});

test('the header holds when one list does; Not negates; only tokens not negated are submitted', () => {
  const state: IfState = { lockedWith: (token) => token === 'good', etag: '"e"' };
  const holds = (header: string) => ifHolds(parseIf(header)!, () => state);
  assert.equal(holds('(<good>)'), true);
  assert.equal(holds('(<bad>)'), false);
  assert.equal(holds('(<good> ["other"])'), false, 'every condition of a list must hold');
  assert.equal(holds('(<bad>) (Not <DAV:no-lock>)'), true, 'the second list holds');
  assert.equal(holds('(Not ["e"])'), false);
  assert.equal(
    ifHolds(parseIf('<http://elsewhere/> (<good>)')!, () => null),
    false,
    'a resource that is not here holds nothing',
  );
  assert.deepEqual([...submittedTokens(parseIf('(<a>) (Not <b>) (<c> ["e"])'))], ['a', 'c']);
});

test('Timeout: the first Second-N or Infinite, capped at an hour, at least a second', () => {
  assert.equal(timeoutOf(''), MAX_LOCK_SECONDS);
  assert.equal(timeoutOf('Second-600'), 600);
  assert.equal(timeoutOf('Infinite, Second-4100000000'), MAX_LOCK_SECONDS);
  assert.equal(timeoutOf('Second-99999'), MAX_LOCK_SECONDS);
  assert.equal(timeoutOf('Second-0'), 1);
  assert.equal(timeoutOf('Fortnight, Second-30'), 30);
});

test('locks: scope by depth, clashes by scope, per account, gone once expired', () => {
  let now = 1_000_000;
  const locks = new LockManager(() => now);
  const base = { userId: 'u1', owner: '', timeoutSeconds: 60 };
  const folder = locks.create({ ...base, names: ['Photos'], rootHref: '/dav/Photos/', scope: 'shared', depth: 'infinity' })!;
  assert.deepEqual(locks.covering('u1', ['photos', 'a.jpg']), [folder], 'infinity holds what is inside; names match in any case');
  assert.deepEqual(locks.covering('u2', ['Photos', 'a.jpg']), [], 'another account has no lock here');
  assert.equal(locks.find('u2', folder.token), null, 'nor can it use the token');

  const wanted = { userId: 'u1', names: ['Photos', 'a.jpg'], depth: '0' as const };
  assert.equal(locks.conflicts({ ...wanted, scope: 'shared' }).length, 0, 'shared with shared');
  assert.deepEqual(locks.conflicts({ ...wanted, scope: 'exclusive' }), [folder]);
  assert.deepEqual(locks.conflicts({ userId: 'u1', names: [], scope: 'exclusive', depth: 'infinity' }), [folder], 'a lock below');
  assert.equal(locks.conflicts({ userId: 'u1', names: [], scope: 'exclusive', depth: '0' }).length, 0);

  const file = locks.create({
    ...base,
    names: ['note.txt'],
    rootHref: '/dav/note.txt',
    scope: 'exclusive',
    depth: '0',
    timeoutSeconds: 5,
  })!;
  assert.deepEqual(locks.covering('u1', ['note.txt', 'x']), [], 'depth 0 holds nothing below');
  now += 5000;
  assert.equal(locks.find('u1', file.token), null, 'expired');
  assert.deepEqual(locks.covering('u1', ['note.txt']), []);
  locks.refresh(folder, 60);
  now += 59_000;
  assert.equal(locks.find('u1', folder.token), folder, 'a refresh counts from when it was made');
  locks.dropWithin('u1', ['Photos']);
  assert.equal(locks.find('u1', folder.token), null);
});
