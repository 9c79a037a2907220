import fs from 'node:fs/promises';

/** The `meta` box of a photo is a few kilobytes; one this large is not a photo's. */
const MAX_META_BYTES = 4 * 1024 * 1024;
/** Top-level boxes looked at before giving up on finding `meta` (ftyp, meta, mdat, free...). */
const MAX_TOP_LEVEL_BOXES = 64;
const FULL_BOXES = new Set(['meta']);
/** The containers between `meta` and the image sizes: meta > iprp > ipco > ispe. */
const PATH_TO_ISPE = ['iprp', 'ipco'];

export interface HeifSize {
  width: number;
  height: number;
}

/**
 * The largest image size a HEIF file declares (its `ispe` properties: the primary image, or
 * the whole of a grid, is the largest), read from the box headers alone, without decoding
 * anything. Null when the file has no readable `meta` with an `ispe`: not a HEIF image to
 * decode. This is how a decoder's memory is bounded before it starts: it allocates from
 * these numbers.
 */
export async function heifImageSize(file: string): Promise<HeifSize | null> {
  const handle = await fs.open(file, 'r');
  try {
    const { size: fileSize } = await handle.stat();
    let at = 0;
    for (let n = 0; n < MAX_TOP_LEVEL_BOXES && at + 8 <= fileSize; n++) {
      const header = Buffer.alloc(16);
      await handle.read(header, 0, 16, at);
      const box = boxHeader(header, 0, fileSize - at);
      if (!box) return null;
      if (box.type === 'meta') {
        if (box.size > MAX_META_BYTES) return null;
        const meta = Buffer.alloc(box.size);
        await handle.read(meta, 0, box.size, at);
        return largestIspe(meta, box.headerSize + 4, box.size, 0);
      }
      at += box.size;
    }
    return null;
  } finally {
    await handle.close();
  }
}

interface BoxHeader {
  type: string;
  size: number;
  headerSize: number;
}

/** ISO/IEC 14496-12 box header: 32-bit size (1: a 64-bit size follows; 0: to the end), type. */
function boxHeader(buf: Buffer, at: number, left: number): BoxHeader | null {
  if (left < 8 || buf.length - at < 8) return null;
  let size = buf.readUInt32BE(at);
  const type = buf.toString('latin1', at + 4, at + 8);
  let headerSize = 8;
  if (size === 1) {
    if (buf.length - at < 16) return null;
    const large = buf.readBigUInt64BE(at + 8);
    if (large > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    size = Number(large);
    headerSize = 16;
  } else if (size === 0) {
    size = left;
  }
  if (size < headerSize || size > left) return null;
  return { type, size, headerSize };
}

function largestIspe(buf: Buffer, from: number, to: number, depth: number): HeifSize | null {
  let best: HeifSize | null = null;
  for (let at = from; at < to;) {
    const box = boxHeader(buf, at, to - at);
    if (!box) return best;
    const body = at + box.headerSize + (FULL_BOXES.has(box.type) ? 4 : 0);
    if (box.type === 'ispe' && box.size >= box.headerSize + 12) {
      // ispe is a full box: version and flags, then width and height, 32 bits each.
      const size = { width: buf.readUInt32BE(at + box.headerSize + 4), height: buf.readUInt32BE(at + box.headerSize + 8) };
      if (!best || size.width * size.height > best.width * best.height) best = size;
    } else if (box.type === PATH_TO_ISPE[depth]) {
      const inner = largestIspe(buf, body, at + box.size, depth + 1);
      if (inner && (!best || inner.width * inner.height > best.width * best.height)) best = inner;
    }
    at += box.size;
  }
  return best;
}
