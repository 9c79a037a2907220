/**
 * The family timeline's migration gives each album item its photo's taken time, so an album's
 * months are index ranges: an upgraded database must carry every item's time over, and from then
 * on the database keeps the copy right by itself, whoever writes the node or the item.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/store/database/db.ts';
import { databaseBefore } from '../helpers/old-database.ts';

test("an upgraded database's album items take their photos' taken times, and follow them from then on (a re-dated photo, a new item)", async () => {
  const { old, file, engine } = await databaseBefore('CREATE TABLE partner_shares');
  old
    .prepare(
      "INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at) VALUES ('u1', 'emma', 'emma', 'member', 'x', 's', 1, 1)",
    )
    .run();
  const photo =
    old.prepare(`INSERT INTO nodes (id, owner_id, parent_id, type, name, name_key, sort_name, search_name, created_by, created_at, updated_at, taken_sort, is_media)
    VALUES (?, 'u1', NULL, 'file', ?, ?, ?, ?, 'u1', 1, 1, ?, 1)`);
  for (const [id, taken] of [
    ['p1', 1_000],
    ['p2', 2_000],
    ['p3', 3_000],
  ] as const)
    photo.run(id, `${id}.jpg`, `${id}.jpg`, `${id}.jpg`, `${id}.jpg`, taken);
  old.prepare("INSERT INTO albums (id, owner_id, name, created_at, updated_at) VALUES ('a1', 'u1', 'Beach', 1, 1)").run();
  const item = old.prepare("INSERT INTO album_items (album_id, node_id, added_by, added_at) VALUES ('a1', ?, 'u1', 1)");
  item.run('p1');
  item.run('p2');
  old.close();

  const db = openDatabase(file, engine);
  try {
    const items = () =>
      (db.prepare('SELECT node_id, taken_sort FROM album_items ORDER BY node_id').all() as { node_id: string; taken_sort: number }[]).map(
        (r) => [r.node_id, Number(r.taken_sort)],
      );
    assert.deepEqual(items(), [
      ['p1', 1_000],
      ['p2', 2_000],
    ]);
    // The media queue reads a capture time: the item follows.
    db.prepare("UPDATE nodes SET taken_sort = 5_000 WHERE id = 'p1'").run();
    // An item added however it is added takes its photo's time.
    db.prepare("INSERT INTO album_items (album_id, node_id, added_by, added_at) VALUES ('a1', 'p3', 'u1', 2)").run();
    // Added again (nothing added): nothing changes.
    db.prepare("INSERT INTO album_items (album_id, node_id, added_by, added_at) VALUES ('a1', 'p3', 'u1', 3) ON CONFLICT DO NOTHING").run();
    assert.deepEqual(items(), [
      ['p1', 5_000],
      ['p2', 2_000],
      ['p3', 3_000],
    ]);
    // Only the photo's own items move.
    db.prepare("UPDATE nodes SET taken_sort = 7_000 WHERE id = 'p3'").run();
    assert.deepEqual(items(), [
      ['p1', 5_000],
      ['p2', 2_000],
      ['p3', 7_000],
    ]);
    // Phones open on Photos unless the person chooses otherwise; partners share with someone else.
    assert.equal((db.prepare("SELECT phone_start FROM users WHERE id = 'u1'").get() as { phone_start: string }).phone_start, 'photos');
    assert.throws(() =>
      db
        .prepare("INSERT INTO partner_shares (owner_id, partner_id, taken_from, created_at, updated_at) VALUES ('u1', 'u1', NULL, 1, 1)")
        .run(),
    );
  } finally {
    db.close();
  }
});
