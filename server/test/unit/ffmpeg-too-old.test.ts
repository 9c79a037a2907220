// An ffmpeg older than FFmpeg 4.0 (libavformat 58), or one that does not run, is never used:
// the start-up log says why, and videos wait for a usable one as they would with none.
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledFfmpeg, detectMediaTools, versionVerdict } from '../../src/media/tools.ts';
import { makeTempDir } from '../helpers/server.ts';

let dir: string;
before(async () => {
  dir = await makeTempDir('hearth-old-ffmpeg-');
});
after(() => fs.rm(dir, { recursive: true, force: true }));

/** A program that answers `-version` as an ffmpeg of that libavformat would. */
async function fakeFfmpeg(name: string, libavformat: string): Promise<string> {
  const file = path.join(dir, name);
  const answer = `ffmpeg version 3.4.8 Copyright (c) 2000-2020 the FFmpeg developers\\nlibavutil      55. 78.100 / 55. 78.100\\nlibavformat    ${libavformat} / ${libavformat}\\n`;
  await fs.writeFile(file, `#!/bin/sh\nprintf '${answer}'\n`, { mode: 0o755 });
  return file;
}

describe('which ffmpeg is used', () => {
  test('a configured ffmpeg of 2017 (libavformat 57) is refused, and named in the reason', async () => {
    const old = await fakeFfmpeg('ffmpeg-3.4', '57. 83.100');
    const found = detectMediaTools({ ffmpegPath: old, heifConvertPath: null });
    assert.equal(found.tools.ffmpeg, null);
    assert.equal(found.ffmpegRefused.length, 1);
    assert.equal(found.ffmpegRefused[0]!.path, old);
    assert.match(found.ffmpegRefused[0]!.why, /too old: libavformat 57\.83/);
  });

  test('a configured ffmpeg that does not run is refused', () => {
    const found = detectMediaTools({ ffmpegPath: path.join(dir, 'no-such-ffmpeg'), heifConvertPath: null });
    assert.equal(found.tools.ffmpeg, null);
    assert.match(found.ffmpegRefused[0]!.why, /does not run/);
  });

  test('FFmpeg 4.0 and newer pass, the build shipped in node_modules among them', async () => {
    assert.deepEqual(versionVerdict('ffmpeg version 4.0\nlibavformat    58. 12.100 / 58. 12.100\n'), { version: '4.0' });
    assert.deepEqual(versionVerdict('ffprobe version 7.1\nlibavformat    61.  7.100 / 61.  7.100\n'), { version: '7.1' });
    assert.ok('why' in versionVerdict('ffmpeg version 2.8\n'));
    const bundled = bundledFfmpeg();
    if (bundled) {
      const found = detectMediaTools({ ffmpegPath: bundled.path, heifConvertPath: null });
      assert.equal(found.tools.ffmpeg, bundled.path);
      assert.deepEqual(found.ffmpegRefused, []);
    }
  });
});
