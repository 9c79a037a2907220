/**
 * Every video plays: one a browser may not play (an iPhone's HEVC .mov) gets an H.264/AAC copy,
 * made in the background, served under the video's own access rules and URL tokens with Range
 * (seeking), while the original is kept and downloads as it is. The copy belongs to the content,
 * so two accounts' same video have one, and it goes with the last file that has that content.
 * The owner sees the queue and the space the copies take, and a setting turns them off.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { detectMediaTools } from '../../../src/media/tools.ts';
import { probeVideo, type VideoProbe } from '../../../src/media/video-probe.ts';
import { videoInput } from '../../../src/media/video-input.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { EventSocket } from '../../helpers/events.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let bob: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  bob = await createMember(t.client, owner, 'bob');
});
after(() => t.close());

interface Got {
  status: number;
  headers: Headers;
  body: Buffer;
  json: any;
}

/** As the <video> element asks: no header but what it is given, the token in the URL. */
async function get(url: string, headers: Record<string, string> = {}): Promise<Got> {
  const res = await fetch(url, { headers });
  const body = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') && body.length > 0 ? JSON.parse(body.toString()) : undefined;
  return { status: res.status, headers: res.headers, body, json };
}

const asResponse = (got: Got): ApiResponse => ({ status: got.status, headers: got.headers, body: got.json });

async function urlToken(who: SignedIn, id: string, server: TestServer = t): Promise<string> {
  const res = await server.client.post(`/nodes/${id}/access-token`, undefined, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return encodeURIComponent(res.body.access_token as string);
}

async function playback(who: SignedIn, id: string, server: TestServer = t): Promise<any> {
  const res = await server.client.get(`/nodes/${id}/playback`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function queue(server: TestServer = t): Promise<any> {
  const res = await server.client.get('/admin/playback-copies', { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Uploads, then waits until the thumbnails and the copies are done. */
async function uploadVideo(who: SignedIn, data: Buffer, filename: string, server: TestServer = t, nodeId?: string): Promise<string> {
  const id = await uploadFile(server.api, who.access, data, { filename, ...(nodeId && { nodeId }) });
  await server.server.mediaIdle();
  await server.server.playbackIdle();
  return id;
}

async function copyBytes(who: SignedIn, id: string, server: TestServer = t): Promise<Buffer> {
  const got = await get(`${server.api}/nodes/${id}/download?copy=playback&access_token=${await urlToken(who, id, server)}`);
  assert.equal(got.status, 200, got.body.toString().slice(0, 300));
  return got.body;
}

/** What a file holds, read by the server's own probe (ffprobe here, ffmpeg's summary without it). */
async function probeBytes(data: Buffer): Promise<VideoProbe> {
  const file = path.join(t.dataDir, `probe-${crypto.randomUUID()}.mp4`);
  await fs.writeFile(file, data);
  try {
    return await probeVideo(await videoInput(file), detectMediaTools({ ffmpegPath: null, heifConvertPath: null }).tools, 2 * 1024 ** 3);
  } finally {
    await fs.rm(file, { force: true });
  }
}

/** The copy files on the built-in library, by content file. */
async function copiesOnDisk(server: TestServer = t): Promise<string[]> {
  const root = path.join(server.dataDir, 'files', 'playback');
  const found: string[] = [];
  for (const shard of await fs.readdir(root).catch(() => [] as string[])) {
    if (shard.startsWith('.')) continue;
    found.push(...(await fs.readdir(path.join(root, shard))));
  }
  return found.sort();
}

/** Copies go a moment after their last video (deletes are swept together). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`not in ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function boxOrder(mp4: Buffer): string[] {
  const boxes: string[] = [];
  for (let at = 0; at + 8 <= mp4.length;) {
    const size = mp4.readUInt32BE(at);
    boxes.push(mp4.toString('latin1', at + 4, at + 8));
    if (size < 8) break;
    at += size;
  }
  return boxes;
}

describe('an iPhone HEVC video', () => {
  let id: string;
  let original: Buffer;
  let copy: Buffer;
  let socket: EventSocket;

  before(async () => {
    socket = await EventSocket.open(t.url, owner.access);
    original = await mediaFixture('iphone-hevc-sound.mov');
    id = await uploadVideo(owner, original, 'IMG_0101.MOV');
    copy = await copyBytes(owner, id);
  });
  after(() => socket.ws.close());

  test('gets an H.264 High, 4:2:0, AAC copy in MP4 with its index first, turned upright, with the sound kept', async () => {
    const info = await playback(owner, id);
    assert.equal(info.copy.state, 'ready');
    assert.equal(info.copy.size, copy.length);
    const probe = await probeBytes(copy);
    assert.ok(probe.container.split(',').includes('mp4'), probe.container);
    assert.equal(probe.video?.codec, 'h264');
    assert.equal(probe.video?.profile, 'High');
    assert.equal(probe.video?.pixelFormat, 'yuv420p');
    // Stored sideways (320x240 and a display matrix): the copy is upright and needs none.
    assert.deepEqual([probe.video?.width, probe.video?.height, probe.video?.rotation], [240, 320, 0]);
    assert.equal(probe.audio?.codec, 'aac');
    assert.equal(probe.audio?.channels, 2);
    assert.ok(Math.abs((probe.durationSeconds ?? 0) - 2) < 0.2, String(probe.durationSeconds));
    const boxes = boxOrder(copy);
    assert.ok(boxes.indexOf('moov') !== -1 && boxes.indexOf('moov') < boxes.indexOf('mdat'), `faststart: ${boxes.join(' ')}`);
  });

  test("says what the original is, with its codecs, for the browser's canPlayType", async () => {
    const info = await playback(owner, id);
    assert.match(info.original.type, /^video\/mp4; codecs="hvc1\.1\.6\.L\d+\.B0, mp4a\.40\.2"$/);
    assert.deepEqual([info.original.width, info.original.height], [240, 320]);
    assert.equal(info.original.framerate, 10);
    assert.ok(Math.abs(info.original.duration_seconds - 2) < 0.1);
  });

  test('the copy is sent by ranges (seeking): a middle, an open end, the last bytes, and 416 past its end', async () => {
    const url = `${t.api}/nodes/${id}/download?copy=playback&access_token=${await urlToken(owner, id)}`;
    const middle = await get(url, { range: 'bytes=1000-1999' });
    assert.equal(middle.status, 206);
    assert.equal(middle.headers.get('content-range'), `bytes 1000-1999/${copy.length}`);
    assert.equal(middle.headers.get('content-type'), 'video/mp4');
    assert.deepEqual(middle.body, copy.subarray(1000, 2000));
    const rest = await get(url, { range: `bytes=${copy.length - 100}-` });
    assert.deepEqual(rest.body, copy.subarray(copy.length - 100));
    const tail = await get(url, { range: 'bytes=-10' });
    assert.deepEqual(tail.body, copy.subarray(copy.length - 10));
    const beyond = await get(url, { range: `bytes=${copy.length}-` });
    assertError(asResponse(beyond), 416, 'invalid_range');
    assert.equal(beyond.headers.get('content-range'), `bytes */${copy.length}`);
    const whole = await get(url);
    assert.equal(whole.headers.get('accept-ranges'), 'bytes');
    assert.match(whole.headers.get('content-disposition') ?? '', /^inline; filename="IMG_0101\.mp4"/);
    const etag = whole.headers.get('etag')!;
    assert.equal((await get(url, { 'if-none-match': etag })).status, 304);
  });

  test('the original downloads byte for byte as it was uploaded, still a QuickTime file', async () => {
    const download = await get(`${t.api}/nodes/${id}/download?access_token=${await urlToken(owner, id)}`);
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/octet-stream');
    assert.match(download.headers.get('content-disposition') ?? '', /^attachment; filename="IMG_0101\.MOV"/);
    assert.ok(download.body.equals(original), 'the original, unchanged');
    const node = await t.client.get(`/nodes/${id}`, { token: owner.access });
    assert.equal(node.body.size, original.length);
    assert.equal(node.body.mime_type, 'video/quicktime');
  });

  test('everyone who sees the video hears node.playback_changed when its copy is ready', async () => {
    const heard = await socket.waitFor((m) => m.type === 'node.playback_changed' && m.payload.node_id === id);
    assert.equal(heard.payload.copy, 'ready');
  });

  test("someone else's video is not found, and a URL token opens only its own node's copy", async () => {
    assertError(await t.client.get(`/nodes/${id}/playback`, { token: bob.access }), 404, 'not_found');
    assertError(await t.client.get(`/nodes/${id}/download?copy=playback`, { token: bob.access }), 404, 'not_found');
    const bobsVideo = await uploadVideo(bob, await mediaFixture('iphone-hevc.mov'), 'bob.mov');
    const bobsToken = await urlToken(bob, bobsVideo);
    assertError(asResponse(await get(`${t.api}/nodes/${id}/download?copy=playback&access_token=${bobsToken}`)), 401, 'invalid_token');
    // A session's own token in the URL (the contract allows it) opens what its account may see, and no more.
    assertError(
      asResponse(await get(`${t.api}/nodes/${id}/download?copy=playback&access_token=${encodeURIComponent(bob.access)}`)),
      404,
      'not_found',
    );
    assert.equal((await get(`${t.api}/nodes/${id}/download?copy=playback&access_token=${encodeURIComponent(owner.access)}`)).status, 200);
    assertError(asResponse(await get(`${t.api}/nodes/${id}/download?copy=playback`)), 401, 'unauthorized');
    assertError(asResponse(await get(`${t.api}/nodes/${id}/playback`)), 401, 'unauthorized');
    // Shared with Bob, it opens for him.
    const shared = await t.client.post(`/nodes/${id}/permissions`, { user_id: bob.userId, role: 'viewer' }, { token: owner.access });
    assert.equal(shared.status, 201, JSON.stringify(shared.body));
    assert.equal((await playback(bob, id)).copy.state, 'ready');
    assert.deepEqual(await copyBytes(bob, id), copy);
  });
});

describe('a public link', () => {
  test("a visitor plays a shared folder's HEVC video from its copy (Range); the copy follows the link's download switch and its tree", async () => {
    const folder = (await t.client.post('/nodes/folder', { name: 'Holiday films' }, { token: owner.access })).body.id as string;
    const data = await hevcVariant(7, 'iphone-hevc-sound.mov');
    const id = await uploadFile(t.api, owner.access, data, { filename: 'IMG_0300.MOV', parentId: folder });
    const outside = await uploadVideo(owner, await hevcVariant(8), 'not-shared.mov');
    await t.server.mediaIdle();
    await t.server.playbackIdle();
    const link = (await t.client.post(`/nodes/${folder}/share`, {}, { token: owner.access })).body;
    const info = await get(`${t.api}/s/${link.token}/playback?node_id=${id}`);
    assert.equal(info.status, 200);
    assert.equal(info.json.copy.state, 'ready');
    assert.match(info.json.original.type, /hvc1/);
    const copyUrl = `${t.api}/s/${link.token}/playback-copy?node_id=${id}`;
    const whole = await get(copyUrl);
    assert.equal(whole.status, 200);
    assert.equal(whole.headers.get('content-type'), 'video/mp4');
    assert.deepEqual(whole.body, await copyBytes(owner, id));
    const part = await get(copyUrl, { range: 'bytes=10-19' });
    assert.equal(part.status, 206);
    assert.deepEqual(part.body, whole.body.subarray(10, 20));
    // The original is what the link downloads.
    assert.ok((await get(`${t.api}/s/${link.token}/download?node_id=${id}`)).body.equals(data));
    // Outside the shared folder: not found, copy or not.
    assertError(asResponse(await get(`${t.api}/s/${link.token}/playback-copy?node_id=${outside}`)), 404, 'not_found');
    assertError(asResponse(await get(`${t.api}/s/${link.token}/playback?node_id=${outside}`)), 404, 'not_found');
    // Downloads switched off: no playing either, as for the file itself.
    const closed = (await t.client.post(`/nodes/${folder}/share`, { allow_download: false }, { token: owner.access })).body;
    assertError(asResponse(await get(`${t.api}/s/${closed.token}/playback-copy?node_id=${id}`)), 403, 'download_disabled');
    assertError(asResponse(await get(`${t.api}/s/${closed.token}/playback?node_id=${id}`)), 403, 'download_disabled');
  });
});

describe('which videos get a copy', () => {
  test('a video every browser plays (H.264 in MP4) gets none: not_needed, and its copy is 404 playback_copy_not_ready', async () => {
    const id = await uploadVideo(owner, await mediaFixture('clip.mp4'), 'clip.mp4');
    const info = await playback(owner, id);
    assert.equal(info.copy.state, 'not_needed');
    assert.match(info.original.type, /^video\/mp4; codecs="avc1\.[0-9A-F]{6}"$/);
    assertError(await t.client.get(`/nodes/${id}/download?copy=playback`, { token: owner.access }), 404, 'playback_copy_not_ready');
  });

  test('WebM (VP9) gets one too: older iPhones do not play it', async () => {
    const id = await uploadVideo(owner, await mediaFixture('clip.webm'), 'clip.webm');
    const info = await playback(owner, id);
    assert.equal(info.copy.state, 'ready');
    assert.match(info.original.type, /^video\/webm; codecs="vp/);
    const probe = await probeBytes(await copyBytes(owner, id));
    assert.equal(probe.video?.codec, 'h264');
  });

  test('a photo has no playback, a folder neither: 400 invalid_input; an unknown id 404', async () => {
    const photo = await uploadFile(t.api, owner.access, await mediaFixture('quadrants-640x480.heic'), { filename: 'photo.heic' });
    assertError(await t.client.get(`/nodes/${photo}/playback`, { token: owner.access }), 400, 'invalid_input', 'id');
    const folder = await t.client.post('/nodes/folder', { name: 'Films' }, { token: owner.access });
    assertError(await t.client.get(`/nodes/${folder.body.id}/playback`, { token: owner.access }), 400, 'invalid_input', 'id');
    assertError(await t.client.get('/nodes/nope0000000000/playback', { token: owner.access }), 404, 'not_found');
  });
});

describe('copies belong to the content', () => {
  test("two accounts' same video: each has it prepared as new, then they share one copy, which stays while either has it and goes with the last", async () => {
    const data = await mediaFixture('long-hevc.mov');
    const before = await copiesOnDisk();
    const mine = await uploadVideo(owner, data, 'same.mov');
    const made = (await copiesOnDisk()).filter((name) => !before.includes(name));
    assert.equal(made.length, 1, 'one copy made');
    const hers = await uploadVideo(bob, data, 'same-as-bob.mov');
    // Her upload went through "being prepared" (uploadVideo waited for it): nothing told her someone had it.
    assert.equal((await playback(bob, hers)).copy.state, 'ready');
    assert.equal((await copiesOnDisk()).length, before.length + 2, 'her own copy, made as for a new video');
    await t.server.contentIdle();
    await eventually(
      async () => (await copiesOnDisk()).length === before.length + 1,
      'once both are made, the two files and their copies become one',
    );
    const bytes = await copyBytes(bob, hers);
    assert.deepEqual(await copyBytes(owner, mine), bytes);

    assert.equal((await t.client.delete(`/nodes/${mine}/permanent`, { token: owner.access })).status, 204);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.deepEqual(await copyBytes(bob, hers), bytes, "kept for Bob's");
    assert.equal((await t.client.delete(`/nodes/${hers}`, { token: bob.access })).status, 200);
    assert.equal((await playback(bob, hers)).copy.state, 'ready', 'kept while in the trash: it may come back');

    assert.equal((await t.client.delete(`/nodes/${hers}/permanent`, { token: bob.access })).status, 204);
    await eventually(async () => (await copiesOnDisk()).length === before.length, 'the copy removed with the last video');
    assert.equal((await queue()).bytes, await sizeOf(await copiesOnDisk()));
  });

  test('a new version gets its own copy and the old one goes', async () => {
    const id = await uploadVideo(owner, await hevcVariant(3), 'changing.mov');
    const first = await copyBytes(owner, id);
    const onDisk = await copiesOnDisk();
    await uploadVideo(owner, await hevcVariant(4, 'iphone-hevc-sound.mov'), 'changing.mov', t, id);
    const second = await copyBytes(owner, id);
    assert.notDeepEqual(second, first);
    assert.equal((await probeBytes(second)).audio?.codec, 'aac', 'the copy of the new version');
    await eventually(async () => {
      const now = await copiesOnDisk();
      return now.length === onDisk.length && !now.every((name) => onDisk.includes(name));
    }, 'the old copy replaced');
  });
});

describe('the owner', () => {
  test('sees the queue: the copies made and the space they take, exactly as on disk', async () => {
    const view = await queue();
    assert.equal(view.enabled, true);
    assert.equal(view.waiting, 0);
    assert.equal(view.making, null);
    assert.equal(view.paused, null);
    assert.equal(view.ready, (await copiesOnDisk()).length);
    assert.equal(view.bytes, await sizeOf(await copiesOnDisk()));
    assertError(await t.client.get('/admin/playback-copies', { token: bob.access }), 403, 'forbidden');
    assertError(await t.client.delete('/admin/playback-copies', { token: bob.access }), 403, 'forbidden');
  });

  test('switched off: no new copy (the video says off, the queue waits), those made still play; removing them frees their space; on again, all are made', async () => {
    const kept = await uploadVideo(owner, await mediaFixture('rotated.mov'), 'kept.mov');
    assert.equal((await playback(owner, kept)).copy.state, 'not_needed', 'H.264 in a .mov plays everywhere');
    const older = await uploadVideo(owner, await hevcVariant(2), 'older.mov');
    assert.equal((await playback(owner, older)).copy.state, 'ready');

    const off = await t.client.patch('/server/settings', { make_playback_copies: false }, { token: owner.access });
    assert.equal(off.status, 200);
    assert.equal(off.body.make_playback_copies, false);
    const fresh = await uploadVideo(owner, await hevcVariant(1), 'fresh.mov');
    assert.equal((await playback(owner, fresh)).copy.state, 'off');
    const paused = await queue();
    assert.equal(paused.waiting, 1);
    assert.equal(paused.paused, 'off');
    assert.equal((await copyBytes(owner, older)).length > 0, true, 'copies made before still play');

    const ready = paused.ready;
    assert.ok(ready > 0);
    const removed = await t.client.delete('/admin/playback-copies', { token: owner.access });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.equal(removed.body.ready, 0);
    assert.equal(removed.body.bytes, 0);
    assert.equal(removed.body.waiting, ready + 1);
    assert.deepEqual(await copiesOnDisk(), []);
    assert.equal((await playback(owner, older)).copy.state, 'off');
    assertError(await t.client.get(`/nodes/${older}/download?copy=playback`, { token: owner.access }), 404, 'playback_copy_not_ready');

    const on = await t.client.patch('/server/settings', { make_playback_copies: true }, { token: owner.access });
    assert.equal(on.body.make_playback_copies, true);
    assertError(await t.client.delete('/admin/playback-copies', { token: owner.access }), 409, 'playback_copies_on');
    await t.server.playbackIdle();
    assert.equal((await playback(owner, fresh)).copy.state, 'ready');
    assert.equal((await playback(owner, older)).copy.state, 'ready');
    const after = await queue();
    assert.equal(after.ready, ready + 1);
    assert.equal(after.waiting, 0);
  });
});

describe('with only the ffmpeg shipped in node_modules (no ffprobe, no system ffmpeg)', () => {
  let bare: TestServer;
  let who: SignedIn;
  before(async () => {
    // Tools are looked up on PATH when the server starts: with an empty one it finds none of
    // the system's, and falls back to what npm installed.
    const saved = process.env.PATH;
    process.env.PATH = path.join(t.dataDir, 'no-tools-here');
    try {
      bare = await startTestServer();
    } finally {
      process.env.PATH = saved;
    }
    who = await setupOwner(bare.client);
  });
  after(() => bare.close());

  test("the HEVC video is read from ffmpeg's own summary and copied all the same", async () => {
    const id = await uploadVideo(who, await mediaFixture('iphone-hevc-sound.mov'), 'IMG_0102.MOV', bare);
    const info = await playback(who, id, bare);
    assert.match(info.original.type, /^video\/mp4; codecs="hvc1\.1\.6\.L\d+\.B0, mp4a\.40\.2"$/);
    assert.deepEqual([info.original.width, info.original.height], [240, 320]);
    assert.equal(info.copy.state, 'ready');
    const probe = await probeBytes(await copyBytes(who, id, bare));
    assert.equal(probe.video?.codec, 'h264');
    assert.deepEqual([probe.video?.width, probe.video?.height], [240, 320]);
    assert.equal(probe.audio?.codec, 'aac');
  });
});

async function sizeOf(names: string[]): Promise<number> {
  let total = 0;
  for (const name of names) total += (await fs.stat(path.join(t.dataDir, 'files', 'playback', name.slice(-6, -4), name))).size;
  return total;
}

/**
 * The HEVC fixture with other bytes and the same picture: a different content file (so a copy
 * of its own), made without ffmpeg by changing a byte of its free-form metadata ('encoder').
 */
async function hevcVariant(n: number, fixture: 'iphone-hevc.mov' | 'iphone-hevc-sound.mov' = 'iphone-hevc.mov'): Promise<Buffer> {
  const data = Buffer.from(await mediaFixture(fixture));
  const at = data.indexOf('Lavf');
  assert.ok(at > 0, 'the fixture names its muxer');
  data.write(String(n % 10), at + 4, 'latin1');
  return data;
}

describe('after the thumbnails', () => {
  test('photos arriving while a copy is made go first: its ffmpeg is stopped until their thumbnails are made, then finishes the copy', async () => {
    const server = await startTestServer({ mediaConcurrency: 1 });
    try {
      const who = await setupOwner(server.client);
      const video = await uploadFile(server.api, who.access, await mediaFixture('long-hevc.mov'), { filename: 'minute.mov' });
      await server.server.mediaIdle();
      const making = path.join(server.dataDir, 'files', 'playback', '.making');
      // The copy under way: its ffmpeg's pid is written beside its temp file.
      let pid = 0;
      await eventually(async () => {
        const names = await fs.readdir(making).catch(() => [] as string[]);
        const file = names.find((name) => name.endsWith('.pid'));
        pid = file ? Number(await fs.readFile(path.join(making, file), 'utf8')) : 0;
        return pid > 0;
      }, 'a copy under way');
      // Its state, every few milliseconds, from before the photos come until their thumbnails are made.
      const states: string[] = [];
      let watch = true;
      const watching = (async () => {
        while (watch) {
          states.push(processState(pid) ?? 'gone');
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      const jpegs = await Promise.all([0, 1, 2].map(() => noisyJpeg()));
      const photos = await Promise.all(jpegs.map((jpeg, i) => uploadFile(server.api, who.access, jpeg, { filename: `photo-${i}.jpg` })));
      await server.server.mediaIdle();
      const afterThumbnails = states.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      watch = false;
      await watching;
      for (const id of photos) assert.equal((await server.client.get(`/nodes/${id}`, { token: who.access })).body.has_thumbnail, true);
      assert.ok(states.includes('T'), `ffmpeg stopped while the thumbnails were made: ${[...new Set(states)].join(' ')}`);
      // Going again once they are: running, sleeping on I/O, or done.
      assert.ok(
        states.slice(afterThumbnails).some((state) => state !== 'T'),
        'ffmpeg let go again',
      );
      await server.server.playbackIdle();
      assert.equal((await playback(who, video, server)).copy.state, 'ready');
      const probe = await probeBytes(await copyBytes(who, video, server));
      assert.ok(Math.abs((probe.durationSeconds ?? 0) - 60) < 0.5, 'the whole minute, after the pause');
    } finally {
      await server.close();
    }
  });
});

/** A process's state letter from /proc (R running, S sleeping, T stopped); null when it is gone. */
function processState(pid: number): string | null {
  try {
    return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * A 12-megapixel photo of noise: its thumbnails take a while to make (a solid colour's take a few
 * milliseconds), so the time ffmpeg is stopped is long enough to be seen by sampling its state.
 */
async function noisyJpeg(): Promise<Buffer> {
  return sharp({
    create: { width: 4000, height: 3000, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .jpeg()
    .toBuffer();
}
