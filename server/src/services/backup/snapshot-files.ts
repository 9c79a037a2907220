import { AppError } from '../../app-error.ts';
import type { SnapshotNode as SnapshotNodeDto, SnapshotNodes, SnapshotPeople } from '../../contract/backup-responses.ts';
import {
  ArchiveFileDamaged,
  ArchiveKeyProblem,
  ArchiveUnreachable,
  DATABASE_COPY,
  ManifestUnreadable,
  snapshotFile,
  SnapshotUnproved,
  type BackupArchive,
  type Manifest,
  type ManifestFile,
} from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import type { BackupKeyFile } from '../../store/data-dir/backup-key.ts';
import type { BackupDestinationRow } from '../../store/database/backup.repo.ts';
import type { SnapshotDb, SnapshotDbCache, SnapshotNode } from '../../store/database/snapshot-db.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { withoutSpoofingCharacters } from '../common/readable-names.ts';
import { openDestinationArchive } from './destination-archive.ts';
import { idsAreHearths, trustedRow } from './snapshot-rows.ts';
import type { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';

const DEFAULT_LIMIT = 100;

/** A snapshot opened for reading: its archive, its manifest and its database, held until `release`. */
export interface OpenSnapshot {
  row: BackupDestinationRow;
  archive: BackupArchive;
  manifest: Manifest;
  db: SnapshotDb;
  release: () => void;
}

/**
 * The family's files as they were in a snapshot, for the owner (admins only): whose files there
 * were, and each folder's contents, with what became of each item since. Read from the snapshot's
 * own database, copied out of the backup and proved against its manifest first.
 */
export class SnapshotFilesService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly keyFile: BackupKeyFile,
    private readonly cache: SnapshotDbCache,
    private readonly secrets: BackupSecrets,
  ) {}

  async people(actor: Actor, destinationId: string, snapshotId: string): Promise<SnapshotPeople> {
    requireAdmin(actor);
    const open = await this.open(destinationId, snapshotId);
    try {
      return {
        items: open.db.people().map((p) => ({
          id: p.id,
          name: withoutSpoofingCharacters(p.display_name ?? p.username),
          username: withoutSpoofingCharacters(p.username),
          role: p.role,
          files: p.files,
          bytes: p.bytes,
          exists_now: this.deps.store.users.byId(p.id) !== undefined,
        })),
      };
    } finally {
      open.release();
    }
  }

  /**
   * A folder of the snapshot (`parentId`), or someone's top level (`userId`, the owner's own
   * when neither is given). Paged by an opaque cursor; the snapshot never changes, so a position is a stable cursor.
   */
  async nodes(
    actor: Actor,
    destinationId: string,
    snapshotId: string,
    query: { user_id?: string | undefined; parent_id?: string | undefined; limit?: number | undefined; cursor?: string | undefined },
  ): Promise<SnapshotNodes> {
    requireAdmin(actor);
    const offset = query.cursor === undefined ? 0 : decodeCursor(query.cursor);
    const limit = query.limit ?? DEFAULT_LIMIT;
    const open = await this.open(destinationId, snapshotId);
    try {
      let ownerId = query.user_id ?? actor.userId;
      let parentId: string | null = null;
      let path: SnapshotNode[] = [];
      if (query.parent_id !== undefined && query.parent_id !== 'root') {
        const parent = open.db.node(query.parent_id);
        if (!parent || parent.type !== 'folder')
          throw new AppError('not_found', 'That folder is not in this backup.', { field: 'parent_id' });
        ownerId = parent.owner_id;
        parentId = parent.id;
        path = open.db.pathOf(parent.id);
      }
      const rows = open.db.children(ownerId, parentId, offset, limit + 1);
      const more = rows.length > limit;
      const at = open.manifest.at;
      return {
        // A row whose ids are not Hearth's is not offered: restoring it is refused (restore-item.ts).
        items: rows
          .slice(0, limit)
          .filter(idsAreHearths)
          .map((n) => this.toDto(n, at)),
        next_cursor: more ? encodeCursor(offset + limit) : null,
        path: path.map((n) => this.toDto(n, at)),
        owner_id: ownerId,
      };
    } finally {
      open.release();
    }
  }

  /**
   * The destination, its archive, the snapshot's manifest and database. 404 for an unknown
   * destination or snapshot; a backup that cannot be read says why (503 unreachable, 409 damaged).
   */
  async open(destinationId: string, snapshotId: string): Promise<OpenSnapshot> {
    const row = this.deps.store.backup.byId(destinationId);
    if (!row) throw new AppError('not_found');
    // Snapshot ids are Hearth's own (time and random hex): anything else, "..", never reaches a path.
    if (!/^[A-Za-z0-9-]{1,64}$/.test(snapshotId)) throw new AppError('snapshot_not_found');
    let archive: BackupArchive;
    let manifest: Manifest | null;
    try {
      archive = await openDestinationArchive(row, await this.keyFile.read(), this.secrets);
      manifest = await archive.manifest(snapshotId);
    } catch (error) {
      throw unreadable(error, row);
    }
    if (!manifest) throw new AppError('snapshot_not_found');
    const database = manifest.files.find((f) => f.path === snapshotFile(snapshotId, DATABASE_COPY));
    if (!database) throw new AppError('backup_damaged');
    const { db, release } = await this.cache.lease(`${row.id}/${snapshotId}`, async (file) => {
      try {
        await copyProved(archive, database.path, database, file);
      } catch (error) {
        throw unreadable(error, row);
      }
    });
    return { row, archive, manifest, db, release };
  }

  /** What became of a snapshot's node since, read from the server's database now; its name and dates as snapshot-rows.ts trusts them. */
  private toDto(row: SnapshotNode, snapshotAt: number): SnapshotNodeDto {
    const n = trustedRow(row, snapshotAt);
    return {
      id: n.id,
      type: n.type,
      name: n.name,
      parent_id: n.parent_id,
      owner_id: n.owner_id,
      size: n.size,
      mime_type: n.mime_type,
      created_at: n.created_at,
      updated_at: n.updated_at,
      taken_at: n.taken_at,
      children: n.children,
      since: this.since(n),
    };
  }

  private since(n: SnapshotNode): SnapshotNodeDto['since'] {
    const now = this.deps.store.nodes.byId(n.id, '');
    if (!now || now.in_trash) return 'deleted';
    if (n.type === 'folder') return 'unchanged';
    return sameContent(n, this.deps.store.versions.current(n.id)) ? 'unchanged' : 'changed';
  }
}

/** Whether a version holds the content a snapshot's file had: the same content file, or the same SHA-256. */
export function sameContent(
  n: Pick<SnapshotNode, 'library_id' | 'blob' | 'sha256' | 'size'>,
  version: { library_id: string; blob: string; sha256: string | null; size: number } | undefined,
  manifestSha?: string,
): boolean {
  if (!version) return false;
  if (version.blob === n.blob) return true;
  const then = n.sha256 ?? manifestSha ?? null;
  return then !== null && version.sha256 !== null && version.sha256 === then && version.size === n.size;
}

const indexes = new WeakMap<object, Map<string, ManifestFile>>();

/**
 * A manifest's content files by `library/blob`, made once per manifest read: format 2 says so
 * in each entry (an encrypted backup's names are keyed hashes), format 1 in the path.
 */
export function manifestIndex(open: Pick<OpenSnapshot, 'manifest'>): Map<string, ManifestFile> {
  let index = indexes.get(open.manifest);
  if (!index) {
    index = new Map();
    for (const file of open.manifest.files) {
      const owner = contentOwner(file);
      if (owner) index.set(`${owner.library}/${owner.blob}`, file);
    }
    indexes.set(open.manifest, index);
  }
  return index;
}

/** The library and id of a content file of the manifest; null for the database and keys. */
export function contentOwner(file: ManifestFile): { library: string; blob: string } | null {
  if (file.library !== undefined && file.blob !== undefined) return { library: file.library, blob: file.blob };
  const legacy = /^content\/([\w-]+)\/[\w-]+\/([\w-]+)$/.exec(file.path);
  return legacy ? { library: legacy[1]!, blob: legacy[2]! } : null;
}

/** A file of the archive copied to `target` (decrypted), and proved against its manifest entry on the way. */
export async function copyProved(
  archive: BackupArchive,
  relative: string,
  expected: { size: number; sha256: string; header_mac?: string },
  target: string,
  signal: AbortSignal = new AbortController().signal,
): Promise<void> {
  const { size, sha256 } = await archive.copyOut({ path: relative, size: expected.size, header_mac: expected.header_mac }, target, signal);
  // No SHA-256 where the file's header MAC proved it (BackupArchive.copyOut).
  if (size !== expected.size || (sha256 !== null && sha256 !== expected.sha256))
    throw new ArchiveFileDamaged(new Error(`${relative} does not match its SHA-256`));
}

/** A backup that cannot be read, said as an answer: not there (503), no key, damaged or not this server's (409). */
export function unreadable(error: unknown, row: BackupDestinationRow): unknown {
  if (error instanceof AppError) return error;
  if (error instanceof ArchiveUnsafe) return new AppError('destination_unsafe', error.words);
  if (error instanceof SnapshotUnproved) return new AppError('snapshot_unproved');
  if (error instanceof ArchiveUnreachable || (error as NodeJS.ErrnoException).code === 'ENOENT')
    return new AppError('backup_unreachable', `The backup folder ${row.path} cannot be read. Is its drive connected?`);
  if (error instanceof ArchiveKeyProblem)
    return new AppError(
      'backup_unreachable',
      'This backup is encrypted with a key this server does not have (backup-key.txt in the data folder).',
    );
  if (error instanceof ArchiveFileDamaged || error instanceof ManifestUnreadable) return new AppError('backup_damaged');
  return error;
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // Below: one answer for every cursor that is not ours.
  }
  throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
}
