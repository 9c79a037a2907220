import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db, OpenOptions, Statement } from './types.ts';

/**
 * better-sqlite3 is loaded only when this engine is chosen: inside Electron its addon (built
 * for plain Node's ABI) cannot load, and a top-level import would take the app down.
 */
export function openBetterSqlite3(file: string, options: OpenOptions): Db {
  const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  const db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.fileMustExist ?? false });
  return {
    engine: 'better',
    // better-sqlite3's statements already ignore unnamed keys and bind undefined as NULL.
    prepare: (sql) => db.prepare(sql) as unknown as Statement,
    prepareRaw: (sql) => db.prepare(sql).raw(true) as unknown as Statement,
    exec: (sql) => void db.exec(sql),
    pragma: (statement) => db.pragma(statement, { simple: true }),
    transaction: <T>(work: () => T): T => db.transaction(work).immediate(),
    backupTo: async (target) => {
      await db.backup(target, { progress: () => BACKUP_PAGES_PER_STEP });
    },
    get open() {
      return db.open;
    },
    close: () => db.close(),
  };
}

/** Pages an online backup copies before it lets the event loop run (about 400 KB at 4 KiB pages). */
const BACKUP_PAGES_PER_STEP = 100;

/** Whether better-sqlite3's addon loads in this runtime (it is built for one Node ABI). */
export function betterSqlite3Loads(): boolean {
  try {
    const Database = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
    new Database(':memory:').close();
    return true;
  } catch {
    return false;
  }
}
