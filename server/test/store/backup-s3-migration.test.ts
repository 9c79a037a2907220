/**
 * Migration 10 (off-site destinations) rebuilds the backup tables to widen kind's CHECK: an
 * owner's folder destinations and the history of their runs must come through whole, with the
 * runs still tied to their destination.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { chooseEngine, openConnection, openDatabase } from '../../src/store/db.ts';
import { MIGRATIONS } from '../../src/store/migrations.ts';
import { makeTempDir } from '../helpers/server.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('a database with folder destinations and runs, upgraded: every row is kept, runs stay in order and follow their destination', async () => {
  const dir = await makeTempDir();
  dirs.push(dir);
  const file = path.join(dir, 'hearth.db');
  const engine = chooseEngine(process.env.HEARTH_SQLITE === 'node' ? 'node' : 'auto');
  const old = openConnection(file, { engine });
  old.pragma('foreign_keys = ON');
  const before = MIGRATIONS.findIndex((sql) => sql.includes("kind IN ('folder', 's3')"));
  assert.ok(before > 0, 'the off-site migration exists');
  for (let version = 1; version <= before; version++)
    old.transaction(() => {
      old.exec(MIGRATIONS[version - 1]!);
      old.pragma(`user_version = ${version}`);
    });
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
