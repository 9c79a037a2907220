import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { uploadAs, type Account, type Api } from './hearth.ts';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'test', 'fixtures', 'media');

/**
 * A committed media fixture: clip.mp4 (H.264, plays in Chromium), iphone-hevc.mov (HEVC, does
 * not), iphone-hevc-sound.mov (the same with AAC sound), long-hevc.mov (a minute of HEVC);
 * photos and a video with a place, a zone and a camera (server/test/fixtures/make.ts).
 */
export function mediaFixture(
  name:
    | 'clip.mp4'
    | 'iphone-hevc.mov'
    | 'iphone-hevc-sound.mov'
    | 'long-hevc.mov'
    | 'lisbon-pixel.jpg'
    | 'lisbon-iphone.mov'
    | 'paris-canon.jpg'
    | 'christmas-newyork.jpg',
): Promise<Buffer> {
  return fs.readFile(path.join(FIXTURES, name));
}

let shade = 0;
/** A small JPEG, each a different colour, taken at `when` ("2024:05:06 07:08:09"; null: no capture time). */
export async function photo(when: string | null, width = 160, height = 120): Promise<Buffer> {
  shade += 1;
  const hue = (shade * 47) % 360;
  const [r, g, b] = [
    Math.round(128 + 100 * Math.cos((hue * Math.PI) / 180)),
    Math.round(128 + 100 * Math.cos(((hue - 120) * Math.PI) / 180)),
    Math.round(128 + 100 * Math.cos(((hue + 120) * Math.PI) / 180)),
  ];
  const image = sharp({ create: { width, height, channels: 3, background: { r, g, b } } }).jpeg({ quality: 80 });
  return (when === null ? image : image.withExif({ IFD0: { Make: 'Hearth e2e' }, IFD2: { DateTimeOriginal: when } })).toBuffer();
}

/** Uploads from the test side, as another device would (the server tells the type from the content). */
export function upload(api: Api, account: Account, data: Buffer, filename: string, parentId?: string): Promise<string> {
  return uploadAs(api, account, filename, data, parentId ? { parent_id: parentId } : {});
}

/** Waits until the server has made the thumbnails of these nodes (and read their capture times). */
export async function processed(api: Api, account: Account, ids: string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const id of ids) {
    for (;;) {
      const node = await api.ok('GET', `/nodes/${id}`, account.access);
      if (node.has_thumbnail) break;
      if (Date.now() > deadline) throw new Error(`${node.name} was not processed within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}
