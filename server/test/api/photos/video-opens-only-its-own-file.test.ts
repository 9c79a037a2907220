// A file is a video only when its bytes say so, and ffmpeg opens nothing but that one file: a
// "holiday.mp4" that is a playlist, a concat script or an SDP description naming a video
// elsewhere on the PC (or an address) gets no poster and no playback copy made from what it
// names, and nothing it names is ever read, whether it arrives now or was stored as a video
// by an older release.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { hostileVideos } from '../../helpers/hostile-videos.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let outside: string;
let secret: string;
let lure: http.Server;
let lured = 0;
let files: Record<string, Buffer>;
const DISGUISED = 'HLS playlist behind an MP4 box header';

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  // A video on the PC outside the server's data: an HEVC one, which would also get a playback copy.
  outside = await makeTempDir('hearth-secret-');
  secret = path.join(outside, 'secret.mp4');
  await fs.writeFile(secret, await mediaFixture('clip.mp4'));
  lure = http.createServer((_req, res) => {
    lured++;
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => lure.listen(0, '127.0.0.1', resolve));
  files = hostileVideos(secret, `http://127.0.0.1:${(lure.address() as AddressInfo).port}`);
});

after(async () => {
  await new Promise((resolve) => lure.close(resolve));
  await t.close();
  await fs.rm(outside, { recursive: true, force: true });
});

async function settled(): Promise<void> {
  await t.server.mediaIdle();
  await t.server.playbackIdle();
}

/** What the server makes of an upload: its node, its thumbnail's status and its playback answer. */
async function outcome(id: string) {
  const node = (await t.client.get(`/nodes/${id}`, { token: owner.access })).body;
  const thumbnail = await fetch(`${t.api}/nodes/${id}/thumbnail`, { headers: { authorization: `Bearer ${owner.access}` } });
  const playback = await t.client.get(`/nodes/${id}/playback`, { token: owner.access });
  return { node, thumbnail: thumbnail.status, playback };
}

/** Copies on the data folder's library, whatever their names. */
async function playbackCopies(): Promise<string[]> {
  const dir = path.join(t.dataDir, 'files', 'playback');
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile() && e.name.endsWith('.mp4')).map((e) => e.name);
}

describe('a fake video', () => {
  test('uploaded as holiday.mp4 (video/mp4) is no video: no poster, no playback copy, nothing it names is read', async () => {
    const ids = new Map<string, string>();
    for (const [kind, data] of Object.entries(files)) {
      ids.set(kind, await uploadFile(t.api, owner.access, data, { filename: 'holiday.mp4', filetype: 'video/mp4' }));
    }
    await settled();
    for (const [kind, id] of ids) {
      const { node, thumbnail, playback } = await outcome(id);
      assert.equal(node.has_thumbnail, false, kind);
      assert.equal(thumbnail, 404, kind);
      if (kind === DISGUISED) {
        // Its bytes open like an MP4: a video, which ffmpeg reads as an MP4 only, and finds broken.
        assert.equal(playback.body.original.type, null, kind);
        assert.notEqual(playback.body.copy.state, 'ready', kind);
      } else {
        assert.equal(node.mime_type.startsWith('video/'), false, `${kind}: stored as ${node.mime_type}`);
        assertError(playback, 400, 'invalid_input');
      }
    }
    assert.deepEqual(await playbackCopies(), []);
    assert.equal(lured, 0, 'no address a file named was asked');
  });

  test('stored as a video by an older release: given to ffmpeg it reads nothing else, and gets no poster and no copy', async () => {
    const ids = new Map<string, string>();
    for (const [kind, data] of Object.entries(files)) ids.set(kind, await uploadFile(t.api, owner.access, data, { filename: 'old.mp4' }));
    await settled();
    // What a release that believed the name wrote: a video, queued for its poster.
    const db = openConnection(path.join(t.dataDir, 'hearth.db'), { fileMustExist: true });
    try {
      for (const id of ids.values()) {
        db.prepare("UPDATE nodes SET mime_type = 'video/mp4', media_state = 'pending' WHERE id = ?").run(id);
        db.prepare("UPDATE node_versions SET mime_type = 'video/mp4' WHERE node_id = ?").run(id);
      }
    } finally {
      db.close();
    }
    // A restart finds the videos never processed and looks at each one for a playback copy.
    await t.server.close();
    t = await startTestServer({ dataDir: t.dataDir });
    await settled();
    for (const [kind, id] of ids) {
      const { node, thumbnail, playback } = await outcome(id);
      assert.equal(node.has_thumbnail, false, kind);
      assert.equal(thumbnail, 404, kind);
      assert.equal(playback.status, 200, kind);
      assert.equal(playback.body.original.type, null, kind);
      // Bytes that are no container fail at once; the broken MP4 is tried again later, and fails again.
      if (kind !== DISGUISED) assert.equal(playback.body.copy.state, 'failed', `${kind}: ${JSON.stringify(playback.body)}`);
      else assert.notEqual(playback.body.copy.state, 'ready', kind);
    }
    assert.deepEqual(await playbackCopies(), []);
    assert.equal(lured, 0, 'no address a file named was asked');
  });

  test('a real video still gets its poster and its details', async () => {
    const id = await uploadFile(t.api, owner.access, await mediaFixture('iphone-hevc.mov'), { filename: 'real.mov' });
    await settled();
    const { node, thumbnail, playback } = await outcome(id);
    assert.equal(node.mime_type, 'video/quicktime');
    assert.equal(node.has_thumbnail, true);
    assert.equal(thumbnail, 200);
    assert.equal(playback.body.copy.state, 'ready');
  });
});
