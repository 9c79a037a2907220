import fs from 'node:fs';
import type { DatabaseSync as DatabaseSyncType, StatementSync } from 'node:sqlite';
import type { Db, OpenOptions, RunResult, Statement } from './types.ts';

type NodeSqlite = typeof import('node:sqlite');

/**
 * `node:sqlite` where this runtime has it, with what the adapter relies on: arrays as rows
 * (Node 22.16, 24.0) and unknown named parameters allowed (Node 22.15, 23.11). Loaded through
 * getBuiltinModule so that Node 20, which has no such module, can still load this file.
 */
export function nodeSqlite(): NodeSqlite | undefined {
  const get = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  // Node 22 warns on first use that node:sqlite is experimental; its API is stable in what we use.
  const module = get?.('node:sqlite') as NodeSqlite | undefined;
  const proto = module?.StatementSync?.prototype as Partial<StatementSync> | undefined;
  if (!proto || typeof proto.setReturnArrays !== 'function' || typeof proto.setAllowUnknownNamedParameters !== 'function') return undefined;
  return module;
}

/** better-sqlite3 binds `undefined` as NULL; node:sqlite refuses it. Copy only when needed. */
function bindable(params: unknown[]): unknown[] {
  let out = params;
  for (let i = 0; i < params.length; i++) {
    const param = params[i];
    let fixed = param;
    if (param === undefined) fixed = null;
    else if (typeof param === 'object' && param !== null && !ArrayBuffer.isView(param))
      fixed = withoutUndefined(param as Record<string, unknown>);
    if (fixed !== param) {
      if (out === params) out = params.slice();
      out[i] = fixed;
    }
  }
  return out;
}

function withoutUndefined(named: Record<string, unknown>): Record<string, unknown> {
  for (const key in named) {
    if (named[key] === undefined) {
      const copy: Record<string, unknown> = {};
      for (const k in named) copy[k] = named[k] === undefined ? null : named[k];
      return copy;
    }
  }
  return named;
}

class NodeStatement implements Statement {
  constructor(private readonly statement: StatementSync) {
    statement.setAllowUnknownNamedParameters(true);
  }
  run(...params: unknown[]): RunResult {
    return this.statement.run(...(bindable(params) as never[]));
  }
  get(...params: unknown[]): unknown {
    return this.statement.get(...(bindable(params) as never[]));
  }
  all(...params: unknown[]): unknown[] {
    return this.statement.all(...(bindable(params) as never[]));
  }
  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.statement.iterate(...(bindable(params) as never[])) as IterableIterator<unknown>;
  }
}

export function openNodeSqlite(file: string, options: OpenOptions): Db {
  const sqlite = nodeSqlite();
  if (!sqlite) throw new Error(`node:sqlite is not available in Node ${process.versions.node} (22.16 or newer has what Hearth needs)`);
  if ((options.fileMustExist || options.readonly) && file !== ':memory:' && !fs.existsSync(file)) {
    throw new Error(`unable to open database file: ${file} does not exist`);
  }
  const db: DatabaseSyncType = new sqlite.DatabaseSync(file, { readOnly: options.readonly ?? false });
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  let depth = 0;

  const transaction = <T>(work: () => T): T => {
    if (depth > 0) return savepoint(work);
    begin.run();
    depth++;
    try {
      const result = work();
      refusePromise(result);
      commit.run();
      return result;
    } catch (error) {
      // SQLite may already have rolled back (some errors end the transaction themselves).
      if (db.isTransaction) rollback.run();
      throw error;
    } finally {
      depth--;
    }
  };

  const savepoint = <T>(work: () => T): T => {
    const name = `hearth_sp${depth}`;
    db.exec(`SAVEPOINT ${name}`);
    depth++;
    try {
      const result = work();
      refusePromise(result);
      db.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      if (db.isTransaction) db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
      throw error;
    } finally {
      depth--;
    }
  };

  return {
    engine: 'node',
    prepare: (sql) => new NodeStatement(db.prepare(sql)),
    prepareRaw: (sql) => {
      const statement = db.prepare(sql);
      statement.setReturnArrays(true);
      return new NodeStatement(statement);
    },
    exec: (sql) => db.exec(sql),
    pragma: (statement) => {
      const row = db.prepare(`PRAGMA ${statement}`).get() as Record<string, unknown> | undefined;
      return row === undefined ? undefined : Object.values(row)[0];
    },
    transaction,
    backupTo: async (target) => {
      // backup() came in Node 22.16 and 23.8: every runtime nodeSqlite() accepts has it (it
      // asks for arrays as rows, 22.16 and 24.0).
      await sqlite.backup(db, target, { rate: 100 });
    },
    get open() {
      return db.isOpen;
    },
    close: () => db.close(),
  };
}

/** better-sqlite3 refuses a transaction function that returns a promise; so does this engine. */
function refusePromise(result: unknown): void {
  if (result !== null && typeof result === 'object' && typeof (result as { then?: unknown }).then === 'function') {
    throw new TypeError('Transaction function cannot return a promise');
  }
}
