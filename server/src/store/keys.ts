import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The server's secret keys: signing access tokens, deriving link tokens and unlock grants. */
export interface ServerSecretKeys {
  token: Buffer;
  link: Buffer;
}

const KEYS_FILE = 'keys.json';

/**
 * Keys live in their own file beside the database, readable by the server's user only, so a
 * copy of the database alone (a backup on a USB stick) can neither forge a session nor
 * rebuild a share link from its stored hash.
 */
export function loadOrCreateKeys(dataDir: string): ServerSecretKeys {
  const file = path.join(dataDir, KEYS_FILE);
  try {
    const stored = JSON.parse(fs.readFileSync(file, 'utf8')) as { token?: string; link?: string };
    if (stored.token && stored.link) {
      return { token: Buffer.from(stored.token, 'base64'), link: Buffer.from(stored.link, 'base64') };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read ${file}`, { cause: error });
  }
  const keys = { token: crypto.randomBytes(32), link: crypto.randomBytes(32) };
  const temp = `${file}.${process.pid}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, JSON.stringify({ token: keys.token.toString('base64'), link: keys.link.toString('base64') }));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
  return keys;
}
