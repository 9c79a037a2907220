/**
 * The part of `node:sqlite` the node engine uses. @types/node stays at 20 (the oldest runtime
 * we support, so the type checker refuses APIs Node 20 lacks), and Node 20 has no node:sqlite.
 * Names and shapes follow Node 24's documentation.
 */
declare module 'node:sqlite' {
  export interface StatementResultingChanges {
    changes: number | bigint;
    lastInsertRowid: number | bigint;
  }
  export class StatementSync {
    run(...params: unknown[]): StatementResultingChanges;
    get(...params: unknown[]): unknown;
    all(...params: unknown[]): unknown[];
    iterate(...params: unknown[]): Iterator<unknown> & Iterable<unknown>;
    setReturnArrays(enabled: boolean): void;
    setAllowUnknownNamedParameters(enabled: boolean): void;
  }
  export interface DatabaseSyncOptions {
    open?: boolean;
    readOnly?: boolean;
    timeout?: number;
  }
  export interface BackupOptions {
    /** Pages copied per step; the event loop runs between steps. */
    rate?: number;
    progress?: (progress: { totalPages: number; remainingPages: number }) => void;
  }
  /** SQLite's online backup of `source` into the file `path` (Node 22.16, 23.8). */
  export function backup(source: DatabaseSync, path: string, options?: BackupOptions): Promise<number>;
  export class DatabaseSync {
    constructor(path: string, options?: DatabaseSyncOptions);
    prepare(sql: string): StatementSync;
    exec(sql: string): void;
    close(): void;
    readonly isOpen: boolean;
    readonly isTransaction: boolean;
  }
}
