import fs from 'node:fs';
import path from 'node:path';
import { writeFileDurably } from '../common/durable-file.ts';
import { generateIdentity, identityToRecipient } from './age-keys.ts';

/**
 * The key that encrypts this server's encrypted backups: an age X25519 identity
 * (`AGE-SECRET-KEY-1…`) and its public key (`age1…`). It must stay usable to encrypt, so it
 * cannot be stored hashed: it is kept like keys.json, in its own file in the data folder
 * (`backup-key.txt`, readable by the server's user only, written durably), in age's own
 * identity-file format so that `age -d -i backup-key.txt` (or the emergency kit, the same
 * text) decrypts a backup by hand. It is never copied into a backup: a plain backup would give
 * it away, and an encrypted one cannot be opened without it anyway. A restore from an encrypted
 * backup writes back the key the owner gave.
 */
export const BACKUP_KEY_FILE = 'backup-key.txt';

export interface BackupKey {
  /** `AGE-SECRET-KEY-1…`: decrypts. */
  identity: string;
  /** `age1…`: encrypts; safe to show. */
  recipient: string;
  created_at: number;
}

/** The text of a key file (and of the emergency kit's file): comments age ignores, then the key. */
export function keyFileText(key: BackupKey, heading: readonly string[] = []): string {
  return [
    ...heading.map((line) => `# ${line}`),
    `# created: ${new Date(key.created_at).toISOString()}`,
    `# public key: ${key.recipient}`,
    key.identity,
    '',
  ].join('\n');
}

/** Reads a key from the text of a key file or a kit (the AGE-SECRET-KEY line), or the bare key. Null when there is none. */
export async function parseKey(text: string, createdAt: number): Promise<BackupKey | null> {
  const created = /^# created: (\S+)$/m.exec(text);
  const identity = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .find((line) => /^AGE-SECRET-KEY-1[0-9A-Z]+$/i.test(line));
  if (!identity) return null;
  try {
    const recipient = identityToRecipient(identity.toUpperCase());
    const at = created ? Date.parse(created[1]!) : NaN;
    return { identity: identity.toUpperCase(), recipient, created_at: Number.isFinite(at) ? at : createdAt };
  } catch {
    return null;
  }
}

export class BackupKeyFile {
  private making: Promise<BackupKey> | null = null;

  constructor(private readonly dataDir: string) {}

  get file(): string {
    return path.join(this.dataDir, BACKUP_KEY_FILE);
  }

  /** The key, or null when this server never made one. */
  async read(): Promise<BackupKey | null> {
    let text: string;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const key = await parseKey(text, 0);
    if (!key) throw new Error(`${this.file} holds no backup key`);
    return key;
  }

  /** The key, made once: two callers at the same moment get the same key. */
  getOrCreate(now: number): Promise<BackupKey> {
    this.making ??= (async () => {
      const existing = await this.read();
      if (existing) return existing;
      const identity = generateIdentity();
      const key = { identity, recipient: identityToRecipient(identity), created_at: now };
      this.write(key);
      return key;
    })().finally(() => {
      this.making = null;
    });
    return this.making;
  }

  write(key: BackupKey): void {
    writeFileDurably(this.file, keyFileText(key, ['Hearth backup key. Keep it secret: it decrypts every encrypted backup.']));
  }
}
