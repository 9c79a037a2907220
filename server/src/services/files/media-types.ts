import path from 'node:path';
import { sniffVideoContainer } from '../../media/video-containers.ts';

/** Images and videos: what the gallery shows. */
export function isMediaType(mime: string | null): boolean {
  return mime !== null && (mime.startsWith('image/') || mime.startsWith('video/'));
}

const BY_EXTENSION: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.heic': 'image/heic',
  '.heif': 'image/heif',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.bmp': 'image/bmp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.json': 'application/json',
  '.zip': 'application/zip',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.doc': 'application/msword',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xls': 'application/vnd.ms-excel',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Leading bytes of common formats: what a file is, whatever its name claims. */
export function sniffMimeType(head: Buffer): string | null {
  const starts = (bytes: number[], offset = 0) => bytes.every((b, i) => head[offset + i] === b);
  const ascii = (text: string, offset = 0) => head.subarray(offset, offset + text.length).toString('latin1') === text;
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (ascii('GIF87a') || ascii('GIF89a')) return 'image/gif';
  if (ascii('RIFF') && ascii('WEBP', 8)) return 'image/webp';
  if (ascii('RIFF') && ascii('WAVE', 8)) return 'audio/wav';
  if (starts([0x49, 0x49, 0x2a, 0x00]) || starts([0x4d, 0x4d, 0x00, 0x2a])) return 'image/tiff';
  if (ascii('%PDF-')) return 'application/pdf';
  if (ascii('ftyp', 4)) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(brand)) return 'image/heic';
    if (brand === 'mif1' || brand === 'msf1') return 'image/heif';
    if (brand.startsWith('M4A')) return 'audio/mp4';
  }
  const video = sniffVideoContainer(head);
  if (video) return video.mime;
  if (ascii('ID3') || starts([0xff, 0xfb])) return 'audio/mpeg';
  if (ascii('fLaC')) return 'audio/flac';
  if (ascii('OggS')) return 'audio/ogg';
  if (starts([0x50, 0x4b, 0x03, 0x04])) return null; // zip containers (docx, xlsx...): the extension decides
  // AppleDouble: the `._photo.jpg` beside each file Finder copies to a drive (WebDAV), its
  // metadata, never a photo however it is named: kept out of Photos and the timeline.
  if (starts([0x00, 0x05, 0x16, 0x07])) return 'application/applefile';
  return null;
}

/**
 * The type a file is stored with: sniffed content first (a `.jpg` that is a PNG is a PNG),
 * then the extension, then what the client claimed, then plain bytes. A video only when its
 * bytes are one: a name or a claim never makes a file a video, since a video is handed to
 * ffmpeg (a "holiday.mp4" that is a playlist naming another file on the PC: video-containers.ts).
 */
export function decideMimeType(head: Buffer, filename: string, claimed: string | null): string {
  const sniffed = sniffMimeType(head);
  if (sniffed) return sniffed;
  const byName = BY_EXTENSION[path.extname(filename).toLowerCase()];
  const named = byName ?? (claimed && /^[\w.+-]+\/[\w.+-]+$/.test(claimed) ? claimed.toLowerCase() : null);
  if (named && !named.startsWith('video/')) return named;
  return 'application/octet-stream';
}
