/**
 * Migration 13 (albums) rebuilds the links table so that a link may open an album instead of a
 * node: every link made before must come through whole (its token hash, password, switch,
 * expiry and revocation), still opening its node, and still go with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/store/database/db.ts';
import { databaseBefore } from '../helpers/old-database.ts';

test('a database with links, upgraded: every link is kept as it was, opens its node, and is deleted with it', async () => {
  const { old, file, engine } = await databaseBefore('CREATE TABLE albums');
  old
    .prepare(
      "INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at) VALUES ('u1', 'emma', 'emma', 'member', 'x', 's', 1, 1)",
    )
    .run();
  old
    .prepare(
      "INSERT INTO nodes (id, owner_id, parent_id, type, name, name_key, sort_name, search_name, created_by, created_at, updated_at, taken_sort) VALUES ('n1', 'u1', NULL, 'folder', 'Recipes', 'recipes', 'recipes', 'recipes', 'u1', 1, 1, 1)",
    )
    .run();
  const links = [
    ['s1', 'hash-1', 'salt-1', 'pw', 3, 0, 99, null, 10],
    ['s2', 'hash-2', 'salt-2', null, 0, 1, null, 50, 20],
  ] as const;
  for (const link of links)
    old
      .prepare(
        "INSERT INTO shares (id, node_id, created_by, token_hash, salt, password_hash, password_version, allow_download, expires_at, revoked_at, created_at) VALUES (?, 'n1', 'u1', ?, ?, ?, ?, ?, ?, ?, ?)",
      )
      .run(...link);
  old.close();

  const db = openDatabase(file, engine);
  try {
    const rows = db
      .prepare('SELECT * FROM shares ORDER BY id')
      .all()
      .map((row) => ({ ...(row as object) }));
    assert.deepEqual(
      rows,
      links.map(([id, token_hash, salt, password_hash, password_version, allow_download, expires_at, revoked_at, created_at]) => ({
        id,
        node_id: 'n1',
        album_id: null,
        created_by: 'u1',
        token_hash,
        salt,
        password_hash,
        password_version,
        allow_download,
        expires_at,
        revoked_at,
        created_at,
      })),
    );
    // A link opens a node or an album, never both nor neither.
    assert.throws(() =>
      db
        .prepare(
          "INSERT INTO shares (id, node_id, album_id, created_by, token_hash, salt, created_at) VALUES ('s3', NULL, NULL, 'u1', 'h3', 's', 1)",
        )
        .run(),
    );
    db.prepare("DELETE FROM nodes WHERE id = 'n1'").run();
    assert.equal((db.prepare('SELECT count(*) AS n FROM shares').get() as { n: number }).n, 0);
  } finally {
    db.close();
  }
});
