/**
 * Migration 10 (off-site destinations) rebuilds the backup tables to widen kind's CHECK: an
 * owner's folder destinations and the history of their runs must come through whole, with the
 * runs still tied to their destination.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/store/database/db.ts';
import { databaseBefore } from '../helpers/old-database.ts';

test('a database with folder destinations and runs, upgraded: every row is kept, runs stay in order and follow their destination', async () => {
  const { old, file, engine } = await databaseBefore("kind IN ('folder', 's3')");
  old
    .prepare(
      "INSERT INTO backup_destinations (id, kind, name, path, encrypted, daily_at, keep_daily, keep_weekly, keep_monthly, next_run_at, stored_bytes, created_at) VALUES ('d1', 'folder', 'Blue USB disk', '/media/usb/backups', 1, 180, 7, 4, 12, 99, 1234, 5)",
    )
    .run();
  for (const [id, kind, at] of [
    ['r-b', 'backup', 20],
    ['r-a', 'verify', 10],
  ] as const)
    old
      .prepare("INSERT INTO backup_runs (id, destination_id, kind, state, started_at, problems) VALUES (?, 'd1', ?, 'succeeded', ?, '[]')")
      .run(id, kind, at);
  old.close();

  const db = openDatabase(file, engine);
  try {
    assert.deepEqual(
      { ...(db.prepare('SELECT * FROM backup_destinations').get() as object) },
      {
        id: 'd1',
        kind: 'folder',
        name: 'Blue USB disk',
        path: '/media/usb/backups',
        encrypted: 1,
        daily_at: 180,
        keep_daily: 7,
        keep_weekly: 4,
        keep_monthly: 12,
        next_run_at: 99,
        stored_bytes: 1234,
        created_at: 5,
        endpoint: null,
        region: null,
        bucket: null,
        prefix: null,
        access_key_id: null,
        // Migration 19: every destination, old ones too, keeps its latest few runs.
        keep_last: 5,
      },
    );
    assert.deepEqual(
      (db.prepare('SELECT id FROM backup_runs ORDER BY rowid').all() as { id: string }[]).map((r) => r.id),
      ['r-b', 'r-a'],
      'the runs, in the order they were recorded',
    );
    db.prepare("DELETE FROM backup_destinations WHERE id = 'd1'").run();
    assert.equal((db.prepare('SELECT count(*) AS n FROM backup_runs').get() as { n: number }).n, 0, 'runs still follow their destination');
  } finally {
    db.close();
  }
});
