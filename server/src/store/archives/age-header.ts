import crypto from 'node:crypto';

/**
 * An age v1 file's header (https://age-encryption.org/v1): the version line, one stanza per
 * recipient (`-> type args…`, then the body in base64 without padding, 64 columns a line, its
 * last line shorter), and `--- ` with the header's MAC. Read as hostile input: anything that
 * is not exactly this is refused.
 */
export const VERSION_LINE = 'age-encryption.org/v1';

export interface Stanza {
  args: string[];
  body: Buffer;
}

export interface Header {
  stanzas: Stanza[];
  /** The header up to and including `---`: what the MAC covers. */
  macked: Buffer;
  mac: Buffer;
}

/** No header Hearth or `age` writes comes near this; a longer one is no age file worth reading. */
const MAX_HEADER = 64 * 1024;
const COLUMNS = 64;

export function hkdf(ikm: Buffer, salt: Buffer, info: string, length = 32): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', ikm, salt, info, length));
}

export function base64(bytes: Buffer): string {
  return bytes.toString('base64').replace(/=+$/, '');
}

/** The header's bytes, MAC line and its newline included. */
export function encodeHeader(stanzas: readonly Stanza[], fileKey: Buffer): Buffer {
  const lines = [VERSION_LINE];
  for (const stanza of stanzas) {
    lines.push(`-> ${stanza.args.join(' ')}`);
    const body = base64(stanza.body);
    for (let at = 0; at <= body.length; at += COLUMNS) lines.push(body.slice(at, at + COLUMNS));
  }
  const macked = Buffer.from(`${lines.join('\n')}\n---`, 'latin1');
  return Buffer.concat([macked, Buffer.from(` ${base64(headerMac(macked, fileKey))}\n`, 'latin1')]);
}

export function headerMac(macked: Buffer, fileKey: Buffer): Buffer {
  return crypto
    .createHmac('sha256', hkdf(fileKey, Buffer.alloc(0), 'header'))
    .update(macked)
    .digest();
}

/** Whether the MAC proves the header was written with this file key (in constant time). */
export function macHolds(header: Header, fileKey: Buffer): boolean {
  return header.mac.length === 32 && crypto.timingSafeEqual(headerMac(header.macked, fileKey), header.mac);
}

/**
 * The length of the header at the front of `bytes` (up to the MAC line's newline), or null while
 * more bytes are needed. Throws when no well-formed header can be there.
 */
export function headerLength(bytes: Buffer): number | null {
  const footer = bytes.indexOf('\n--- ');
  const end = footer < 0 ? -1 : bytes.indexOf('\n', footer + 1);
  if (end >= 0) return end + 1;
  if (bytes.length > MAX_HEADER) throw new Error('no age header');
  return null;
}

/** A complete header (ending with the MAC line's newline), parsed strictly. */
export function parseHeader(bytes: Buffer): Header {
  const lines = bytes.toString('latin1').split('\n');
  if (lines.pop() !== '' || lines[0] !== VERSION_LINE) throw new Error('not an age v1 header');
  const stanzas: Stanza[] = [];
  let at = 1;
  while (at < lines.length && lines[at]!.startsWith('-> ')) {
    const args = lines[at]!.slice(3).split(' ');
    if (args.some((arg) => !/^[\x21-\x7e]+$/.test(arg))) throw new Error('bad stanza arguments');
    at++;
    const body: Buffer[] = [];
    for (;;) {
      const line = lines[at++];
      if (line === undefined) throw new Error('stanza without its body');
      body.push(decodeBase64(line, COLUMNS));
      if (line.length < COLUMNS) break;
    }
    stanzas.push({ args, body: Buffer.concat(body) });
  }
  const footer = lines[at];
  if (at !== lines.length - 1 || footer === undefined || !footer.startsWith('--- ')) throw new Error('bad age header');
  const mac = decodeBase64(footer.slice(4), 43);
  if (mac.length !== 32) throw new Error('bad header MAC');
  return { stanzas, macked: bytes.subarray(0, bytes.length - footer.length - 1 + 3), mac };
}

/** Base64 without padding, canonical only (Node's own decoder would take anything). */
export function decodeBase64(text: string, maxLength: number): Buffer {
  if (text.length > maxLength || !/^[A-Za-z0-9+/]*$/.test(text) || text.length % 4 === 1) throw new Error('bad base64');
  const bytes = Buffer.from(text, 'base64');
  if (base64(bytes) !== text) throw new Error('non-canonical base64');
  return bytes;
}
