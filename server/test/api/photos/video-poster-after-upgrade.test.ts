// A video stored by a release that found no ffmpeg (the earliest looked only for the system's,
// and marked it failed, with no poster) gets its poster, size and details at the first start
// that has ffmpeg: after an upgrade from such a release, and whenever a server that lacked
// ffmpeg is given one.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { MIGRATIONS } from '../../../src/store/database/migrations/index.ts';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { rewindLaterMigrations } from '../../helpers/rewind.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

async function node(server: TestServer, who: SignedIn, id: string): Promise<any> {
  const res = await server.client.get(`/nodes/${id}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function thumbnailStatus(server: TestServer, who: SignedIn, id: string): Promise<number> {
  const res = await fetch(`${server.api}/nodes/${id}/thumbnail`, { headers: { authorization: `Bearer ${who.access}` } });
  await res.arrayBuffer();
  return res.status;
}

async function assertPoster(server: TestServer, who: SignedIn, id: string): Promise<void> {
  await server.server.mediaIdle();
  const video = await node(server, who, id);
  assert.equal(video.has_thumbnail, true, JSON.stringify(video));
  assert.deepEqual([video.image_width, video.image_height], [240, 320]);
  assert.equal(video.duration_ms, 2000);
  assert.equal(await thumbnailStatus(server, who, id), 200);
}

describe('a video stored without ffmpeg', () => {
  test('after an upgrade from a release before the details migration, it gets its poster', async () => {
    // The old release: the upload stored, its processing failed for want of ffmpeg.
    const first = await startTestServer({ mediaConcurrency: 0 });
    const who = await setupOwner(first.client);
    const id = await uploadFile(first.api, who.access, await mediaFixture('rotated.mp4'), { filename: 'old.mp4' });
    await first.server.close();
    const mine = MIGRATIONS.findIndex((sql) => sql.includes('ADD COLUMN taken_offset'));
    assert.ok(mine > 0, 'the details migration exists');
    const db = openConnection(path.join(first.dataDir, 'hearth.db'));
    rewindLaterMigrations(db, mine);
    const columns = ['taken_offset', 'duration_ms', 'latitude', 'longitude', 'place_town', 'place_country', 'camera_make'];
    const more = ['camera_model', 'lens', 'f_number', 'exposure_time', 'iso', 'focal_length', 'media_search'];
    db.exec(`DELETE FROM media_jobs;
      UPDATE nodes SET media_state = 'failed', has_thumbnail = 0, image_width = NULL, image_height = NULL, taken_at = NULL WHERE id = '${id}';
      UPDATE nodes SET taken_sort = coalesce(taken_at, created_at);
      DROP INDEX media_jobs_order; ALTER TABLE media_jobs DROP COLUMN details_only;
      CREATE INDEX media_jobs_order ON media_jobs(enqueued_at, node_id);
      ${[...columns, ...more].map((c) => `ALTER TABLE nodes DROP COLUMN ${c};`).join('\n')}`);
    db.pragma(`user_version = ${mine}`);
    db.close();

    const upgraded = await startTestServer({ dataDir: first.dataDir });
    try {
      await assertPoster(upgraded, who, id);
    } finally {
      await upgraded.close();
    }
  });

  test('a server that had no ffmpeg makes the poster once it has one', async () => {
    const without = await startTestServer({ ffmpegPath: '/nonexistent/ffmpeg' });
    const who = await setupOwner(without.client);
    const id = await uploadFile(without.api, who.access, await mediaFixture('rotated.mp4'), { filename: 'later.mp4' });
    await without.server.mediaIdle();
    assert.equal((await node(without, who, id)).has_thumbnail, false);
    assert.equal(await thumbnailStatus(without, who, id), 404);
    await without.server.close();

    const withFfmpeg = await startTestServer({ dataDir: without.dataDir });
    try {
      await assertPoster(withFfmpeg, who, id);
    } finally {
      await withFfmpeg.close();
    }
  });
});
