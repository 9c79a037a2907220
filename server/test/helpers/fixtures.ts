import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MEDIA_FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'media');

/**
 * The committed media fixtures (`npm run fixtures` makes them again, with ffmpeg and
 * libheif's heif-enc): the tests read them, so they need none of those tools.
 * What each one holds is written beside it in fixtures/make.ts.
 */
export type MediaFixture =
  | 'clip.mp4'
  | 'clip.mov'
  | 'clip.webm'
  | 'rotated.mp4'
  | 'rotated.mov'
  | 'iphone-hevc.mov'
  | 'iphone-hevc-sound.mov'
  | 'long-hevc.mov'
  | 'ancient.mp4'
  | 'quadrants-640x480.heic'
  | 'quadrants-1600x1200.heic'
  | 'exif-minus3.heic'
  | 'iphone-irot.heic'
  | 'exif-2017.avif'
  | 'lisbon-pixel.jpg'
  | 'paris-canon.jpg'
  | 'christmas-newyork.jpg'
  | 'tokyo-new-year.jpg'
  | 'no-fix.jpg'
  | 'lisbon-iphone.mov';

export function mediaFixture(name: MediaFixture): Promise<Buffer> {
  return fs.readFile(path.join(MEDIA_FIXTURES, name));
}
