import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection, type Db } from '../../src/store/database/db.ts';
import sharp from 'sharp';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';
import { uploadFile } from '../helpers/upload.ts';

/**
 * The media queue lives in the database: photos uploaded right before a crash are processed
 * after the restart, and photos from before media processing existed (no job, no state) are
 * found by the startup pass.
 */
describe('the media queue across kill -9 and upgrades', () => {
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  let token: string;
  /** Photo id -> the size the server must report for it. */
  const photos = new Map<string, { width: number; height: number }>();
  let textId: string;

  async function start(): Promise<void> {
    // One job at a time, so a burst of uploads is still queued when the process dies.
    server = await spawnServer(dataDir, { MEDIA_CONCURRENCY: '1' });
    client = new ApiClient(server.api);
    const res = await client.post('/auth/login', OWNER);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    token = res.body.access_token;
  }

  function openDb(readonly = true): Db {
    return openConnection(path.join(dataDir, 'hearth.db'), { readonly, fileMustExist: true });
  }

  /** Polls every photo until it has its thumbnail and fields, within a bounded wait. */
  async function waitProcessed(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const [id, size] of photos) {
      let node: any;
      for (;;) {
        const res = await client.get(`/nodes/${id}`, { token });
        assert.equal(res.status, 200, JSON.stringify(res.body));
        node = res.body;
        if (node.has_thumbnail) break;
        assert.ok(
          Date.now() < deadline,
          `photo ${id} not processed within ${timeoutMs} ms: ${JSON.stringify(node)}\n${server!.output().slice(-2000)}`,
        );
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(node.image_width, size.width, id);
      assert.equal(node.image_height, size.height, id);
      assert.equal(node.taken_at, Date.UTC(2022, 7, 8, 9, 10, 11), id);
      const thumb = await fetch(`${server!.api}/nodes/${id}/thumbnail`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(thumb.status, 200, id);
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      assert.equal(meta.format, 'webp');
      assert.equal(Math.max(meta.width!, meta.height!), 512);
      assert.equal(meta.width! > meta.height!, size.width > size.height, `thumbnail of ${id} is the right way up`);
    }
  }

  before(async () => {
    dataDir = await makeTempDir('hearth-media-crash-');
    server = await spawnServer(dataDir, { MEDIA_CONCURRENCY: '1' });
    client = new ApiClient(server.api);
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    token = setup.body.access_token;
  });
  after(async () => {
    await server?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('photos uploaded right before a kill -9 all get their thumbnail and fields after the restart', async () => {
    // Large enough that one takes a good fraction of a second to decode: the burst outlives the upload.
    const exif = { IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: '2022:08:08 11:10:11', OffsetTimeOriginal: '+02:00' } };
    const base = sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#336699' } });
    const landscape = await base.clone().png({ compressionLevel: 1 }).withExif(exif).toBuffer();
    const portrait = await base.clone().png({ compressionLevel: 1 }).withMetadata({ orientation: 6 }).withExif(exif).toBuffer();
    const files = Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? landscape : portrait));
    const ids = await Promise.all(files.map((data, i) => uploadFile(server!.api, token, data, { filename: `burst-${i}.png` })));
    textId = await uploadFile(server!.api, token, Buffer.from('not a photo'), { filename: 'notes.txt' });
    await server!.kill9();
    assert.equal(server!.process.signalCode, 'SIGKILL');
    ids.forEach((id, i) => photos.set(id, i % 2 === 0 ? { width: 4000, height: 3000 } : { width: 3000, height: 4000 }));

    const db = openDb();
    try {
      const waiting = (db.prepare('SELECT count(*) AS n FROM media_jobs').get() as { n: number }).n;
      assert.ok(waiting > 0, 'some photos were still queued at the crash (otherwise this test proves nothing)');
      const unprocessed = db
        .prepare("SELECT count(*) AS n FROM nodes WHERE is_media = 1 AND has_thumbnail = 0 AND media_state = 'pending'")
        .get() as { n: number };
      assert.equal(unprocessed.n, waiting);
    } finally {
      db.close();
    }

    await start();
    await waitProcessed();
    const db2 = openDb();
    try {
      assert.equal((db2.prepare('SELECT count(*) AS n FROM media_jobs').get() as { n: number }).n, 0, 'the queue is empty');
    } finally {
      db2.close();
    }
  });

  test('photos from before media processing existed (no job, no media state) are processed by the startup pass', async () => {
    assert.ok(photos.size > 0, 'the previous test uploaded photos');
    await server!.stop();
    const db = openDb(false);
    try {
      db.prepare('DELETE FROM media_jobs').run();
      const reset = db
        .prepare(
          'UPDATE nodes SET media_state = NULL, has_thumbnail = 0, image_width = NULL, image_height = NULL, taken_at = NULL WHERE is_media = 1',
        )
        .run();
      assert.equal(reset.changes, photos.size);
    } finally {
      db.close();
    }
    await fs.rm(path.join(dataDir, 'thumbs'), { recursive: true, force: true });

    await start();
    await waitProcessed();
    const text = await client.get(`/nodes/${textId}`, { token });
    assert.equal(text.body.has_thumbnail, false);
    const check = openDb();
    try {
      const row = check.prepare('SELECT media_state FROM nodes WHERE id = ?').get(textId) as { media_state: string | null };
      assert.equal(row.media_state, null, 'a text file is never queued');
    } finally {
      check.close();
    }
  });
});
