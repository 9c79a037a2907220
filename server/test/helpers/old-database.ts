import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after } from 'node:test';
import { chooseEngine, openConnection, type Db } from '../../src/store/database/db.ts';
import { MIGRATIONS } from '../../src/store/database/migrations/index.ts';
import { makeTempDir } from './server.ts';

export interface OldDatabase {
  /** The database as the release before the migration left it, open to be filled. */
  old: Db;
  file: string;
  engine: ReturnType<typeof chooseEngine>;
}

/**
 * A database made by every migration before the first whose SQL includes `marker`, in a temp
 * folder removed after the tests: the data an older release wrote goes in through `old`, then
 * the test opens `file` with openDatabase to upgrade it.
 */
export async function databaseBefore(marker: string): Promise<OldDatabase> {
  const before = MIGRATIONS.findIndex((sql) => sql.includes(marker));
  assert.ok(before > 0, `a migration includes ${marker}`);
  return databaseAt(before);
}

/**
 * A database as the release at schema `version` left it: only the first `version` migrations
 * run (0: an empty file), in a temp folder removed after the tests.
 */
export async function databaseAt(version: number): Promise<OldDatabase> {
  const dir = await makeTempDir();
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'hearth.db');
  const engine = chooseEngine(process.env.HEARTH_SQLITE === 'node' ? 'node' : 'auto');
  const old = openConnection(file, { engine });
  old.pragma('foreign_keys = ON');
  for (let step = 1; step <= version; step++)
    old.transaction(() => {
      old.exec(MIGRATIONS[step - 1]!);
      old.pragma(`user_version = ${step}`);
    });
  return { old, file, engine };
}
