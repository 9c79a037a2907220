import type { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import { AppError } from '../../app-error.ts';
import { heifUprightJpeg } from '../../media/heif-upright.ts';
import type { MediaLimits, MediaTools } from '../../media/media-info.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { NodeRow } from '../../store/database/node-rows.ts';
import type { Actor } from '../common/context.ts';
import type { FileService } from '../files/files.ts';

type Exif = Parameters<ReturnType<typeof sharp>['withExif']>[0];
type ExifDir = Record<string, string>;

/** A photo as the family edited it, made on request: never kept, the original stays the file. */
export interface EditedPhoto {
  filename: string;
  mime: 'image/jpeg' | 'image/png';
  body: Buffer;
}

/** What libvips reads itself. */
const EDITABLE = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/tiff', 'image/gif', 'image/avif']);
/** An iPhone's photos: decoded as their thumbnails are (media/heif-upright.ts), upright already. */
const HEIF = new Set(['image/heic', 'image/heif']);

/** Above this an original is not decoded on request (a 40 MP JPEG is about 20 MB). */
const MAX_BYTES = 80 * 1024 * 1024;

/**
 * "Download as edited": the original turned as the family turned it, its date and place as they
 * corrected them written into its EXIF (DateTimeOriginal and its zone, GPS). The camera's other
 * EXIF is not carried over: what is written is what the edits say, with the picture upright.
 */
export class EditedPhotoService {
  constructor(
    private readonly files: FileService,
    private readonly content: ContentStores,
    private readonly tools: MediaTools,
    private readonly limits: MediaLimits,
  ) {}

  async render(actor: Actor, nodeId: string): Promise<EditedPhoto> {
    // Someone who may not read it gets 404, as for its download.
    const file = this.files.download(actor, nodeId);
    const { node } = file;
    const mime = file.version.mime_type ?? node.mime_type ?? '';
    const heif = HEIF.has(mime);
    if (!node.is_media || !(EDITABLE.has(mime) || heif)) throw new AppError('not_a_photo', 'Only a photo can be downloaded as edited.');
    if (file.version.size > MAX_BYTES)
      throw new AppError('not_a_photo', 'This photo is too large to make again here: download the original.');
    const png = mime === 'image/png';
    // The camera's own turn (its Orientation tag, or a HEIC's irot box) first, then the family's.
    let image = heif ? await this.heifPixels(file.version) : sharp(await bytes(file.open()), { failOn: 'none' }).autoOrient();
    if (node.rotation) image = image.rotate(node.rotation);
    image = image.withExif(exifOf(node));
    const body = await (png ? image.png() : image.jpeg({ quality: 92, mozjpeg: false })).toBuffer();
    return { filename: editedName(node.name, png ? '.png' : '.jpg'), mime: png ? 'image/png' : 'image/jpeg', body };
  }

  /**
   * A HEIC's picture, upright, as bare pixels: the decoded JPEG still carries the phone's EXIF
   * orientation, which libvips would copy into the download for a viewer to turn it again. One
   * that cannot be decoded here is said plainly; the original still downloads.
   */
  private async heifPixels(version: { library_id: string; blob: string }): Promise<Sharp> {
    const file = this.content.of(version.library_id).pathOf(version.blob);
    try {
      const { data, info } = await sharp(await heifUprightJpeg(file, this.tools, this.limits))
        .raw()
        .toBuffer({ resolveWithObject: true });
      return sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
    } catch {
      throw new AppError('not_a_photo', 'This photo cannot be made again on this computer: download the original.');
    }
  }
}

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** "Beach (edited).jpg" for "Beach.JPG". */
export function editedName(name: string, extension: string): string {
  const dot = name.lastIndexOf('.');
  return `${dot > 0 ? name.slice(0, dot) : name} (edited)${extension}`;
}

/** EXIF as libvips writes it from strings: the date on the clock where it was taken, its zone, the place as degrees. */
export function exifOf(node: Pick<NodeRow, 'taken_at' | 'taken_offset' | 'latitude' | 'longitude'>): Exif {
  const exif: { IFD0: ExifDir; IFD2: ExifDir; IFD3?: ExifDir } = { IFD0: { Software: 'Hearth' }, IFD2: {} };
  if (node.taken_at !== null) {
    const wall = new Date(node.taken_at + (node.taken_offset ?? 0) * 60_000).toISOString();
    const stamp = `${wall.slice(0, 10).replaceAll('-', ':')} ${wall.slice(11, 19)}`;
    exif.IFD0.DateTime = stamp;
    exif.IFD2.DateTimeOriginal = stamp;
    if (node.taken_offset !== null) exif.IFD2.OffsetTimeOriginal = zone(node.taken_offset);
  }
  if (node.latitude !== null && node.longitude !== null) {
    exif.IFD3 = {
      GPSLatitudeRef: node.latitude < 0 ? 'S' : 'N',
      GPSLatitude: degrees(Math.abs(node.latitude)),
      GPSLongitudeRef: node.longitude < 0 ? 'W' : 'E',
      GPSLongitude: degrees(Math.abs(node.longitude)),
    };
  }
  return exif;
}

/** "+01:00" for 60 minutes east of UTC. */
function zone(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Degrees, minutes and seconds as three EXIF rationals ("38/1 42/1 3060/100"). */
function degrees(value: number): string {
  const d = Math.floor(value);
  const m = Math.floor((value - d) * 60);
  const s = Math.round(((value - d) * 60 - m) * 60 * 100);
  return `${d}/1 ${m}/1 ${s}/100`;
}
