import fs from 'node:fs';
import path from 'node:path';
import { betterSqlite3Loads, openBetterSqlite3 } from './engines/better-sqlite3.ts';
import { nodeSqlite, openNodeSqlite } from './engines/node-sqlite.ts';
import type { Db, OpenOptions, SqliteEngine } from './engines/types.ts';
import { MIGRATIONS } from './migrations/index.ts';

export type { Db, RunResult, SqliteEngine, Statement } from './engines/types.ts';

/** `auto`, or an engine forced by the caller (HEARTH_SQLITE). */
export type EngineChoice = SqliteEngine | 'auto';

/**
 * Which SQLite driver this process uses. Inside Electron always node:sqlite: better-sqlite3's
 * addon is built against plain Node's headers and cannot load there (nor can it be rebuilt for
 * Electron on machines without Electron's headers), so it must never even be required. In
 * plain Node, better-sqlite3 where it loads, since it is the engine the server's figures were
 * measured on and the faster one (`npm run bench -- sqlite`); node:sqlite otherwise (a Node
 * whose ABI the installed addon was not built for).
 */
export function chooseEngine(choice: EngineChoice = 'auto', runtime = { electron: process.versions.electron !== undefined }): SqliteEngine {
  if (choice !== 'auto') return choice;
  if (runtime.electron) return 'node';
  if (!nodeSqlite()) return 'better';
  return betterSqlite3Loads() ? 'better' : 'node';
}

/** The engines this runtime can open (the store contract suite runs on each). */
export function availableEngines(): SqliteEngine[] {
  const engines: SqliteEngine[] = [];
  if (nodeSqlite()) engines.push('node');
  if (process.versions.electron === undefined && betterSqlite3Loads()) engines.push('better');
  return engines;
}

/** A bare connection: no pragmas, no migrations (tests and benchmarks that look at the file). */
export function openConnection(file: string, options: OpenOptions & { engine?: EngineChoice } = {}): Db {
  const engine = chooseEngine(options.engine);
  return engine === 'node' ? openNodeSqlite(file, options) : openBetterSqlite3(file, options);
}

/**
 * Opens the metadata store with the durability the product promises, the same on both
 * engines: WAL with `synchronous = FULL`, so a transaction is fsynced to the WAL before its
 * statement returns, and therefore before any response that acknowledges it leaves. A
 * `kill -9` or a power cut after a 2xx loses nothing.
 *
 * `sharedMemory: false` is for a disk with no room left: WAL's index then lives in this
 * process's memory instead of the memory-mapped `-shm` file, which SQLite must first extend
 * on disk (on a full disk that fails the open). The price: no other process may open the
 * database while this one has it, until the next start.
 */
export function openDatabase(file: string, engine: EngineChoice = 'auto', options: { sharedMemory?: boolean } = {}): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = openConnection(file, { engine });
  try {
    // Before the first access in WAL mode, or SQLite maps the -shm file anyway.
    if (options.sharedMemory === false) db.pragma('locking_mode = EXCLUSIVE');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version') as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `The database is at schema ${current}, newer than this server (${MIGRATIONS.length}). ` + 'Run a newer version of the server.',
    );
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1]!);
      db.pragma(`user_version = ${version}`);
    });
  }
}

/**
 * Whether SQLite refused because another connection has the database (SQLITE_BUSY, or
 * SQLITE_LOCKED): "database is locked". better-sqlite3 names the code; node:sqlite gives the
 * number, the primary code in its low byte.
 */
export function isBusy(error: unknown): boolean {
  const e = error as { code?: unknown; errcode?: unknown } | null;
  if (typeof e?.code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(e.code)) return true;
  return typeof e?.errcode === 'number' && [5, 6].includes(e.errcode & 0xff);
}

/** Runs `work` in one immediate transaction: all of it lands, or none of it. */
export function inTransaction<T>(db: Db, work: () => T): T {
  return db.transaction(work);
}
