import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { processMedia } from '../../src/media/processor.ts';
import { DEFAULT_MEDIA_LIMITS, type MediaTools } from '../../src/media/media-info.ts';
import { makeTempDir } from '../helpers/server.ts';

const NO_TOOLS: MediaTools = { ffmpeg: null, ffprobe: null, heifConvert: null, prlimit: null };

test('an SVG thumbnail never shows a file beside it: <image href> of a sibling content file renders nothing of it', async () => {
  // Content files share folders (blobs/<shard>/): an SVG referring to its neighbour by name
  // would put someone else's photo into its own thumbnail.
  const dir = await makeTempDir();
  try {
    await fs.writeFile(
      path.join(dir, 'neighbour'),
      await sharp({ create: { width: 64, height: 64, channels: 3, background: '#ff0000' } })
        .png()
        .toBuffer(),
    );
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64">' +
      '<rect width="64" height="64" fill="#0000ff"/>' +
      '<image x="0" y="0" width="64" height="64" href="neighbour" xlink:href="neighbour"/>' +
      '<image x="0" y="0" width="64" height="64" href="file://' +
      path.join(dir, 'neighbour') +
      '"/>' +
      '</svg>';
    const file = path.join(dir, 'drawing');
    await fs.writeFile(file, svg);
    const info = await processMedia(file, 'image/svg+xml', NO_TOOLS, DEFAULT_MEDIA_LIMITS, [512]);
    assert.equal(info.failure, null);
    const thumb = info.thumbnails!.get(512)!;
    const { data, info: raw } = await sharp(thumb).raw().toBuffer({ resolveWithObject: true });
    const centre = (Math.floor(raw.height / 2) * raw.width + Math.floor(raw.width / 2)) * raw.channels;
    const [r, g, b] = [data[centre]!, data[centre + 1]!, data[centre + 2]!];
    assert.ok(b > 200 && r < 50 && g < 50, `the centre is rgb(${r}, ${g}, ${b}), not the blue of the drawing itself`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
