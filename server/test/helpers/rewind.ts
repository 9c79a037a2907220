import type { Db } from '../../src/store/database/db.ts';
import { MIGRATIONS } from '../../src/store/database/migrations/index.ts';

/**
 * Takes a database back to just before migration `version` of what the migrations after it
 * add (their triggers, indexes, columns and tables), so a test can stage the release before
 * one migration with the data a newer server wrote, and the start re-runs the later ones as an
 * upgrade would. Later migrations only add; a test undoing its own migration's changes does
 * so itself, since a change other than an addition cannot be undone by name. A later migration
 * may make again an index an earlier one made: it is dropped once, and the earlier one's put back.
 */
export function rewindLaterMigrations(db: Db, version: number): void {
  const later = MIGRATIONS.slice(version + 1).reverse();
  const undo: string[] = [];
  for (const sql of later) {
    for (const [, name] of sql.matchAll(/CREATE TRIGGER (\w+)/g)) undo.push(`DROP TRIGGER IF EXISTS ${name};`);
    for (const [, name] of sql.matchAll(/CREATE (?:UNIQUE )?INDEX (\w+)/g)) undo.push(`DROP INDEX IF EXISTS ${name};`);
  }
  for (const sql of later) {
    for (const [, table, column] of sql.matchAll(/ALTER TABLE (\w+) ADD COLUMN (\w+)/g))
      undo.push(`ALTER TABLE ${table} DROP COLUMN ${column};`);
    for (const [, table] of sql.matchAll(/CREATE TABLE (\w+)/g)) undo.push(`DROP TABLE ${table};`);
  }
  // An index a later migration made again over one an earlier migration made (023 rebuilds the
  // timeline's indexes) is put back as the earlier one had it, as the release before had it.
  const dropped = new Set([...undo.join('\n').matchAll(/DROP INDEX IF EXISTS (\w+)/g)].map(([, name]) => name));
  const earlier = new Map<string, string>();
  for (const sql of MIGRATIONS.slice(0, version + 1)) {
    for (const [statement, made, gone] of sql.matchAll(/CREATE (?:UNIQUE )?INDEX (\w+)[^;]*;|DROP INDEX (\w+)/g)) {
      if (made && dropped.has(made)) earlier.set(made, statement);
      if (gone) earlier.delete(gone);
    }
  }
  db.exec([...undo, ...earlier.values()].join('\n'));
}
