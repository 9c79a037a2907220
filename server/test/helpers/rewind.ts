import type { Db } from '../../src/store/database/db.ts';
import { MIGRATIONS } from '../../src/store/database/migrations/index.ts';

/**
 * Takes a database back to just before migration `version` of what the migrations after it
 * add (their triggers, indexes, columns and tables), so a test can stage the release before
 * one migration with the data a newer server wrote, and the start re-runs the later ones as an
 * upgrade would. Later migrations only add; a test undoing its own migration's changes does
 * so itself, since a change other than an addition cannot be undone by name.
 */
export function rewindLaterMigrations(db: Db, version: number): void {
  const later = MIGRATIONS.slice(version + 1).reverse();
  const undo: string[] = [];
  for (const sql of later) {
    for (const [, name] of sql.matchAll(/CREATE TRIGGER (\w+)/g)) undo.push(`DROP TRIGGER ${name};`);
    for (const [, name] of sql.matchAll(/CREATE (?:UNIQUE )?INDEX (\w+)/g)) undo.push(`DROP INDEX ${name};`);
  }
  for (const sql of later) {
    for (const [, table, column] of sql.matchAll(/ALTER TABLE (\w+) ADD COLUMN (\w+)/g))
      undo.push(`ALTER TABLE ${table} DROP COLUMN ${column};`);
    for (const [, table] of sql.matchAll(/CREATE TABLE (\w+)/g)) undo.push(`DROP TABLE ${table};`);
  }
  db.exec(undo.join('\n'));
}
