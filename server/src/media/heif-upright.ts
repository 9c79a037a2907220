import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { MediaLimits, MediaTools } from './media-info.ts';
import { heifRefusal } from './processor.ts';
import { runTool } from './run-tool.ts';

/**
 * A HEIC/HEIF photo's full picture, upright, as a JPEG: the way its thumbnails are decoded
 * (processor.ts), at full size. The system's heif-convert (libheif) decodes HEVC and applies the
 * file's own turn (irot/imir); the EXIF orientation it copies along says the same turn again and
 * must not be applied a second time, so the caller takes the pixels as they are. Without
 * heif-convert only an AV1-coded HEIF is read (by sharp, as AVIF is); the WebAssembly decoder
 * the thumbnails fall back on holds a CPU for seconds, which a request must not.
 * Throws, with a reason, when the file is refused or cannot be decoded.
 */
export async function heifUprightJpeg(file: string, tools: MediaTools, limits: MediaLimits): Promise<Buffer> {
  // Before any decoder sees the file: its declared size and pixels are checked as for thumbnails.
  const refused = await heifRefusal(file, limits);
  if (refused) throw new Error(refused);
  if (!tools.heifConvert) {
    return sharp(file, { limitInputPixels: limits.maxPixels, failOn: 'error' })
      .autoOrient()
      .timeout({ seconds: Math.ceil(limits.timeoutMs / 1000) })
      .jpeg({ quality: 95 })
      .toBuffer();
  }
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'hearth-heif-edited-'));
  try {
    const out = path.join(dir, 'decoded.jpg');
    await runTool(tools.heifConvert, ['-q', '95', '--', file, out], {
      timeoutMs: limits.timeoutMs,
      memoryBytes: limits.toolMemoryBytes,
      prlimit: tools.prlimit,
    });
    return await fs.readFile(out);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
