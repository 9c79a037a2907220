/**
 * The migrations are one file each, so branches add them side by side: their numbers must still
 * run from 1 without a gap or a repeat, each file named by its own, and a database left at any
 * earlier version must come up to the schema a fresh install has.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { openDatabase, type Db } from '../../src/store/database/db.ts';
import { MIGRATIONS } from '../../src/store/database/migrations/index.ts';
import * as listed from '../../src/store/database/migrations/list.ts';
import { databaseAt } from '../helpers/old-database.ts';

const folder = path.resolve(import.meta.dirname, '../../src/store/database/migrations');
const MIGRATION_FILE = /^(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*\.ts$/;

test('each migration is a file named by its number, listed once, the numbers running from 1 without a gap', async () => {
  const files = fs
    .readdirSync(folder)
    .filter((name) => !['index.ts', 'list.ts'].includes(name))
    .sort();
  for (const name of files) assert.match(name, MIGRATION_FILE, `${name} is named NNN-purpose.ts`);
  assert.deepEqual(
    files.map((name) => Number(MIGRATION_FILE.exec(name)![1])),
    files.map((_, i) => i + 1),
  );

  const inList = Object.values(listed);
  assert.equal(inList.length, files.length, 'list.ts has one line per migration file');
  for (const [i, name] of files.entries()) {
    const { migration } = (await import(pathToFileURL(path.join(folder, name)).href)) as { migration: { version: number; sql: string } };
    assert.equal(migration.version, i + 1, `${name} says its own number`);
    assert.ok(inList.includes(migration), `${name} is in list.ts`);
    assert.equal(MIGRATIONS[i], migration.sql, `${name} runs as migration ${i + 1}`);
  }
  assert.equal(MIGRATIONS.length, files.length);
});

/** The schema as SQLite keeps it: every table, index and trigger with its SQL, in name order. */
function schemaOf(db: Db): unknown[] {
  return (
    db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").all() as object[]
  ).map((row) => ({ ...row }));
}

test('a database made at every earlier version upgrades to the latest, with the same schema as a fresh one', async () => {
  const fresh = await databaseAt(0);
  fresh.old.close();
  const freshDb = openDatabase(fresh.file, fresh.engine);
  const latest = schemaOf(freshDb);
  freshDb.close();
  assert.ok(latest.length > 0);

  for (let version = 1; version < MIGRATIONS.length; version++) {
    const { old, file, engine } = await databaseAt(version);
    assert.equal(old.pragma('user_version'), version);
    old.close();
    const db = openDatabase(file, engine);
    try {
      assert.equal(db.pragma('user_version'), MIGRATIONS.length, `from version ${version}`);
      assert.deepEqual(schemaOf(db), latest, `from version ${version}`);
      assert.deepEqual(db.prepare('PRAGMA foreign_key_check').all(), [], `from version ${version}`);
    } finally {
      db.close();
    }
  }
});
