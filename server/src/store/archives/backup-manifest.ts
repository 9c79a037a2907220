import { macMatches, type ArchiveKeys } from './backup-auth.ts';

/**
 * A snapshot's manifest: what it holds, each file with its size and SHA-256, written last
 * (docs/backup-format.md). Format 2 signs it with a key derived from the emergency kit
 * (backup-auth.ts); format 1, written by releases before that, is read still, but proves nothing.
 */
export const ARCHIVE_FORMAT = 'hearth-backup/2';
/** The same layout, every file but the recipient file encrypted with age, padded, content under keyed names. */
export const ENCRYPTED_FORMAT = 'hearth-backup/2+age';
/** Written before snapshots were signed: plain keys.json, content named by id, exact sizes. */
export const LEGACY_FORMAT = 'hearth-backup/1';
export const LEGACY_ENCRYPTED_FORMAT = 'hearth-backup/1+age';
export const MANIFEST = 'manifest.json';
export const DATABASE_COPY = 'hearth.db';
export const KEYS_COPY = 'keys.json';

export interface ManifestFile {
  /** Relative to the hearth-backup folder, with forward slashes. */
  path: string;
  /** Of the file's content (decrypted and without its padding, in an encrypted archive). */
  size: number;
  sha256: string;
  /** In an encrypted archive: the bytes the encrypted file takes on the destination. */
  stored_size?: number;
  /**
   * In an encrypted archive: the MAC of the file's age header (hex), which proves the file is the
   * one this snapshot wrote once it opens (age-file.ts), so a restore need not hash it. Written
   * since December 2026; older manifests lack it, and their files are hashed.
   */
  header_mac?: string;
  /** A content file's library and id (format 2): where it goes back, whatever its name in the backup. */
  library?: string;
  blob?: string;
}

export interface Manifest {
  format: typeof ARCHIVE_FORMAT | typeof ENCRYPTED_FORMAT | typeof LEGACY_FORMAT | typeof LEGACY_ENCRYPTED_FORMAT;
  snapshot: string;
  at: number;
  server_id: string;
  server_version: string;
  files: ManifestFile[];
  /** Format 2: HMAC-SHA256 of the rest (backup-auth.ts), written last. */
  mac?: string;
}

/**
 * What a manifest proves. `signed`: made with this backup key (format 2, the signature checks).
 * `unsigned`: format 1, from a release before signatures; its rows may be anyone's. `unproved`:
 * format 2 whose signature does not check (planted, changed, made with another kit, or read
 * without the kit), or dated in the future: never used.
 */
export type ManifestTrust = 'signed' | 'unsigned' | 'unproved';

/** How far ahead of this clock a snapshot's time may be (two PCs' clocks, time zones set wrong). */
export const FUTURE_ALLOWANCE_MS = 24 * 60 * 60_000;

/** A manifest that is not one Hearth writes: damaged, or made by hand to mislead. */
export class ManifestUnreadable extends Error {}

/** Ids as Hearth makes them (ULIDs, `internal`, snapshot ids): never `..`, never a separator. */
export const SAFE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Parses and checks a manifest's text (what the archive read and decrypted); throws ManifestUnreadable. */
export function parseManifest(
  text: string,
  expected: { snapshot: string; encrypted: boolean; keys: ArchiveKeys | null; now: number },
): { manifest: Manifest; trust: ManifestTrust } {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch (error) {
    throw new ManifestUnreadable(`snapshot ${expected.snapshot}: the manifest is not JSON`, { cause: error });
  }
  const current = expected.encrypted ? ENCRYPTED_FORMAT : ARCHIVE_FORMAT;
  const legacy = expected.encrypted ? LEGACY_ENCRYPTED_FORMAT : LEGACY_FORMAT;
  const fail = (why: string): never => {
    throw new ManifestUnreadable(`snapshot ${expected.snapshot}: ${why}`);
  };
  if (typeof manifest !== 'object' || manifest === null) fail('not a manifest');
  if (manifest.format !== current && manifest.format !== legacy) fail(`not a ${current} manifest`);
  if (manifest.snapshot !== expected.snapshot) fail('the manifest is of another snapshot');
  if (!Number.isSafeInteger(manifest.at) || !Array.isArray(manifest.files)) fail('not a manifest');
  for (const file of manifest.files)
    if (!wellFormed(file, expected.snapshot)) fail(`a file it lists is not Hearth's: ${JSON.stringify(file)}`);
  let trust: ManifestTrust =
    manifest.format === legacy ? 'unsigned' : expected.keys && macMatches(manifest, expected.keys) ? 'signed' : 'unproved';
  if (manifest.at > expected.now + FUTURE_ALLOWANCE_MS) trust = 'unproved';
  return { manifest, trust };
}

/** A file entry as Hearth writes it: a path it makes (no `..`, no other folder), a size, a SHA-256. */
function wellFormed(file: ManifestFile, snapshot: string): boolean {
  if (typeof file !== 'object' || file === null || typeof file.path !== 'string') return false;
  if (!Number.isSafeInteger(file.size) || file.size < 0 || typeof file.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(file.sha256))
    return false;
  if (file.stored_size !== undefined && (!Number.isSafeInteger(file.stored_size) || file.stored_size < 0)) return false;
  if (file.header_mac !== undefined && (typeof file.header_mac !== 'string' || !/^[0-9a-f]{64}$/.test(file.header_mac))) return false;
  if (file.library !== undefined && (typeof file.library !== 'string' || !SAFE_ID.test(file.library))) return false;
  if (file.blob !== undefined && (typeof file.blob !== 'string' || !SAFE_ID.test(file.blob))) return false;
  if (file.path === `snapshots/${snapshot}/${DATABASE_COPY}` || file.path === `snapshots/${snapshot}/${KEYS_COPY}`) return true;
  const parts = file.path.split('/');
  return parts.length === 4 && parts[0] === 'content' && parts.slice(1).every((part) => SAFE_ID.test(part));
}
