import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { openConnection } from '../../../src/store/database/db.ts';
import { setupOwner } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

test('a media job that fails for its own reasons backs off and is given up after a few tries, while the server answers', async () => {
  const dataDir = await makeTempDir();
  // Thumbnails cannot be stored (their folder is a file): every job fails, and not for lack of space.
  await fs.writeFile(path.join(dataDir, 'thumbs'), 'not a folder');
  const t = await startTestServer({ dataDir, mediaRetryMs: 20 });
  try {
    const owner = await setupOwner(t.client);
    const png = (background: string) =>
      sharp({ create: { width: 300, height: 200, channels: 3, background } })
        .png()
        .toBuffer();
    const ids = await Promise.all(
      ['#123456', '#654321'].map(async (colour, i) => uploadFile(t.api, owner.access, await png(colour), { filename: `p${i}.png` })),
    );
    let guard: NodeJS.Timeout | undefined;
    const given = await Promise.race([
      t.server.mediaIdle().then(() => 'idle' as const),
      new Promise<'looping'>((resolve) => (guard = setTimeout(() => resolve('looping'), 60_000))),
    ]);
    clearTimeout(guard);
    assert.equal(given, 'idle', 'the queue gives the failing jobs up instead of retrying them forever');
    assert.equal((await t.client.get('/status')).status, 200);
    const db = openConnection(path.join(dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      for (const id of ids) {
        const row = db.prepare('SELECT media_state, has_thumbnail FROM nodes WHERE id = ?').get(id) as {
          media_state: string;
          has_thumbnail: number;
        };
        assert.deepEqual({ ...row }, { media_state: 'failed', has_thumbnail: 0 });
      }
      assert.equal((db.prepare('SELECT count(*) AS n FROM media_jobs').get() as { n: number }).n, 0, 'nothing left queued');
    } finally {
      db.close();
    }
    const node = await t.client.get(`/nodes/${ids[0]}`, { token: owner.access });
    assert.equal(node.body.has_thumbnail, false);
  } finally {
    await t.close();
  }
});
