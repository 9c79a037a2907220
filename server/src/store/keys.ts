import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The server's secret keys: signing access tokens, deriving link tokens and unlock grants,
 * and sealing the TOTP secrets kept in the database.
 */
export interface ServerSecretKeys {
  token: Buffer;
  link: Buffer;
  totp: Buffer;
}

const KEYS_FILE = 'keys.json';
const KEY_NAMES = ['token', 'link', 'totp'] as const;

/**
 * Keys live in their own file beside the database, readable by the server's user only, so a
 * copy of the database alone (a backup on a USB stick) can neither forge a session, nor
 * rebuild a share link from its stored hash, nor read a TOTP secret. A key missing from an
 * older file is added to it; the keys already there are never changed.
 */
export function loadOrCreateKeys(dataDir: string): ServerSecretKeys {
  const file = path.join(dataDir, KEYS_FILE);
  let stored: Partial<Record<(typeof KEY_NAMES)[number], string>> = {};
  try {
    stored = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${file}`, { cause: error });
  }
  const missing = KEY_NAMES.filter((name) => !stored[name]);
  if (missing.length === 0) return decode(stored as Record<(typeof KEY_NAMES)[number], string>);
  const complete = { ...stored };
  for (const name of missing) complete[name] = crypto.randomBytes(32).toString('base64');
  writeAtomically(file, JSON.stringify(complete));
  return decode(complete as Record<(typeof KEY_NAMES)[number], string>);
}

/** Hearth's certificate authority, kept in keys.json beside the other keys: backed up and restored with them, so phones that trust it go on trusting a restored server. */
export interface StoredAuthority {
  keyPem: string;
  certPem: string;
  /**
   * When a phone first downloaded it (ISO time), or null: from then on phones may trust it, so
   * it is kept (made again only when the owner asks). Written before the download is answered.
   */
  handedOutAt: string | null;
}

export function loadAuthority(dataDir: string): StoredAuthority | null {
  const stored = readKeysFile(path.join(dataDir, KEYS_FILE));
  const authority = stored.authority as Partial<StoredAuthority> | undefined;
  if (!authority || typeof authority.keyPem !== 'string' || typeof authority.certPem !== 'string') return null;
  const handedOutAt = typeof authority.handedOutAt === 'string' ? authority.handedOutAt : null;
  return { keyPem: authority.keyPem, certPem: authority.certPem, handedOutAt };
}

/** Puts the authority in keys.json (one atomic, durable write), keeping every key already there. */
export function saveAuthority(dataDir: string, authority: StoredAuthority): void {
  const file = path.join(dataDir, KEYS_FILE);
  writeAtomically(file, JSON.stringify({ ...readKeysFile(file), authority }));
}

function readKeysFile(file: string): Record<string, unknown> {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}`, { cause: error });
  }
}

function decode(stored: Record<(typeof KEY_NAMES)[number], string>): ServerSecretKeys {
  return {
    token: Buffer.from(stored.token, 'base64'),
    link: Buffer.from(stored.link, 'base64'),
    totp: Buffer.from(stored.totp, 'base64'),
  };
}

export function writeAtomically(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  // The rename is durable only once the directory entry is.
  const dir = fs.openSync(path.dirname(file), 'r');
  try {
    fs.fsyncSync(dir);
  } finally {
    fs.closeSync(dir);
  }
}
