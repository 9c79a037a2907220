import fs from 'node:fs/promises';

/*
 * Where a PNG or a HEIC/HEIF/AVIF keeps its EXIF, found from the file's structure alone, so the
 * upload can place the photo in its month before the media workers decode it. Every read is
 * bounded (how many boxes or chunks are looked at, how many bytes are read) and a file that
 * lies about its sizes yields null: what comes from a phone may be broken or hostile.
 */

/** The EXIF block of a photo with a thumbnail is rarely over 64 KB; more is not read early. */
const EXIF_MAX_BYTES = 256 * 1024;
/** A HEIF's meta box lists its tiles; a 48 MP photo's grid stays well under this. */
const META_MAX_BYTES = 1024 * 1024;
/** Chunks (PNG) or top-level boxes (HEIF) looked at before giving up. */
const PNG_MAX_CHUNKS = 256;
const HEIF_MAX_BOXES = 32;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Reads parts of one open file, never past its end. */
export interface ByteSource {
  size: number;
  read(position: number, bytes: number): Promise<Buffer>;
}

export async function withFile<T>(file: string, use: (source: ByteSource) => Promise<T>): Promise<T> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    return await use({
      size,
      read: async (position, bytes) => {
        const length = Math.max(0, Math.min(bytes, size - position));
        const buffer = Buffer.alloc(length);
        const { bytesRead } = await handle.read(buffer, 0, length, position);
        return buffer.subarray(0, bytesRead);
      },
    });
  } finally {
    await handle.close();
  }
}

/**
 * A PNG's eXIf chunk (the TIFF header and IFDs, no "Exif" prefix): chunk headers are walked to
 * it, the picture data skipped over unread. It usually comes before the image data, but some
 * tools write it after, so the walk goes on to IEND within its bounds.
 */
export async function pngExif(source: ByteSource): Promise<Buffer | null> {
  const signature = await source.read(0, 8);
  if (!signature.equals(PNG_SIGNATURE)) return null;
  let at = 8;
  for (let chunks = 0; chunks < PNG_MAX_CHUNKS && at + 8 <= source.size; chunks += 1) {
    const header = await source.read(at, 8);
    if (header.length < 8) return null;
    const length = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    if (type === 'eXIf') {
      if (length > EXIF_MAX_BYTES || at + 8 + length > source.size) return null;
      return source.read(at + 8, length);
    }
    if (type === 'IEND') return null;
    // Length, type, data, CRC.
    at += 12 + length;
  }
  return null;
}

interface Box {
  type: string;
  /** Where its contents start, after its header, and where it ends. */
  start: number;
  end: number;
}

/** The boxes inside [from, to) of a buffer; stops at the first that does not fit. */
function boxesIn(buffer: Buffer, from: number, to: number): Box[] {
  const boxes: Box[] = [];
  let at = from;
  while (at + 8 <= to && boxes.length < 64) {
    let size = buffer.readUInt32BE(at);
    const type = buffer.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(buffer.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) size = to - at;
    if (size < header || at + size > to) break;
    boxes.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return boxes;
}

/** Reads an unsigned big-endian number of 0, 2, 4 or 8 bytes (ISO BMFF's field sizes). */
function uint(buffer: Buffer, at: number, bytes: number): number {
  if (bytes === 0) return 0;
  if (at + bytes > buffer.length) throw new RangeError('past the box');
  if (bytes === 2) return buffer.readUInt16BE(at);
  if (bytes === 4) return buffer.readUInt32BE(at);
  if (bytes === 8) return Number(buffer.readBigUInt64BE(at));
  throw new RangeError(`no field is ${bytes} bytes`);
}

/** The item id of the `Exif` item in an iinf box (only infe version 2 and 3 name a type). */
function exifItemId(meta: Buffer, iinf: Box): number | null {
  const version = meta[iinf.start]!;
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  for (const infe of boxesIn(meta, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const infeVersion = meta[infe.start]!;
    if (infeVersion < 2) continue;
    const idBytes = infeVersion === 2 ? 2 : 4;
    const id = uint(meta, infe.start + 4, idBytes);
    const typeAt = infe.start + 4 + idBytes + 2;
    if (typeAt + 4 <= infe.end && meta.toString('latin1', typeAt, typeAt + 4) === 'Exif') return id;
  }
  return null;
}

interface Extent {
  offset: number;
  length: number;
}

/** Where an item's bytes are, from the iloc box: in the file (method 0) or in the meta's idat (1). */
function itemExtents(meta: Buffer, iloc: Box, itemId: number): { method: number; extents: Extent[] } | null {
  const version = meta[iloc.start]!;
  if (version > 2) return null;
  let at = iloc.start + 4;
  const sizes = uint(meta, at, 2);
  const offsetSize = sizes >> 12;
  const lengthSize = (sizes >> 8) & 0xf;
  const baseOffsetSize = (sizes >> 4) & 0xf;
  const indexSize = version === 0 ? 0 : sizes & 0xf;
  at += 2;
  const count = uint(meta, at, version < 2 ? 2 : 4);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < count && at < iloc.end; item += 1) {
    const id = uint(meta, at, version < 2 ? 2 : 4);
    at += version < 2 ? 2 : 4;
    let method = 0;
    if (version > 0) {
      method = uint(meta, at, 2) & 0xf;
      at += 2;
    }
    at += 2; // data_reference_index
    const base = uint(meta, at, baseOffsetSize);
    at += baseOffsetSize;
    const extentCount = uint(meta, at, 2);
    at += 2;
    const extents: Extent[] = [];
    for (let e = 0; e < extentCount; e += 1) {
      at += indexSize;
      const offset = uint(meta, at, offsetSize);
      at += offsetSize;
      const length = uint(meta, at, lengthSize);
      at += lengthSize;
      extents.push({ offset: base + offset, length });
    }
    if (id === itemId) return { method, extents };
  }
  return null;
}

/**
 * A HEIF's (HEIC, AVIF) Exif item: the meta box is found among the top-level boxes and read
 * whole (bounded), its iinf names the Exif item, its iloc says where the item's bytes are. The
 * item starts with the offset of the TIFF header inside it (after "Exif\0\0" as a rule).
 */
export async function heifExif(source: ByteSource): Promise<Buffer | null> {
  let at = 0;
  for (let boxes = 0; boxes < HEIF_MAX_BOXES && at + 8 <= source.size; boxes += 1) {
    const header = await source.read(at, 16);
    if (header.length < 8) return null;
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerBytes = 8;
    if (size === 1) {
      if (header.length < 16) return null;
      size = Number(header.readBigUInt64BE(8));
      headerBytes = 16;
    } else if (size === 0) size = source.size - at;
    if (size < headerBytes) return null;
    if (boxes === 0 && type !== 'ftyp') return null;
    if (type === 'meta') {
      if (size > META_MAX_BYTES) return null;
      const meta = await source.read(at, size);
      return exifFromMeta(source, meta, headerBytes);
    }
    at += size;
  }
  return null;
}

async function exifFromMeta(source: ByteSource, meta: Buffer, headerBytes: number): Promise<Buffer | null> {
  // meta is a full box: a version and flags before its children.
  const children = boxesIn(meta, headerBytes + 4, meta.length);
  const iinf = children.find((box) => box.type === 'iinf');
  const iloc = children.find((box) => box.type === 'iloc');
  if (!iinf || !iloc) return null;
  const id = exifItemId(meta, iinf);
  if (id === null) return null;
  const where = itemExtents(meta, iloc, id);
  if (!where || where.extents.length === 0) return null;
  const total = where.extents.reduce((sum, extent) => sum + extent.length, 0);
  if (total < 10 || total > EXIF_MAX_BYTES) return null;
  const parts: Buffer[] = [];
  if (where.method === 0) {
    for (const extent of where.extents) {
      if (extent.offset + extent.length > source.size) return null;
      parts.push(await source.read(extent.offset, extent.length));
    }
  } else if (where.method === 1) {
    const idat = children.find((box) => box.type === 'idat');
    if (!idat) return null;
    for (const extent of where.extents) {
      if (idat.start + extent.offset + extent.length > idat.end) return null;
      parts.push(meta.subarray(idat.start + extent.offset, idat.start + extent.offset + extent.length));
    }
  } else return null;
  const item = Buffer.concat(parts);
  const tiffAt = 4 + item.readUInt32BE(0);
  return tiffAt < item.length ? item.subarray(tiffAt) : null;
}
