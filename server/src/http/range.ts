/** A single byte range, inclusive, as the Range header asks for it. */
export interface ByteRange {
  start: number;
  end: number;
}

export type RangeRequest = { kind: 'none' } | { kind: 'range'; range: ByteRange } | { kind: 'unsatisfiable' };

/**
 * Parses `Range: bytes=...` against a file of `size` bytes (RFC 9110 14.1.2). One range is
 * served; a header that is malformed, names another unit or asks for several ranges is
 * ignored and the whole file is sent, which the RFC allows.
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'none' };
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'none' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'none' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(first);
  if (!Number.isSafeInteger(start)) return { kind: 'unsatisfiable' };
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'none' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'range', range: { start, end } };
}

/**
 * `If-Range`: the range applies only if the client's copy is still the current one, named by
 * a strong ETag or by the exact Last-Modified date.
 */
export function ifRangeAllows(ifRange: string | undefined, etag: string, lastModified: number): boolean {
  if (ifRange === undefined) return true;
  const value = ifRange.trim();
  if (value.startsWith('"') || value.startsWith('W/')) return value === etag;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(lastModified / 1000) * 1000 === date;
}

/** RFC 6266 with an RFC 8187 UTF-8 name and a plain ASCII fallback for old clients. */
export function contentDisposition(kind: 'attachment' | 'inline', filename: string): string {
  const fallback = filename
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
