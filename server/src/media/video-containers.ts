import fs from 'node:fs/promises';

/**
 * The video containers Hearth lets ffmpeg open, each with the one demuxer that reads it.
 *
 * ffmpeg picks its demuxer by content unless told, and several of its demuxers open other
 * files or addresses named inside the file: an HLS playlist (`#EXTM3U` listing
 * `file:///home/…/secret.mp4`), a concat script, an SDP description, an image sequence. A
 * 115-byte "holiday.mp4" that is such a playlist had the server make a poster and a playback
 * copy of a video elsewhere on the PC, for its uploader to download. So a file is a video only
 * when its own leading bytes say which real container it is, and ffmpeg is then told that
 * demuxer and no other (video-input.ts), with no protocol but reading the one file.
 */
export type Demuxer = 'mov' | 'matroska' | 'avi' | 'mpegts' | 'mpeg' | 'asf';

export interface VideoContainer {
  demuxer: Demuxer;
  /** The type a file of this container is stored with. */
  mime: string;
}

/** Enough of the start of a file for every check below (an MPEG-TS needs three 192-byte packets). */
export const CONTAINER_HEAD_BYTES = 4096;

/** Boxes an ISO BMFF or QuickTime file may open with (QuickTime files from before `ftyp` start with their movie or data). */
const QUICKTIME_FIRST_BOXES = new Set(['moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);
const ASF_HEADER = Buffer.from('3026b2758e66cf11a6d900aa0062ce6c', 'hex');

/** The container a file's leading bytes are, or null when they are not one of the videos Hearth reads. */
export function sniffVideoContainer(head: Buffer): VideoContainer | null {
  if (head.length < 8) return null;
  const ascii = (text: string, offset = 0) => head.subarray(offset, offset + text.length).toString('latin1') === text;
  if (ascii('ftyp', 4)) {
    const brand = head.subarray(8, 12).toString('latin1');
    if (brand === 'qt  ') return { demuxer: 'mov', mime: 'video/quicktime' };
    return { demuxer: 'mov', mime: 'video/mp4' };
  }
  if (QUICKTIME_FIRST_BOXES.has(head.subarray(4, 8).toString('latin1')) && head.readUInt32BE(0) >= 8) {
    return { demuxer: 'mov', mime: 'video/quicktime' };
  }
  if (head[0] === 0x1a && head[1] === 0x45 && head[2] === 0xdf && head[3] === 0xa3) {
    // The EBML header names its DocType near the start: "webm" or "matroska".
    const webm = head.subarray(0, 64).includes(Buffer.from('webm'));
    return { demuxer: 'matroska', mime: webm ? 'video/webm' : 'video/x-matroska' };
  }
  if (ascii('RIFF') && ascii('AVI ', 8)) return { demuxer: 'avi', mime: 'video/x-msvideo' };
  if (head.subarray(0, 16).equals(ASF_HEADER)) return { demuxer: 'asf', mime: 'video/x-ms-asf' };
  // A transport stream is 188-byte packets each opening with 0x47; a camcorder's .mts/.m2ts puts a 4-byte time before each.
  if (syncEvery(head, 0, 188) || syncEvery(head, 4, 192)) return { demuxer: 'mpegts', mime: 'video/mp2t' };
  // An MPEG program stream (a DVD's or an old camera's .mpg) opens with a pack header.
  if (head[0] === 0x00 && head[1] === 0x00 && head[2] === 0x01 && head[3] === 0xba) return { demuxer: 'mpeg', mime: 'video/mpeg' };
  return null;
}

function syncEvery(head: Buffer, first: number, stride: number): boolean {
  const packets = 3;
  if (head.length < first + stride * (packets - 1) + 1) return false;
  for (let i = 0; i < packets; i++) if (head[first + i * stride] !== 0x47) return false;
  return true;
}

/** The container of a stored file, read from its first bytes; null when it is not a video Hearth reads. */
export async function containerOfFile(file: string): Promise<VideoContainer | null> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(CONTAINER_HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return sniffVideoContainer(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
