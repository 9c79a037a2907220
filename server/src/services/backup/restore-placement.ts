import type { BackupRun } from '../../contract/backup-responses.ts';
import type { Node } from '../../contract/files-responses.ts';
import type { ManifestFile } from '../../store/archives/backup-archive.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { SnapshotNode } from '../../store/database/snapshot-db.ts';
import type { ActivityService } from '../files/activity.ts';
import type { FileService } from '../files/files.ts';
import { decideMimeType } from '../files/media-types.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { nameKey } from '../files/node-names.ts';
import { containerOf, nameColumns, type NodeService } from '../files/nodes.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { sameContent, type OpenSnapshot } from './snapshot-files.ts';
import { besideName } from './snapshot-rows.ts';

/**
 * `beside`: a copy next to the current one, named "Holiday (restored 3 May 2026)"; the current
 * one is not touched. `replace`: back in its place; what is there now is never lost (a changed
 * file keeps its current content as an older version, files added since stay).
 */
export type RestoreMode = 'beside' | 'replace';

export type Restored = NonNullable<BackupRun['restored']>;

export interface Staged {
  temp: string;
  blob: string | null;
  entry: ManifestFile;
  /** The file's first bytes: its type is sniffed again, as an upload's is, whatever the snapshot says. */
  head: Buffer;
}

/** What a restore placed: the nodes to announce, the content files it used, and the run's summary. */
export interface Placed {
  folders: Node[];
  files: Node[];
  used: Set<string>;
  restored: Restored;
}

/** A node of the server now, not in the trash. */
export function liveNode(store: ServiceDeps['store'], id: string, viewerId: string): NodeRow | undefined {
  const node = store.nodes.byId(id, viewerId);
  return node && !node.in_trash ? node : undefined;
}

/**
 * The restored tree, in one transaction (the caller's). `replace` matches each item to what is
 * there now: the same node if it is still in the same folder, else an item of the same name and
 * kind there; a matched file whose content differs gets the backed-up content as a new version
 * (the current one stays as an older version), and anything missing is made again. A top item
 * whose folder is gone lands in its owner's top level.
 */
export class RestorePlacement {
  private readonly folders: Node[] = [];
  private readonly files: Node[] = [];
  private readonly used = new Set<string>();
  private restoredFiles = 0;
  private unchanged = 0;
  /** Snapshot folder id → the folder its children go into now, and whether it was made by this restore. */
  private readonly into = new Map<string, { id: string; made: boolean }>();
  private readonly ownerId: string;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly services: { files: FileService; nodes: NodeService; activity: ActivityService },
    private readonly actor: Actor,
    private readonly open: OpenSnapshot,
    private readonly staged: Map<string, Staged>,
    private readonly libraryId: string,
    private readonly top: SnapshotNode,
  ) {
    this.ownerId = top.owner_id;
  }

  place(items: SnapshotNode[], mode: RestoreMode): Placed {
    const { store } = this.deps;
    const top = this.top;
    const topId = this.placeTop(mode);
    for (const item of items) {
      if (item.id === top.id) continue;
      const parent = this.into.get(item.parent_id!)!;
      if (parent.made) {
        this.make(item, parent.id, item.name);
        continue;
      }
      const now = this.live(item.id);
      if (now && now.parent_id === parent.id && now.type === item.type) this.match(item, now);
      else {
        const named = this.sameNameIn(item, parent.id);
        if (named) this.match(item, named);
        else this.make(item, parent.id, item.name);
      }
    }
    for (const blob of this.used) store.garbage.forget(this.libraryId, blob);
    const path = store.nodes
      .pathOf(topId, this.actor.userId)
      .map((n) => n.name)
      .join('/');
    const { folders, files, used, ownerId, restoredFiles, unchanged } = this;
    return {
      folders,
      files,
      used,
      restored: { node_id: topId, owner_id: ownerId, path, files: restoredFiles, unchanged, folders: folders.length } satisfies Restored,
    };
  }

  private placeTop(mode: RestoreMode): string {
    const top = this.top;
    const current = this.live(top.id);
    if (mode === 'beside') {
      const parentId = current ? current.parent_id : (this.liveFolder(top.parent_id)?.id ?? null);
      return this.make(top, parentId, besideName(top.name, top.type === 'file', this.open.manifest.at));
    }
    if (current && current.type === top.type && current.owner_id === this.ownerId) return this.match(top, current);
    const parentId = this.liveFolder(top.parent_id)?.id ?? null;
    const named = this.sameNameIn(top, parentId);
    return named ? this.match(top, named) : this.make(top, parentId, top.name);
  }

  private make(item: SnapshotNode, parentId: string | null, name: string): string {
    const { store } = this.deps;
    const { actor, ownerId } = this;
    if (item.type === 'folder') {
      const id = newId();
      const free = this.services.nodes.freeName(containerOf(ownerId, parentId), name, false);
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
      this.services.activity.record(ownerId, actor.userId, 'folder.created', id, {
        name: free,
        restored_from: this.open.manifest.snapshot,
      });
      this.folders.push(toNodeDto(store.nodes.byId(id, actor.userId)!));
      this.into.set(item.id, { id, made: true });
      return id;
    }
    const one = this.staged.get(item.id)!;
    this.used.add(one.blob!);
    this.restoredFiles++;
    const dto = this.services.files.recordContent({
      uploaderId: actor.userId,
      ownerId,
      parentId,
      nodeId: null,
      filename: name,
      mimeType: decideMimeType(one.head, name, item.mime_type),
      size: one.entry.size,
      libraryId: this.libraryId,
      blob: one.blob!,
      sha256: one.entry.sha256,
    });
    this.files.push(dto);
    return dto.id;
  }

  private match(item: SnapshotNode, now: NodeRow): string {
    if (item.type === 'folder') {
      this.into.set(item.id, { id: now.id, made: false });
      return now.id;
    }
    const one = this.staged.get(item.id);
    if (!one || sameContent(item, this.deps.store.versions.current(now.id), one.entry.sha256)) {
      // Already as in the backup (or, proved so when the restore began, changed since by someone: the newer change stays).
      this.unchanged++;
      return now.id;
    }
    this.used.add(one.blob!);
    this.restoredFiles++;
    this.files.push(
      this.services.files.recordContent({
        uploaderId: this.actor.userId,
        ownerId: this.ownerId,
        parentId: now.parent_id,
        nodeId: now.id,
        filename: now.name,
        mimeType: decideMimeType(one.head, now.name, item.mime_type),
        size: one.entry.size,
        libraryId: this.libraryId,
        blob: one.blob!,
        sha256: one.entry.sha256,
      }),
    );
    return now.id;
  }

  private sameNameIn(item: SnapshotNode, parentId: string | null): NodeRow | undefined {
    const id = this.deps.store.nodes.activeSiblingId(containerOf(this.ownerId, parentId), nameKey(item.name));
    const node = id === undefined ? undefined : this.live(id);
    return node && node.type === item.type ? node : undefined;
  }

  private liveFolder(id: string | null): NodeRow | undefined {
    const node = id === null ? undefined : this.live(id);
    return node && node.type === 'folder' && node.owner_id === this.ownerId ? node : undefined;
  }

  private live(id: string): NodeRow | undefined {
    return liveNode(this.deps.store, id, this.actor.userId);
  }
}
