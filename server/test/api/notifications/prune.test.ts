import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

// The hourly job (it also runs as the server starts) clears old notifications: a read one last
// told more than 90 days ago, any one more than a year ago. Time is moved by writing old rows
// into the real database while the server is stopped.

const DAY_MS = 24 * 3_600_000;

test('the hourly job clears read notifications older than 90 days and any older than a year; newer ones, and unread ones under a year, stay', async () => {
  const dataDir = await makeTempDir();
  let t: TestServer = await startTestServer({ dataDir });
  try {
    const owner = await setupOwner(t.client);
    const mum = await createMember(t.client, owner, 'mum');
    const dad = await createMember(t.client, owner, 'dad');
    await t.server.close();

    const now = Date.now();
    const db = openConnection(path.join(dataDir, 'hearth.db'));
    const insert = db.prepare(`INSERT INTO notifications (id, user_id, kind, topic, title, body, link, created_at, updated_at, read_at)
      VALUES (@id, @user, 'shared_with_you', @id, @id, '', '/shared', @at, @at, @read)`);
    // [id, days since last told, read (days ago) or unread]
    const rows: [string, number, number | null][] = [
      ['read91', 91, 90],
      ['read89', 89, 88],
      ['readToday', 1, 0],
      ['unread200', 200, null],
      ['unread366', 366, null],
      ['read400', 400, 399],
    ];
    for (const [user, prefix] of [
      [mum.userId, 'mum'],
      [dad.userId, 'dad'],
    ] as const) {
      for (const [id, days, readDays] of rows) {
        insert.run({ id: `${prefix}${id}`, user, at: now - days * DAY_MS, read: readDays === null ? null : now - readDays * DAY_MS });
      }
    }
    // An album burst retold yesterday (first told long ago) is as new as its last telling.
    insert.run({ id: 'mumretold', user: mum.userId, at: now - 500 * DAY_MS, read: null });
    db.prepare('UPDATE notifications SET updated_at = ? WHERE id = ?').run(now - DAY_MS, 'mumretold');
    db.close();

    t = await startTestServer({ dataDir });
    const left = async (who: { access: string }) =>
      ((await t.client.get('/notifications', { token: who.access })).body.items as { id: string }[]).map((n) => n.id).sort();
    const expected = ['read89', 'readToday', 'unread200'];
    for (let i = 0; i < 200 && (await left(mum)).length !== expected.length + 1; i++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    assert.deepEqual(await left(mum), [...expected.map((id) => `mum${id}`), 'mumretold'].sort());
    assert.deepEqual(await left(dad), expected.map((id) => `dad${id}`).sort());
    assert.equal((await t.client.get('/notifications', { token: mum.access })).body.unread_count, 2);
  } finally {
    await t.close();
  }
});
