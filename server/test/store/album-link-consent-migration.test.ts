/**
 * The migration that gives album items their photo owner's word on the album's links: upgraded,
 * an album's links go on showing its owner's own photos, and stop showing every other photo (a
 * contributor's, who was never asked; another's, that its adder was only given access to) until
 * its owner says yes. Album-upload folders start at no.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../src/store/database/db.ts';
import { databaseBefore } from '../helpers/old-database.ts';

test('a database with albums, upgraded: only the album owner’s own photos stay on its links', async () => {
  const { old, file, engine } = await databaseBefore('ADD COLUMN on_links');
  const user = old.prepare(
    "INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at) VALUES (?, ?, ?, 'member', 'x', 's', 1, 1)",
  );
  for (const name of ['emma', 'mum', 'grandma']) user.run(name, name, name);
  const node = old.prepare(
    "INSERT INTO nodes (id, owner_id, parent_id, type, name, name_key, sort_name, search_name, created_by, created_at, updated_at, taken_sort, is_media, mime_type) VALUES (?, ?, NULL, 'file', ?, ?, ?, ?, ?, 1, 1, 1, 1, 'image/jpeg')",
  );
  for (const [id, owner] of [
    ['emmas', 'emma'],
    ['mums', 'mum'],
    ['grandmas', 'grandma'],
  ] as const)
    node.run(id, owner, `${id}.jpg`, `${id}.jpg`, `${id}.jpg`, `${id}.jpg`, owner);
  old.prepare("INSERT INTO albums (id, owner_id, name, created_at, updated_at) VALUES ('a1', 'emma', 'Summer', 1, 1)").run();
  old.prepare("INSERT INTO album_upload_folders (album_id, user_id, folder_id) VALUES ('a1', 'mum', 'mums')").run();
  const item = old.prepare("INSERT INTO album_items (album_id, node_id, added_by, added_at) VALUES ('a1', ?, ?, 1)");
  // Emma's own; Mum's, added by Mum; Grandma's, added by Emma under a grant.
  item.run('emmas', 'emma');
  item.run('mums', 'mum');
  item.run('grandmas', 'emma');
  old.close();

  const db = openDatabase(file, engine);
  try {
    assert.deepEqual(
      db
        .prepare('SELECT node_id, on_links FROM album_items ORDER BY node_id')
        .all()
        .map((row) => ({ ...(row as object) })),
      [
        { node_id: 'emmas', on_links: 1 },
        { node_id: 'grandmas', on_links: 0 },
        { node_id: 'mums', on_links: 0 },
      ],
    );
    assert.equal((db.prepare('SELECT on_links FROM album_upload_folders').get() as { on_links: number }).on_links, 0);
    assert.throws(() => db.prepare("UPDATE album_items SET on_links = 2 WHERE node_id = 'mums'").run(), /CHECK/);
  } finally {
    db.close();
  }
});
