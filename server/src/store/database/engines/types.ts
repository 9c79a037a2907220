/**
 * The few things the store asks of an SQLite driver. Two drivers implement it: better-sqlite3
 * (plain Node 20, where `node:sqlite` is missing) and `node:sqlite` (Node 22.13+ and Electron,
 * which cannot load a better-sqlite3 built for another ABI). Repositories see only this.
 */
export type SqliteEngine = 'node' | 'better';

export interface RunResult {
  changes: number | bigint;
  lastInsertRowid: number | bigint;
}

/**
 * A prepared statement. Parameters are positional values or one object of named ones
 * (`@name` in the SQL, the key without its prefix). On both engines: a key the SQL does not
 * name is ignored and `undefined` binds NULL.
 */
export interface Statement {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

export interface OpenOptions {
  readonly?: boolean;
  /** Refuse to create the file (a check on the data of a server that ran before). */
  fileMustExist?: boolean;
}

export interface Db {
  readonly engine: SqliteEngine;
  prepare(sql: string): Statement;
  /** A statement whose rows are arrays of column values in SELECT order (no object per row). */
  prepareRaw(sql: string): Statement;
  exec(sql: string): void;
  /** Runs `PRAGMA <statement>` and returns the first column of its first row. */
  pragma(statement: string): unknown;
  /**
   * Runs `work` in one BEGIN IMMEDIATE transaction: all of it lands, or none of it. Nested
   * calls become savepoints. `work` must be synchronous: a transaction must not span an await.
   */
  transaction<T>(work: () => T): T;
  /**
   * A consistent copy of the whole database in a new file, through SQLite's online backup API in
   * steps of a few pages: the event loop runs between steps, so the server keeps answering while
   * a large database is copied. A write made meanwhile on this connection is carried into the
   * copy, so it is the database as it was when the copy ended. The file must not exist yet.
   */
  backupTo(file: string): Promise<void>;
  readonly open: boolean;
  close(): void;
}
