import sharp from 'sharp';
import type { MediaLimits, ThumbnailSize } from './media-info.ts';

/** WebP effort 2 of 6: about half the CPU of the default for a thumbnail that looks the same. */
const WEBP = { quality: 78, effort: 2 } as const;

/** One decode for all `sizes`; orientation applied so the picture is the right way up. */
export async function renderThumbnails(
  input: string | Buffer,
  limits: MediaLimits,
  sizes: readonly ThumbnailSize[],
  autoOrient = true,
  pixels?: { width: number; height: number; channels: 4 },
): Promise<Map<ThumbnailSize, Buffer>> {
  // Decoded straight to the largest size asked for, so JPEG shrink-on-load picks the smallest
  // scale that still covers it; smaller sizes are made from those pixels, not a second decode.
  const largest = Math.max(...sizes) as ThumbnailSize;
  const decoder = sharp(input, {
    limitInputPixels: limits.maxPixels,
    failOn: 'error',
    sequentialRead: true,
    ...(pixels && { raw: pixels }),
  });
  const decoded = (autoOrient ? decoder.rotate() : decoder)
    .timeout({ seconds: Math.ceil(limits.timeoutMs / 1000) })
    .resize({ width: largest, height: largest, fit: 'inside', withoutEnlargement: true });
  const out = new Map<ThumbnailSize, Buffer>();
  if (sizes.length === 1) {
    // One size: no raw copy in between, decode and encode in one pipeline.
    out.set(largest, await decoded.webp(WEBP).toBuffer());
    return out;
  }
  const { data, info } = await decoded.raw().toBuffer({ resolveWithObject: true });
  const raw = { raw: { width: info.width, height: info.height, channels: info.channels } };
  for (const size of sizes) {
    const encoded = await sharp(data, raw)
      .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
      .webp(WEBP)
      .toBuffer();
    out.set(size, encoded);
  }
  return out;
}
