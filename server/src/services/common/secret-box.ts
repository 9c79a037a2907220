import crypto from 'node:crypto';

const SEALED = 'aesgcm1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Secrets the server must read back (TOTP seeds), sealed with AES-256-GCM under a key from
 * keys.json: a copy of the database alone opens nothing. Each value is bound to what it
 * belongs to (`context`, e.g. the account id), so a sealed value copied onto another row
 * does not open there either.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a SecretBox key is 32 bytes');
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED);
  }

  seal(plain: string, context: string): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return SEALED + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
  }

  /** The plain value, or null when it was not sealed by this key for this context. */
  open(stored: string, context: string): string | null {
    if (!SecretBox.isSealed(stored)) return null;
    const raw = Buffer.from(stored.slice(SEALED.length), 'base64url');
    if (raw.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV_BYTES));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }
}
