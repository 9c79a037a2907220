import crypto from 'node:crypto';
import type { BackupKey } from '../data-dir/backup-key.ts';

/**
 * What a backup derives from the backup key (the emergency kit's `AGE-SECRET-KEY-1…`), so that
 * only its holder can make them: the key that signs each snapshot's manifest, and the key that
 * names content files in an encrypted backup. The public key beside an encrypted backup lets
 * anyone write age files there (age proves nothing about who encrypted), and anyone may write a
 * plain backup's files: the signature is what tells this server's snapshots from planted ones.
 * docs/backup-format.md gives the derivation, so a person can check a manifest by hand.
 */
export interface ArchiveKeys {
  /** HMAC-SHA256 key of the manifests' `mac`. */
  signing: Buffer;
  /** HMAC-SHA256 key of an encrypted backup's content file names. */
  naming: Buffer;
}

export function archiveKeys(key: BackupKey): ArchiveKeys {
  const derive = (use: string) => Buffer.from(crypto.hkdfSync('sha256', key.identity, Buffer.alloc(0), use, 32));
  return { signing: derive('hearth-backup/2 manifest signature'), naming: derive('hearth-backup/2 content names') };
}

/** The manifest as signed: its JSON without `mac`, one field a line as the manifest file is written. */
export function signedText(manifest: object): string {
  const { mac: _mac, ...body } = manifest as { mac?: unknown };
  return JSON.stringify(body, null, 1);
}

export function manifestMac(manifest: object, keys: ArchiveKeys): string {
  return crypto.createHmac('sha256', keys.signing).update(signedText(manifest)).digest('hex');
}

/** Whether `manifest.mac` is the one this key makes; constant time. */
export function macMatches(manifest: { mac?: unknown }, keys: ArchiveKeys): boolean {
  if (typeof manifest.mac !== 'string' || !/^[0-9a-f]{64}$/.test(manifest.mac)) return false;
  return crypto.timingSafeEqual(Buffer.from(manifest.mac, 'hex'), Buffer.from(manifestMac(manifest, keys), 'hex'));
}

/**
 * Where a content file lies in an encrypted backup: a keyed hash of its library and id, so the
 * folder shows neither when it was uploaded (ids are ULIDs, which begin with their time) nor
 * which files belong to one library. Three levels, as plain backups have, so storage walks both alike.
 */
export function hiddenContentPath(libraryId: string, blob: string, keys: ArchiveKeys): string {
  const name = crypto.createHmac('sha256', keys.naming).update(`${libraryId}/${blob}`).digest('hex');
  return `content/${name.slice(0, 2)}/${name.slice(2, 4)}/${name}`;
}
