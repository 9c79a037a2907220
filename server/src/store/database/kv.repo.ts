import type { Db } from './db.ts';

/** A small JSON key-value table: server settings, and server identity in `meta`. */
export class KeyValueRepo {
  private readonly stmts;

  constructor(db: Db, table: 'settings' | 'meta') {
    this.stmts = {
      all: db.prepare(`SELECT key, value FROM ${table}`),
      get: db.prepare(`SELECT value FROM ${table} WHERE key = ?`),
      put: db.prepare(`INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`),
      insertIfAbsent: db.prepare(`INSERT INTO ${table} (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING`),
    };
  }

  all(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const row of this.stmts.all.all() as { key: string; value: string }[]) out[row.key] = JSON.parse(row.value);
    return out;
  }

  get<T>(key: string): T | undefined {
    const row = this.stmts.get.get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  put(key: string, value: unknown): void {
    this.stmts.put.run(key, JSON.stringify(value));
  }

  /** Stores `value` unless the key exists, and returns what is stored either way. */
  getOrInit<T>(key: string, value: T): T {
    // Read first: a start on a read-only disk must not need a write for what is there already.
    const stored = this.get<T>(key);
    if (stored !== undefined) return stored;
    this.stmts.insertIfAbsent.run(key, JSON.stringify(value));
    return this.get<T>(key)!;
  }
}
