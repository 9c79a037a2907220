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
 *
 * The token key is never in a backup (keysForBackup): a restored server makes a new one here.
 * `beforeNewTokenKey` runs first, and ends every session the database holds: their access
 * tokens die with the old key, and their refresh tokens are the snapshot's, some of them used
 * or revoked since (a phone signed out because it was lost must not be signed in again by a
 * restore). Ending them before the key is written means a crash in between ends them again.
 */
export function loadOrCreateKeys(dataDir: string, beforeNewTokenKey: () => void = () => {}): ServerSecretKeys {
  const file = path.join(dataDir, KEYS_FILE);
  const stored = readKeysFile(file) as Partial<Record<(typeof KEY_NAMES)[number], string>>;
  const missing = KEY_NAMES.filter((name) => !stored[name]);
  if (missing.length === 0) return decode(stored as Record<(typeof KEY_NAMES)[number], string>);
  if (missing.includes('token')) beforeNewTokenKey();
  const complete = { ...stored };
  for (const name of missing) complete[name] = crypto.randomBytes(32).toString('base64');
  writeAtomically(file, JSON.stringify(complete));
  return decode(complete as Record<(typeof KEY_NAMES)[number], string>);
}

/**
 * The keys a backup carries: the link and TOTP keys and the authority, without the token key (a
 * restore makes a new one). Read off the event loop: a backup runs while the family is served.
 */
export async function keysForBackup(dataDir: string): Promise<string> {
  const file = path.join(dataDir, KEYS_FILE);
  const text = await fs.promises.readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '{}';
    throw new Error(`cannot read ${file}`, { cause: error });
  });
  const { token: _token, ...kept } = JSON.parse(text) as Record<string, unknown>;
  return JSON.stringify(kept);
}

/**
 * keys.json as a backup gave it, to be written into a restored data folder: only what Hearth
 * puts there, each in its shape, and never a token key (an older backup's, which anyone who
 * held the backup could have signed tokens with). Throws on anything else.
 */
export function restoredKeys(text: string): string {
  const parsed = JSON.parse(text) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const name of ['link', 'totp'] as const) {
    const value = parsed[name];
    if (typeof value !== 'string' || Buffer.from(value, 'base64').length !== 32) throw new Error(`keys.json: no ${name} key`);
    out[name] = value;
  }
  const authority = parsed.authority as Partial<StoredAuthority> | undefined;
  if (authority !== undefined) {
    if (
      !/^-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(authority.keyPem ?? '') ||
      !/^-----BEGIN CERTIFICATE-----/.test(authority.certPem ?? '')
    )
      throw new Error('keys.json: the authority is not a key and a certificate');
    // When a phone first took it: without it a restored server would think no phone trusts its authority, and make another.
    const handedOutAt =
      typeof authority.handedOutAt === 'string' && !Number.isNaN(Date.parse(authority.handedOutAt)) ? authority.handedOutAt : null;
    out.authority = { keyPem: authority.keyPem, certPem: authority.certPem, handedOutAt };
  }
  return JSON.stringify(out);
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
