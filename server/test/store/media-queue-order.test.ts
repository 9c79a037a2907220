/**
 * The family's new photos never wait behind an upgrade's catching up: every upload's media job
 * is taken before any re-read of details, however long the re-reads have waited; and an upload
 * of a new version turns a node's waiting re-read into a full job.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { chooseEngine, openDatabase } from '../../src/store/database/db.ts';
import { MediaRepo } from '../../src/store/database/media.repo.ts';
import { makeTempDir } from '../helpers/server.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

test('uploads first, re-reads after, each in the order they came', async () => {
  const dir = await makeTempDir();
  dirs.push(dir);
  const db = openDatabase(path.join(dir, 'hearth.db'), chooseEngine(process.env.HEARTH_SQLITE === 'node' ? 'node' : 'auto'));
  try {
    db.exec(`INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at)
      VALUES ('u', 'u', 'u', 'member', 'x', 's', 0, 0)`);
    for (const id of ['old-1', 'old-2', 'new-1', 'new-2']) {
      db.prepare(
        `INSERT INTO nodes (id, owner_id, type, name, name_key, sort_name, search_name, created_by, created_at, updated_at, taken_sort, is_media, version)
        VALUES (?, 'u', 'file', ?, ?, ?, ?, 'u', 0, 0, 0, 1, 1)`,
      ).run(id, id, id, id, id);
    }
    // Re-reads queued by the upgrade long before (enqueued_at 0), uploads later.
    db.exec("INSERT INTO media_jobs (node_id, version, enqueued_at, details_only) VALUES ('old-1', 1, 0, 1), ('old-2', 1, 0, 1)");
    const media = new MediaRepo(db);
    media.enqueue('new-2', 1, 200);
    media.enqueue('new-1', 1, 100);
    assert.deepEqual(
      media.next(10).map((j) => [j.node_id, j.details_only]),
      [
        ['new-1', 0],
        ['new-2', 0],
        ['old-1', 1],
        ['old-2', 1],
      ],
    );
    // A new version of a node waiting for a re-read: the full job it needs now.
    media.enqueue('old-2', 2, 300);
    assert.deepEqual(
      media.next(10).map((j) => [j.node_id, j.version, j.details_only]),
      [
        ['new-1', 1, 0],
        ['new-2', 1, 0],
        ['old-2', 2, 0],
        ['old-1', 1, 1],
      ],
    );
  } finally {
    db.close();
  }
});
