import { Readable } from 'node:stream';
import { AppError } from '../../app-error.ts';
import type { BackupRun } from '../../contract/backup-responses.ts';
import type { Node } from '../../contract/files-responses.ts';
import { ArchiveFileDamaged, type ManifestFile } from '../../store/archives/backup-archive.ts';
import { ArchiveUnsafe } from '../../store/archives/archive-storage.ts';
import type { BlobStore } from '../../store/content/blobs.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { SnapshotNode } from '../../store/database/snapshot-db.ts';
import type { AccessService } from '../files/access.ts';
import type { ActivityService } from '../files/activity.ts';
import type { FileService } from '../files/files.ts';
import { decideMimeType } from '../files/media-types.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { nameKey } from '../files/node-names.ts';
import { containerOf, nameColumns, type NodeService } from '../files/nodes.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import type { StorageHealth } from '../storage/storage-health.ts';
import type { BackupService } from './backups.ts';
import type { RunCounts } from './backup-run.ts';
import { manifestIndex, sameContent, type OpenSnapshot, type SnapshotFilesService } from './snapshot-files.ts';
import { besideName, familyPaths, restorableItems, restoredName } from './snapshot-rows.ts';

/**
 * `beside`: a copy next to the current one, named "Holiday (restored 3 May 2026)"; the current
 * one is not touched. `replace`: back in its place; what is there now is never lost (a changed
 * file keeps its current content as an older version, files added since stay).
 */
export type RestoreMode = 'beside' | 'replace';

type Restored = NonNullable<BackupRun['restored']>;

/** A file of the backup whose content is missing or does not match its SHA-256: named by its place in the family's files. */
class DamagedInBackup extends Error {
  constructor(readonly where: string) {
    super(`damaged in the backup: ${where}`);
  }
}

interface Staged {
  temp: string;
  blob: string | null;
  entry: ManifestFile;
  /** The file's first bytes: its type is sniffed again, as an upload's is, whatever the snapshot says. */
  head: Buffer;
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

  /** One file out of the backup into a temp file of the library, proved against its manifest entry. */
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
    await blobs.createTemp(temp);
    let source: AsyncIterable<Buffer>;
    try {
      source = await open.archive.read(entry, signal);
    } catch (error) {
      // A link or a pipe where the file should be is said as such, not as a damaged file.
      if (signal.aborted || error instanceof ArchiveUnsafe) throw error;
      throw new DamagedInBackup(where);
    }
    const result = await blobs.writeTemp(temp, 0, Readable.from(source), {
      limit: null,
      digest: 'sha256',
      onProgress: () => onProgress(),
    });
    if (result.error) {
      if (signal.aborted) throw result.error;
      const fault = this.storage.noteFailure(result.error, blobs.root);
      if (fault) throw this.storage.refusal(fault);
      // The backup's file: missing, cut, or (encrypted) no longer decrypting.
      throw new DamagedInBackup(where);
    }
    if (result.written !== entry.size || result.digest!.toString('hex') !== entry.sha256) throw new DamagedInBackup(where);
    counts.files += 1;
    counts.bytes += entry.size;
    counts.bytes_copied += entry.size;
    onProgress();
  }

  /**
   * The restored tree, in one transaction. `replace` matches each item to what is there now: the
   * same node if it is still in the same folder, else an item of the same name and kind there;
   * a matched file whose content differs gets the backed-up content as a new version (the
   * current one stays as an older version), and anything missing is made again. A top item
   * whose folder is gone lands in its owner's top level.
   */
  private place(
    actor: Actor,
    open: OpenSnapshot,
    top: SnapshotNode,
    items: SnapshotNode[],
    mode: RestoreMode,
    staged: Map<string, Staged>,
    libraryId: string,
  ) {
    const { store } = this.deps;
    const ownerId = top.owner_id;
    const folders: Node[] = [];
    const files: Node[] = [];
    const used = new Set<string>();
    let restoredFiles = 0;
    let unchanged = 0;
    /** Snapshot folder id → the folder its children go into now, and whether it was made by this restore. */
    const into = new Map<string, { id: string; made: boolean }>();
    const liveFolder = (id: string | null) => {
      const node = id === null ? undefined : this.live(id, actor.userId);
      return node && node.type === 'folder' && node.owner_id === ownerId ? node : undefined;
    };

    const make = (item: SnapshotNode, parentId: string | null, name: string): string => {
      if (item.type === 'folder') {
        const id = newId();
        const free = this.nodes.freeName(containerOf(ownerId, parentId), name, false);
        store.nodes.insert({
          id,
          owner_id: ownerId,
          parent_id: parentId,
          type: 'folder',
          ...nameColumns(free),
          size: 0,
          mime_type: null,
          version: 0,
          created_by: actor.userId,
          created_at: this.deps.now(),
          is_media: 0,
        });
        this.activity.record(ownerId, actor.userId, 'folder.created', id, { name: free, restored_from: open.manifest.snapshot });
        folders.push(toNodeDto(store.nodes.byId(id, actor.userId)!));
        into.set(item.id, { id, made: true });
        return id;
      }
      const one = staged.get(item.id)!;
      used.add(one.blob!);
      restoredFiles++;
      const dto = this.files.recordContent({
        uploaderId: actor.userId,
        ownerId,
        parentId,
        nodeId: null,
        filename: name,
        mimeType: decideMimeType(one.head, name, item.mime_type),
        size: one.entry.size,
        libraryId,
        blob: one.blob!,
        sha256: one.entry.sha256,
      });
      files.push(dto);
      return dto.id;
    };

    const match = (item: SnapshotNode, now: NodeRow): string => {
      if (item.type === 'folder') {
        into.set(item.id, { id: now.id, made: false });
        return now.id;
      }
      const one = staged.get(item.id);
      if (!one || sameContent(item, store.versions.current(now.id), one.entry.sha256)) {
        // Already as in the backup (or, proved so when the restore began, changed since by someone: the newer change stays).
        unchanged++;
        return now.id;
      }
      used.add(one.blob!);
      restoredFiles++;
      files.push(
        this.files.recordContent({
          uploaderId: actor.userId,
          ownerId,
          parentId: now.parent_id,
          nodeId: now.id,
          filename: now.name,
          mimeType: decideMimeType(one.head, now.name, item.mime_type),
          size: one.entry.size,
          libraryId,
          blob: one.blob!,
          sha256: one.entry.sha256,
        }),
      );
      return now.id;
    };

    const sameNameIn = (item: SnapshotNode, parentId: string | null) => {
      const id = store.nodes.activeSiblingId(containerOf(ownerId, parentId), nameKey(item.name));
      const node = id === undefined ? undefined : this.live(id, actor.userId);
      return node && node.type === item.type ? node : undefined;
    };

    let topId: string;
    const current = this.live(top.id, actor.userId);
    if (mode === 'beside') {
      const parentId = current ? current.parent_id : (liveFolder(top.parent_id)?.id ?? null);
      topId = make(top, parentId, besideName(top.name, top.type === 'file', open.manifest.at));
    } else if (current && current.type === top.type && current.owner_id === ownerId) {
      topId = match(top, current);
    } else {
      const parentId = liveFolder(top.parent_id)?.id ?? null;
      const named = sameNameIn(top, parentId);
      topId = named ? match(top, named) : make(top, parentId, top.name);
    }

    for (const item of items) {
      if (item.id === top.id) continue;
      const parent = into.get(item.parent_id!)!;
      if (parent.made) {
        make(item, parent.id, item.name);
        continue;
      }
      const now = this.live(item.id, actor.userId);
      if (now && now.parent_id === parent.id && now.type === item.type) match(item, now);
      else {
        const named = sameNameIn(item, parent.id);
        if (named) match(item, named);
        else make(item, parent.id, item.name);
      }
    }
    for (const blob of used) store.garbage.forget(libraryId, blob);
    const path = store.nodes
      .pathOf(topId, actor.userId)
      .map((n) => n.name)
      .join('/');
    return {
      folders,
      files,
      used,
      restored: { node_id: topId, owner_id: ownerId, path, files: restoredFiles, unchanged, folders: folders.length } satisfies Restored,
    };
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
    const node = this.deps.store.nodes.byId(id, viewerId);
    return node && !node.in_trash ? node : undefined;
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
