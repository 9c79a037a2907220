import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { availableEngines, openConnection, openDatabase } from '../../src/store/database/db.ts';
import { storageFaultOf } from '../../src/store/common/storage-faults.ts';
import { makeTempDir } from '../helpers/server.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A write the disk refused is told from a bug by the error alone, as each SQLite engine and
 * Node's file system really raise it: that is what lets every route answer 507 storage_full
 * instead of 500, and the media queue wait instead of retrying.
 */
describe('telling a refused write from a bug', () => {
  for (const engine of availableEngines()) {
    test(`${engine}: "database or disk is full" (SQLITE_FULL) is a full disk`, async () => {
      const dir = await makeTempDir('hearth-faults-');
      dirs.push(dir);
      const db = openDatabase(path.join(dir, 'hearth.db'), engine);
      try {
        // The database may not grow past its current pages: exactly what a full disk answers.
        db.exec('CREATE TABLE filler (data BLOB)');
        db.pragma(`max_page_count = ${db.pragma('page_count') as number}`);
        const error = captured(() => db.prepare('INSERT INTO filler VALUES (randomblob(100000))').run());
        assert.equal(storageFaultOf(error), 'full', String(error));
      } finally {
        db.close();
      }
    });

    test(`${engine}: a write through a read-only connection is SQLite's I/O family, for the disk to decide`, async () => {
      const dir = await makeTempDir('hearth-faults-');
      dirs.push(dir);
      const file = path.join(dir, 'hearth.db');
      openDatabase(file, engine).close();
      const db = openConnection(file, { engine, readonly: true, fileMustExist: true });
      try {
        const error = captured(() => db.exec('CREATE TABLE t (x)'));
        assert.equal(storageFaultOf(error), 'io', String(error));
        assert.equal(storageFaultOf(captured(() => db.exec('SELECT * FROM no_such_table'))), null, 'a bad query is a bug');
      } finally {
        db.close();
      }
    });
  }

  test('ENOSPC from the file system is a full disk, wherever it sits in the error', () => {
    const error = captured(() => fs.writeFileSync('/dev/full', 'x'));
    assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
    assert.equal(storageFaultOf(error), 'full');
    assert.equal(storageFaultOf(new Error('upload failed', { cause: error })), 'full');
  });

  test('other file errors are not the disk being full or read-only', () => {
    assert.equal(storageFaultOf(captured(() => fs.readFileSync('/nonexistent/hearth'))), null);
    assert.equal(storageFaultOf(Object.assign(new Error('read-only file system'), { code: 'EROFS' })), 'read_only');
    assert.equal(storageFaultOf(Object.assign(new Error('quota'), { code: 'EDQUOT' })), 'full');
    assert.equal(storageFaultOf(null), null);
  });
});

function captured(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  assert.fail('expected an error');
}
