import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations.ts';

export type Db = Database.Database;

/**
 * Opens the metadata store with the durability the product promises: WAL with
 * `synchronous = FULL`, so a transaction is fsynced to the WAL before its statement returns,
 * and therefore before any response that acknowledges it leaves. A `kill -9` or a power cut
 * after a 2xx loses nothing.
 */
export function openDatabase(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database is at schema ${current}, newer than this server (${MIGRATIONS.length}). ` +
        'Run a newer version of the server.',
    );
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1]!);
      db.pragma(`user_version = ${version}`);
    })();
  }
}

/** Runs `work` in one immediate transaction: all of it lands, or none of it. */
export function inTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work).immediate();
}
