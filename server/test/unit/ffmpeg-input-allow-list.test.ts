// ffmpeg opens a stored video with the one demuxer its bytes named and reads local files only:
// even were a playlist, concat script or SDP description taken for a video, every ffmpeg Hearth
// may run (the system's, the one shipped in node_modules) makes no picture from what it names.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runTool } from '../../src/media/run-tool.ts';
import { bundledFfmpeg } from '../../src/media/tools.ts';
import type { Demuxer } from '../../src/media/video-containers.ts';
import { inputArguments } from '../../src/media/video-input.ts';
import { findExecutable } from '../../src/platform/run.ts';
import { mediaFixture } from '../helpers/fixtures.ts';
import { hostileVideos } from '../helpers/hostile-videos.ts';
import { makeTempDir } from '../helpers/server.ts';
import { missingTool, skipBecause } from '../helpers/skip.ts';

const DEMUXERS: Demuxer[] = ['mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'asf'];

let dir: string;
let secret: string;

before(async () => {
  dir = await makeTempDir('hearth-allow-list-');
  secret = path.join(dir, 'secret.mp4');
  await fs.writeFile(secret, await mediaFixture('clip.mp4'));
});
after(() => fs.rm(dir, { recursive: true, force: true }));

/** A poster frame as the server asks for one; the PNG's bytes, or null when ffmpeg made none. */
async function posterOf(ffmpeg: string, args: string[]): Promise<Buffer | null> {
  try {
    const out = await runTool(ffmpeg, ['-v', 'error', ...args, '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', '-'], {
      timeoutMs: 30_000,
    });
    return out.stdout.length > 0 ? out.stdout : null;
  } catch {
    return null;
  }
}

for (const [which, find] of [
  ['the system ffmpeg', () => findExecutable('ffmpeg')],
  ['the ffmpeg shipped in node_modules', () => bundledFfmpeg()?.path ?? null],
] as const) {
  describe(which, () => {
    test('left to guess, it reads the video a playlist names (what the allow-lists stop)', async (ctx) => {
      const ffmpeg = find();
      if (!ffmpeg) return skipBecause(ctx, missingTool('ffmpeg', 'ffmpeg') ?? `${which} is not installed`);
      const playlist = path.join(dir, `guess-${which.length}`);
      await fs.writeFile(playlist, hostileVideos(secret, 'http://127.0.0.1:9')['HLS playlist naming a file:// video']!);
      assert.ok(await posterOf(ffmpeg, ['-i', playlist]), 'the unrestricted ffmpeg follows the playlist');
    });

    test('told a demuxer, it makes no picture from any fake video, whichever demuxer its bytes were taken for', async (ctx) => {
      const ffmpeg = find();
      if (!ffmpeg) return skipBecause(ctx, missingTool('ffmpeg', 'ffmpeg') ?? `${which} is not installed`);
      let n = 0;
      for (const [kind, data] of Object.entries(hostileVideos(secret, 'http://127.0.0.1:9'))) {
        const file = path.join(dir, `fake-${++n}`);
        await fs.writeFile(file, data);
        for (const demuxer of DEMUXERS) {
          assert.equal(await posterOf(ffmpeg, inputArguments({ file, demuxer })), null, `${kind} read as ${demuxer}`);
        }
      }
    });

    test('a real video still opens, with the same arguments', async (ctx) => {
      const ffmpeg = find();
      if (!ffmpeg) return skipBecause(ctx, missingTool('ffmpeg', 'ffmpeg') ?? `${which} is not installed`);
      assert.ok(await posterOf(ffmpeg, inputArguments({ file: secret, demuxer: 'mov' })));
      const webm = path.join(dir, 'clip.webm');
      await fs.writeFile(webm, await mediaFixture('clip.webm'));
      assert.ok(await posterOf(ffmpeg, inputArguments({ file: webm, demuxer: 'matroska' })));
    });
  });
}
