import { AppError } from '../../app-error.ts';
import type { BackupRun } from '../../contract/backup-responses.ts';
import { ArchiveFileDamaged, type ManifestFile } from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import type { BlobStore } from '../../store/content/blobs.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { SnapshotNode } from '../../store/database/snapshot-db.ts';
import type { AccessService } from '../files/access.ts';
import type { ActivityService } from '../files/activity.ts';
import type { FileService } from '../files/files.ts';
import type { NodeService } from '../files/nodes.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { BackupService } from './backups.ts';
import type { RunCounts } from './backup-run.ts';
import { manifestIndex, sameContent, type OpenSnapshot, type SnapshotFilesService } from './snapshot-files.ts';
import { familyPaths, restorableItems, restoredName } from './snapshot-rows.ts';
import { liveNode, RestorePlacement, type Placed, type Restored, type RestoreMode, type Staged } from './restore-placement.ts';

/** A file of the backup whose content is missing or does not match its SHA-256: named by its place in the family's files. */
class DamagedInBackup extends Error {
  constructor(readonly where: string) {
    super(`damaged in the backup: ${where}`);
  }
}

/**
 * One file or folder back from a snapshot, into its owner's files (whoever's they are: the owner
 * of the server restores for the family). Every file is copied out of the backup into the
 * default library's temp folder and proved against the manifest's SHA-256 first; only when all
 * are there do they become nodes, in one transaction, so nothing half-restored is ever listed.
 * They are then announced as uploads are (the family sees them appear, thumbnails follow).
 */
export class ItemRestoreService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly snapshots: SnapshotFilesService,
    private readonly backup: BackupService,
    private readonly files: FileService,
    private readonly nodes: NodeService,
    private readonly access: AccessService,
    private readonly activity: ActivityService,
    private readonly content: ContentStores,
    private readonly storage: StorageHealth,
  ) {}

  async start(actor: Actor, destinationId: string, snapshotId: string, input: { node_id: string; mode: RestoreMode }): Promise<BackupRun> {
    requireAdmin(actor);
    if (this.backup.busy) throw new AppError('backup_running');
    const open = await this.snapshots.open(destinationId, snapshotId);
    let started = false;
    try {
      const found = open.db.node(input.node_id);
      if (!found) throw new AppError('not_found', 'That file or folder is not in this backup.', { field: 'node_id' });
      const items = restorableItems(open.db, found.id);
      const top = items[0]!;
      if (!this.deps.store.users.byId(top.owner_id))
        throw new AppError('not_found', 'The person these files belonged to no longer has an account here.', { field: 'node_id' });
      const bytes = this.toCopy(items, open, input.mode).reduce((sum, f) => sum + f.size, 0);
      // Said now rather than after a long copy: as an upload that cannot fit is refused at once.
      this.files.assertQuota(top.owner_id, bytes, this.deps.store.uploads.pendingBytes(top.owner_id));
      this.storage.assertWritable(this.content.defaultLibrary().blobs.root, bytes);
      const run = this.backup.startRestore(open.row, snapshotId, (counts, signal, onProgress) =>
        this.execute(actor, open, top, items, input.mode, counts, signal, onProgress).finally(open.release),
      );
      started = true;
      return run;
    } finally {
      if (!started) open.release();
    }
  }

  /** The files whose content must come from the backup: all, but in `replace` those still there unchanged (same node, same content). */
  private toCopy(items: SnapshotNode[], open: OpenSnapshot, mode: RestoreMode): SnapshotNode[] {
    return items.filter((n) => {
      if (n.type !== 'file') return false;
      if (mode === 'beside') return true;
      const now = this.live(n.id, '');
      return !(now && now.type === 'file' && sameContent(n, this.deps.store.versions.current(n.id), this.entryOf(open, n)?.sha256));
    });
  }

  private async execute(
    actor: Actor,
    open: OpenSnapshot,
    top: SnapshotNode,
    items: SnapshotNode[],
    mode: RestoreMode,
    counts: RunCounts,
    signal: AbortSignal,
    onProgress: () => void,
  ): Promise<Restored> {
    const { library, blobs } = this.content.defaultLibrary();
    const toCopy = this.toCopy(items, open, mode);
    const ownerId = top.owner_id;
    const release = this.files.reserveQuota(
      ownerId,
      toCopy.reduce((sum, f) => sum + f.size, 0),
      this.deps.store.uploads.pendingBytes(ownerId),
    );
    const staged = new Map<string, Staged>();
    let committed = false;
    try {
      const paths = familyPaths(
        items,
        open.db.pathOf(top.id).map((n) => ({ ...n, name: restoredName(n.name) })),
      );
      for (const file of toCopy) {
        signal.throwIfAborted();
        const entry = this.entryOf(open, file);
        if (!entry) throw new DamagedInBackup(paths.get(file.id)!);
        const temp = `${newId()}.restore`;
        const one: Staged = { temp, blob: null, entry, head: Buffer.alloc(0) };
        staged.set(file.id, one);
        await this.copyIn(open, blobs, temp, entry, paths.get(file.id)!, counts, signal, onProgress);
        one.head = await blobs.headOfTemp(temp);
      }
      // Every file is whole and proved: now into place, each recorded as unfinished first, so
      // that a crash before the nodes exist leaves files the start-up clean-up knows to take.
      for (const one of staged.values()) {
        signal.throwIfAborted();
        const blob = newId();
        this.deps.store.garbage.add(library.id, blob, 'unfinished', this.deps.now());
        one.blob = blob;
        await blobs.commitTemp(one.temp, blob);
      }
      signal.throwIfAborted();
      const outcome = this.deps.store.transaction(() => this.place(actor, open, top, items, mode, staged, library.id));
      committed = true;
      release();
      for (const dto of outcome.folders) this.deps.bus.publish('node.created', { node: dto }, this.access.audienceOf(dto));
      for (const dto of outcome.files) this.files.announce(dto, { quota: false });
      this.nodes.publishQuota(ownerId);
      await this.removeUnused(blobs, library.id, staged, outcome.used);
      return outcome.restored;
    } catch (error) {
      if (!committed) await this.removeUnused(blobs, library.id, staged, new Set());
      throw inWords(error);
    } finally {
      release();
    }
  }

  /**
   * One file out of the backup into a temp file of the library, proved against its manifest
   * entry: on a copying thread where the backup is a folder, as a whole-server restore copies
   * (its age header MAC, which the signed manifest records, proves an encrypted file without
   * hashing it again), on the event loop from a bucket. Not made durable here: commitTemp
   * fsyncs it before it becomes a content file.
   */
  private async copyIn(
    open: OpenSnapshot,
    blobs: BlobStore,
    temp: string,
    entry: ManifestFile,
    where: string,
    counts: RunCounts,
    signal: AbortSignal,
    onProgress: () => void,
  ): Promise<void> {
    let copied: { size: number; sha256: string | null };
    try {
      copied = await open.archive.copyOut(entry, blobs.tempPathOf(temp), signal, { onBytes: () => onProgress() });
    } catch (error) {
      // A link or a pipe where the file should be is said as such, not as a damaged file.
      if (signal.aborted || error instanceof ArchiveUnsafe) throw error;
      const fault = this.storage.noteFailure(error as Error, blobs.root);
      if (fault) throw this.storage.refusal(fault);
      // The backup's file: missing, cut, or (encrypted) no longer decrypting.
      throw new DamagedInBackup(where);
    }
    if (copied.size !== entry.size || (copied.sha256 !== null && copied.sha256 !== entry.sha256)) throw new DamagedInBackup(where);
    counts.files += 1;
    counts.bytes += entry.size;
    counts.bytes_copied += entry.size;
    onProgress();
  }

  private place(
    actor: Actor,
    open: OpenSnapshot,
    top: SnapshotNode,
    items: SnapshotNode[],
    mode: RestoreMode,
    staged: Map<string, Staged>,
    libraryId: string,
  ): Placed {
    const services = { files: this.files, nodes: this.nodes, activity: this.activity };
    return new RestorePlacement(this.deps, services, actor, open, staged, libraryId, top).place(items, mode);
  }

  /** Content copied but not used (a restore that failed, or files that turned out unchanged): removed, and its garbage row with it. */
  private async removeUnused(blobs: BlobStore, libraryId: string, staged: Map<string, Staged>, used: Set<string>): Promise<void> {
    for (const one of staged.values()) {
      await blobs.removeTemp(one.temp).catch(() => {});
      if (one.blob === null || used.has(one.blob)) continue;
      try {
        await blobs.remove(one.blob);
        this.deps.store.garbage.forget(libraryId, one.blob);
      } catch (error) {
        // Its garbage row stays: the start-up clean-up takes the file.
        this.deps.log.warn('restored content not removed yet', { blob: one.blob, error: String(error) });
      }
    }
  }

  private entryOf(open: OpenSnapshot, file: SnapshotNode): ManifestFile | undefined {
    if (file.library_id === null || file.blob === null) return undefined;
    return manifestIndex(open).get(`${file.library_id}/${file.blob}`);
  }

  /** A node of the server now, not in the trash. */
  private live(id: string, viewerId: string): NodeRow | undefined {
    return liveNode(this.deps.store, id, viewerId);
  }
}

/** A failure as the owner reads it under the restore: what went wrong, and that nothing changed. */
function inWords(error: unknown): unknown {
  if (error instanceof DamagedInBackup)
    return new AppError(
      'backup_damaged',
      `"${error.where}" is damaged in this backup: it does not match what was recorded. Nothing was restored; try an older date.`,
    );
  if (error instanceof ArchiveFileDamaged)
    return new AppError(
      'backup_damaged',
      'A file of this backup does not decrypt: it is damaged. Nothing was restored; try an older date.',
    );
  if (error instanceof AppError && (error.code === 'quota_exceeded' || error.code === 'storage_full'))
    return new AppError(error.code, `${error.message} Nothing was restored.`);
  return error;
}
