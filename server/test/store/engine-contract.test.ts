/**
 * One contract for both SQLite engines (better-sqlite3 and node:sqlite): what the store's
 * repositories and its durability promise rely on. It runs on every engine this runtime can
 * open: better-sqlite3 under Node 20, node:sqlite under Node 24 (`npm test` runs the server
 * suites under both).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { availableEngines, chooseEngine, openConnection, openDatabase, type Db } from '../../src/store/database/db.ts';
import { createStore } from '../../src/store/index.ts';
import { MIGRATIONS } from '../../src/store/database/migrations/index.ts';
import { makeTempDir } from '../helpers/server.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const nodeMajor = Number(process.versions.node.split('.')[0]);
const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function tempFile(): Promise<string> {
  const dir = await makeTempDir('hearth-engine-');
  dirs.push(dir);
  return path.join(dir, 'hearth.db');
}

test('each runtime has the engine it is meant to run on: better-sqlite3 on Node 20, node:sqlite on Node 24', () => {
  const engines = availableEngines();
  if (nodeMajor >= 24) assert.ok(engines.includes('node'), `node:sqlite must be usable on Node ${process.versions.node}`);
  else assert.ok(engines.includes('better'), `better-sqlite3 must load on Node ${process.versions.node}`);
});

test('inside Electron the engine is node:sqlite whatever else loads, and a forced choice is kept', () => {
  assert.equal(chooseEngine('auto', { electron: true }), 'node');
  assert.equal(chooseEngine('node', { electron: false }), 'node');
  assert.equal(chooseEngine('better', { electron: false }), 'better');
});

for (const engine of availableEngines()) {
  describe(`store engine ${engine}`, () => {
    const open = async (): Promise<Db> => openDatabase(await tempFile(), engine);

    test('opening gives WAL, synchronous=FULL, foreign keys and a busy timeout, and the schema at its latest version', async () => {
      const db = await open();
      try {
        assert.equal(db.engine, engine);
        assert.equal(String(db.pragma('journal_mode')).toLowerCase(), 'wal');
        assert.equal(db.pragma('synchronous'), 2, 'synchronous = FULL');
        assert.equal(db.pragma('foreign_keys'), 1);
        assert.equal(db.pragma('busy_timeout'), 5000);
        assert.equal(db.pragma('user_version'), MIGRATIONS.length);
      } finally {
        db.close();
      }
    });

    test('a database from a newer server is refused, not half-migrated', async () => {
      const file = await tempFile();
      openDatabase(file, engine).close();
      const raw = openConnection(file, { engine });
      raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
      raw.close();
      assert.throws(() => openDatabase(file, engine), /newer than this server/);
    });

    test('parameters bind the same way: named keys the SQL does not use are ignored, undefined binds NULL', async () => {
      const db = await open();
      try {
        db.exec('CREATE TABLE t (a INTEGER, b TEXT, c TEXT)');
        const named = db.prepare('INSERT INTO t (a, b, c) VALUES (@a, @b, @c)');
        const result = named.run({ a: 1, b: 'x', c: undefined, unrelated: 'ignored' });
        assert.equal(Number(result.changes), 1);
        assert.equal(Number(result.lastInsertRowid), 1);
        db.prepare('INSERT INTO t (a, b, c) VALUES (?, ?, ?)').run(2, undefined, 'z');
        assert.deepEqual({ ...(db.prepare('SELECT * FROM t WHERE a = ?').get(1) as object) }, { a: 1, b: 'x', c: null });
        assert.deepEqual({ ...(db.prepare('SELECT * FROM t WHERE a = @a').get({ a: 2 }) as object) }, { a: 2, b: null, c: 'z' });
        assert.equal(db.prepare('SELECT * FROM t WHERE a = 99').get(), undefined);
        assert.deepEqual(db.prepare('SELECT * FROM t WHERE a = 99').all(), []);
        assert.deepEqual(
          [...db.prepare('SELECT a FROM t ORDER BY a').iterate()].map((r) => (r as { a: number }).a),
          [1, 2],
        );
        assert.equal(Number(db.prepare('DELETE FROM t WHERE a > ?').run(0).changes), 2);
      } finally {
        db.close();
      }
    });

    test('raw statements give each row as an array in SELECT order', async () => {
      const db = await open();
      try {
        db.exec("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two')");
        assert.deepEqual(db.prepareRaw('SELECT b, a FROM t WHERE a >= @min ORDER BY a').all({ min: 1 }), [
          ['one', 1],
          ['two', 2],
        ]);
      } finally {
        db.close();
      }
    });

    test('a transaction lands whole or not at all, and returns what its work returns', async () => {
      const db = await open();
      try {
        db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
        const insert = db.prepare('INSERT INTO t (a) VALUES (?)');
        assert.equal(
          db.transaction(() => (insert.run(1), insert.run(2), 'done')),
          'done',
        );
        assert.throws(() =>
          db.transaction(() => {
            insert.run(3);
            insert.run(1); // primary key clash: the whole transaction goes
          }),
        );
        assert.deepEqual(
          db
            .prepare('SELECT a FROM t ORDER BY a')
            .all()
            .map((r) => (r as { a: number }).a),
          [1, 2],
        );
      } finally {
        db.close();
      }
    });

    test('a nested transaction is a savepoint: its failure undoes only its own part', async () => {
      const db = await open();
      try {
        db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
        const insert = db.prepare('INSERT INTO t (a) VALUES (?)');
        db.transaction(() => {
          insert.run(1);
          assert.throws(() =>
            db.transaction(() => {
              insert.run(2);
              throw new Error('inner work failed');
            }),
          );
          insert.run(3);
        });
        assert.deepEqual(
          db
            .prepare('SELECT a FROM t ORDER BY a')
            .all()
            .map((r) => (r as { a: number }).a),
          [1, 3],
        );
      } finally {
        db.close();
      }
    });

    test('work that returns a promise is refused and nothing of it lands (a transaction never spans an await)', async () => {
      const db = await open();
      try {
        db.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
        assert.throws(() => db.transaction(() => (db.prepare('INSERT INTO t (a) VALUES (1)').run(), Promise.resolve())), /promise/);
        assert.equal((db.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n, 0);
      } finally {
        db.close();
      }
    });

    test('a transaction takes the write lock when it begins (IMMEDIATE), so it never fails later on a lock upgrade', async () => {
      const file = await tempFile();
      const db = openDatabase(file, engine);
      const other = openConnection(file, { engine });
      try {
        other.pragma('busy_timeout = 0');
        db.transaction(() => {
          // Nothing written yet, and another connection already cannot begin writing.
          assert.throws(() => other.exec('BEGIN IMMEDIATE'), /locked|busy/i);
        });
        other.exec('BEGIN IMMEDIATE');
        other.exec('ROLLBACK');
      } finally {
        other.close();
        db.close();
      }
    });

    test('foreign keys are enforced', async () => {
      const db = await open();
      try {
        assert.throws(
          () =>
            db
              .prepare(
                "INSERT INTO sessions (id, user_id, status, created_at, last_seen_at, expires_at) VALUES ('s', 'nobody', 'active', 0, 0, 0)",
              )
              .run(),
          /FOREIGN KEY|constraint/i,
        );
      } finally {
        db.close();
      }
    });

    test('a read-only connection cannot write, and a missing file is not created when it must exist', async () => {
      const file = await tempFile();
      openDatabase(file, engine).close();
      const reader = openConnection(file, { engine, readonly: true });
      try {
        assert.throws(() => reader.exec('CREATE TABLE x (a)'), /readonly|read-only|attempt to write/i);
      } finally {
        reader.close();
      }
      const missing = path.join(path.dirname(file), 'missing.db');
      assert.throws(() => openConnection(missing, { engine, fileMustExist: true }));
      assert.equal(fs.existsSync(missing), false);
    });

    test('the repositories work on it: settings and the server id round-trip through the store', async () => {
      const db = await open();
      try {
        const store = createStore(db);
        assert.equal(store.meta.getOrInit('server_id', 'first'), 'first');
        assert.equal(store.meta.getOrInit('server_id', 'second'), 'first');
        store.transaction(() => store.settings.put('server_name', 'Home'));
        assert.equal(store.settings.all().server_name, 'Home');
        assert.ok(store.ping());
      } finally {
        db.close();
      }
    });

    test('every commit that returned survives a kill -9 of the process that made it', async () => {
      const file = await tempFile();
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'fixtures/commit-loop.ts'), file, engine], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.on('data', (chunk) => (err += chunk));
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        child.once('exit', () => reject(new Error(`commit loop exited early: ${err}`)));
        child.stdout.on('data', (chunk) => {
          out += chunk;
          if (out.split('\n').length > 300) resolve();
        });
      });
      child.kill('SIGKILL');
      await exited;
      const acknowledged = Math.max(...out.split('\n').filter(Boolean).map(Number));
      const db = openDatabase(file, engine);
      try {
        const { n, top } = db.prepare('SELECT count(*) AS n, max(id) AS top FROM acks').get() as { n: number; top: number };
        assert.ok(top >= acknowledged, `acknowledged ${acknowledged}, found up to ${top}`);
        assert.equal(n, top, 'no gap: every row up to the last is there');
      } finally {
        db.close();
      }
    });

    test('an online backup copies the whole database in steps, lets other work run between them, and carries writes made meanwhile', async () => {
      const file = await tempFile();
      const db = openDatabase(file, engine);
      const copy = path.join(path.dirname(file), 'copy.db');
      try {
        db.exec('CREATE TABLE rows (id INTEGER PRIMARY KEY, body TEXT NOT NULL)');
        const insert = db.prepare('INSERT INTO rows (body) VALUES (?)');
        // About 4 MB: a thousand pages, ten steps or more.
        db.transaction(() => {
          for (let i = 0; i < 2000; i++) insert.run('x'.repeat(2000));
        });
        let turns = 0;
        const ticking = setInterval(() => turns++, 0);
        const copying = db.backupTo(copy);
        // The server's next request, while the copy is under way.
        await new Promise((resolve) => setImmediate(resolve));
        insert.run('written during the backup');
        await copying;
        clearInterval(ticking);
        assert.ok(turns > 0, 'the event loop ran while the database was copied');
        const copied = openConnection(copy, { engine, readonly: true, fileMustExist: true });
        try {
          assert.equal(copied.pragma('integrity_check'), 'ok');
          assert.equal((copied.prepare('SELECT count(*) AS n FROM rows').get() as { n: number }).n, 2001);
          assert.ok(copied.prepare("SELECT 1 FROM rows WHERE body = 'written during the backup'").get());
        } finally {
          copied.close();
        }
      } finally {
        db.close();
      }
    });
  });
}
