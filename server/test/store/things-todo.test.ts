/**
 * What the face finder's pass looks at, and for what: a new photo for its faces and its things;
 * a photo whose faces were found before things were looked for (or with an older thing model)
 * for its things alone, its faces left as they are; nothing once both are done; a new version
 * for both again. With things off, faces alone. Never a photo in Private.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { chooseEngine, openDatabase } from '../../src/store/database/db.ts';
import { ThingsRepo } from '../../src/store/database/things.repo.ts';
import { makeTempDir } from '../helpers/server.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('each photo is looked at for what it still lacks, for its current version and models', async () => {
  const dir = await makeTempDir();
  dirs.push(dir);
  const db = openDatabase(path.join(dir, 'hearth.db'), chooseEngine(process.env.HEARTH_SQLITE === 'node' ? 'node' : 'auto'));
  try {
    db.exec(`INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at)
      VALUES ('u', 'u', 'u', 'member', 'x', 's', 0, 0)`);
    for (const id of ['new', 'faces-done', 'old-things', 'both-done', 'private']) {
      db.prepare(
        `INSERT INTO nodes (id, owner_id, type, name, name_key, sort_name, search_name, created_by, created_at, updated_at, taken_sort,
          is_media, version, mime_type, has_thumbnail, in_private)
        VALUES (?, 'u', 'file', ?, ?, ?, ?, 'u', 0, 0, 0, 1, 1, 'image/jpeg', 1, ?)`,
      ).run(id, id, id, id, id, id === 'private' ? 1 : 0);
    }
    const scan = (table: string, node: string, model: string) =>
      db
        .prepare(
          `INSERT INTO ${table} (node_id, version, model, ${table === 'face_scans' ? 'faces' : 'things'}, scanned_at) VALUES (?, 1, ?, 0, 0)`,
        )
        .run(node, model);
    for (const node of ['faces-done', 'old-things', 'both-done']) scan('face_scans', node, 'faces-v1');
    scan('thing_scans', 'old-things', 'things-v0');
    scan('thing_scans', 'both-done', 'things-v1');
    const things = new ThingsRepo(db);
    const todo = (thingModel: string | null) =>
      Object.fromEntries(
        things
          .todo('faces-v1', thingModel, 100)
          .map((r) => [r.id, [r.want_faces, r.want_things]])
          .sort(),
      );
    assert.deepEqual(todo('things-v1'), { 'faces-done': [0, 1], new: [1, 1], 'old-things': [0, 1] });
    assert.deepEqual(todo(null), { new: [1, 0] }, 'things off: faces alone');
    db.exec("UPDATE nodes SET version = 2 WHERE id = 'both-done'");
    assert.deepEqual(todo('things-v1')['both-done'], [1, 1], 'a new version: both again');
  } finally {
    db.close();
  }
});
