import * as listed from './list.ts';

/**
 * Versioned schema. Each entry runs once, in order, inside one transaction with the bump of
 * `user_version` (db.ts's migrate): entry i brings a database to version i + 1. Never edit a
 * shipped entry, add a new one (list.ts).
 */
export const MIGRATIONS: readonly string[] = inOrder(Object.values(listed));

/**
 * The migrations by number, which must run from 1 without a gap or a repeat: a database's
 * version is how many it has run, so a missing number would give every later one the wrong version.
 */
function inOrder(migrations: readonly { version: number; sql: string }[]): string[] {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  sorted.forEach((migration, i) => {
    if (migration.version !== i + 1) throw new Error(`Migration ${i + 1} is missing or repeated (found ${migration.version}).`);
  });
  return sorted.map((migration) => migration.sql);
}
