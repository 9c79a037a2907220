import type { Node, NodeColor } from '../../contract/files-responses.ts';
import { AppError } from '../../app-error.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import { normaliseParentId, type AccessService } from './access.ts';
import type { Audience } from '../../events/bus.ts';
import type { ActivityService } from './activity.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { cleanNodeName, nameKey, naturalSortKey, numberedName, searchKey } from './node-names.ts';
import { toNodeDto } from './node-dto.ts';
import { ContentRefs } from './content-refs.ts';
import { newId } from '../common/secrets.ts';
import { quotaUsed } from '../identity/quota-usage.ts';

export interface NodePatch {
  name?: string | undefined;
  parent_id?: string | null | undefined;
  color?: NodeColor | null | undefined;
}

export function containerOf(ownerId: string, parentId: string | null): string {
  return parentId ?? `root:${ownerId}`;
}

/** The name columns stored for a name: its key for uniqueness, its sort and search keys. */
export function nameColumns(name: string) {
  return { name, name_key: nameKey(name), sort_name: naturalSortKey(name), search_name: searchKey(name) };
}

/** Folders and the moves of the tree: create, rename, move, recolor, star, trash, restore, delete. */
export class NodeService {
  private readonly refs: ContentRefs;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly activity: ActivityService,
    content: ContentStores,
  ) {
    this.refs = new ContentRefs(deps, content);
  }

  get(actor: Actor, id: string): Node {
    return toNodeDto(this.access.node(actor, id, 'read'));
  }

  /** Ancestors from the top-level one down to the node itself. */
  path(actor: Actor, id: string): Node[] {
    this.access.node(actor, id, 'read');
    return this.access.visiblePath(actor, this.deps.store.nodes.pathOf(id, actor.userId)).map(toNodeDto);
  }

  /**
   * The caller's own file or folder of that name (any case) in one of its folders, or at the
   * top of its files when `parentId` is null; null when there is none. What a path names (the
   * WebDAV door): one indexed look-up, not a listing of the folder.
   */
  ownChildNamed(actor: Actor, parentId: string | null, name: string): Node | null {
    const id = this.deps.store.nodes.activeSiblingId(containerOf(actor.userId, parentId), nameKey(name));
    if (id === undefined) return null;
    const row = this.access.node(actor, id, 'read');
    return row.owner_id === actor.userId ? toNodeDto(row) : null;
  }

  /**
   * The file or folder of that name (any case) in a folder the caller can read, whoever owns it
   * (inside what is shared with the caller, the sharer does); null when there is none.
   */
  childNamed(actor: Actor, parentId: string, name: string): Node | null {
    const id = this.deps.store.nodes.activeSiblingId(parentId, nameKey(name));
    return id === undefined ? null : toNodeDto(this.access.node(actor, id, 'read'));
  }

  createFolder(actor: Actor, input: { name: string; parent_id?: string | null | undefined }): Node {
    const name = cleanNodeName(input.name);
    const parent = this.access.targetFolder(actor, normaliseParentId(input.parent_id));
    const ownerId = parent?.owner_id ?? actor.userId;
    const now = this.deps.now();
    const id = newId();
    const { store } = this.deps;
    store.transaction(() => {
      const container = containerOf(ownerId, parent?.id ?? null);
      if (store.nodes.activeSiblingId(container, nameKey(name))) throw new AppError('name_conflict', undefined, { field: 'name' });
      store.nodes.insert({
        id,
        owner_id: ownerId,
        parent_id: parent?.id ?? null,
        type: 'folder',
        ...nameColumns(name),
        size: 0,
        mime_type: null,
        version: 0,
        created_by: actor.userId,
        created_at: now,
        is_media: 0,
      });
      this.activity.record(ownerId, actor.userId, 'folder.created', id, { name });
    });
    return this.publish('node.created', actor, id);
  }

  update(actor: Actor, id: string, patch: NodePatch): Node {
    const node = this.access.node(actor, id, 'modify');
    if (node.in_trash) throw new AppError('in_trash');
    const { store } = this.deps;
    const name = patch.name === undefined ? node.name : cleanNodeName(patch.name);
    const moving = patch.parent_id !== undefined && normaliseParentId(patch.parent_id) !== node.parent_id;
    const target = moving ? this.access.targetFolder(actor, normaliseParentId(patch.parent_id)) : undefined;
    if (target && target.owner_id !== node.owner_id) throw new AppError('forbidden');
    // The top level is the caller's own: a grantee cannot move someone else's item out to it.
    if (moving && !target && node.owner_id !== actor.userId) throw new AppError('forbidden');
    // A folder moved into itself or below itself would cut its subtree off the tree.
    if (target && node.type === 'folder' && store.nodes.isSelfOrAncestor(node.id, target.id)) {
      throw new AppError('invalid_move');
    }
    const parentId = moving ? (target?.id ?? null) : node.parent_id;
    const renamed = name !== node.name;
    const recolored = patch.color !== undefined && patch.color !== node.color;
    if (!renamed && !moving && !recolored) return toNodeDto(node);
    const audienceBefore = moving ? this.access.audienceOf(node) : undefined;

    store.transaction(() => {
      if (renamed || moving) {
        const clash = store.nodes.activeSiblingId(containerOf(node.owner_id, parentId), nameKey(name));
        if (clash && clash !== node.id) throw new AppError('name_conflict', undefined, { field: 'name' });
      }
      store.nodes.update(node.id, {
        ...nameColumns(name),
        parent_id: parentId,
        color: patch.color === undefined ? node.color : patch.color,
        updated_at: this.deps.now(),
      });
      if (renamed) this.activity.record(node.owner_id, actor.userId, 'node.renamed', node.id, { from: node.name, to: name });
      if (moving) this.activity.record(node.owner_id, actor.userId, 'node.moved', node.id, { from: node.parent_id, to: parentId });
      // In or out of Private: the subtree takes its new place's mark (and, going in, loses its shares).
      if (moving && (target?.in_private ?? 0) !== node.in_private) store.privateFolders.moved(node.id, node.owner_id, !!target?.in_private);
      if (recolored) this.activity.record(node.owner_id, actor.userId, 'node.recolored', node.id, { color: patch.color });
    });
    if (moving) {
      const dto = this.read(actor, node.id);
      this.publishMove(dto, node, audienceBefore!);
      return dto;
    }
    return this.publish('node.updated', actor, node.id);
  }

  star(actor: Actor, id: string, starred: boolean): void {
    this.access.node(actor, id, 'read');
    if (starred) this.deps.store.nodes.star(actor.userId, id, this.deps.now());
    else this.deps.store.nodes.unstar(actor.userId, id);
  }

  trash(actor: Actor, id: string): Node {
    const node = this.access.node(actor, id, 'modify');
    if (node.in_trash) throw new AppError('in_trash');
    this.deps.store.transaction(() => {
      this.deps.store.nodes.trash(node.id, this.deps.now());
      this.deps.store.contentIndex.rememberDeletes(node.id, this.deps.now());
      this.activity.record(node.owner_id, actor.userId, 'node.trashed', node.id, { name: node.name });
    });
    const dto = this.read(actor, node.id);
    this.deps.bus.publish('node.deleted', { node: dto, permanent: false }, this.access.audienceOf(node));
    return dto;
  }

  /**
   * Puts a trashed item back where it was. If its folder is gone or itself in the trash it
   * lands at the top level; if its name was taken meanwhile it gets a free one.
   */
  restore(actor: Actor, id: string): Node {
    const node = this.access.node(actor, id, 'manage');
    if (node.trashed_at === null) throw new AppError(node.in_trash ? 'in_trash' : 'not_in_trash');
    const { store } = this.deps;
    store.transaction(() => {
      const parent = node.parent_id === null ? undefined : store.nodes.byId(node.parent_id, actor.userId);
      // What was trashed in Private goes back into Private, never to the top of My files.
      const parentId =
        parent && !parent.in_trash ? parent.id : node.in_private ? (store.privateFolders.folderOf(node.owner_id)?.node_id ?? null) : null;
      const name = this.freeName(containerOf(node.owner_id, parentId), node.name, node.type === 'file');
      store.nodes.update(node.id, { ...nameColumns(name), parent_id: parentId, updated_at: this.deps.now() });
      store.nodes.restore(node.id);
      // A change of mind: the next phone backup may send these again once they are gone.
      store.contentIndex.forgetDeletesOf(node.id);
      this.activity.record(node.owner_id, actor.userId, 'node.restored', node.id, { name });
    });
    return this.publish('node.restored', actor, node.id);
  }

  /**
   * Deletes a node and everything below it for good. The rows go first, in one transaction
   * that also records as garbage each content file no other version refers to (another
   * account's copy of the same photo keeps it); those files are removed after the commit, so a
   * crash in between leaves only files the database has recorded as garbage, which the startup
   * reconciliation takes away, never a row without content.
   */
  async deletePermanently(actor: Actor | null, id: string): Promise<void> {
    const { store } = this.deps;
    const node = actor ? this.access.node(actor, id, 'manage') : store.nodes.byId(id, '');
    if (!node) throw new AppError('not_found');
    // Computed before the rows go: afterwards nobody can be found who had access.
    const audience = this.access.audienceOf(node);
    const unreferenced = store.transaction(() => {
      // Items trashed on their own inside this folder stay in the trash, now at the top level.
      for (const descendantId of store.nodes.subtreeIds(node.id)) {
        if (descendantId === node.id) continue;
        const d = store.nodes.byId(descendantId, '');
        if (d && d.trashed_at !== null) store.nodes.update(d.id, { parent_id: null });
      }
      const freed = store.versions.ofSubtree(node.id);
      // Each account is charged for its own versions, shared content or not.
      store.users.addUsage(node.owner_id, -freed.reduce((sum, v) => sum + v.size, 0));
      // Deleted for good without passing through the trash (or its expiry): remembered all the same.
      store.contentIndex.rememberDeletes(node.id, this.deps.now());
      store.nodes.remove(node.id);
      this.activity.record(node.owner_id, actor?.userId ?? null, 'node.deleted', node.id, { name: node.name });
      return this.refs.letGo(freed);
    });
    await this.refs.remove(unreferenced);
    this.deps.bus.publish('node.deleted', { node: toNodeDto(node), permanent: true }, audience);
    this.publishQuota(node.owner_id);
  }

  /** Maintenance: deletes for good what has been in the trash longer than the retention period. */
  async purgeTrash(retentionDays: number): Promise<number> {
    const cutoff = this.deps.now() - retentionDays * 24 * 60 * 60_000;
    let purged = 0;
    for (const id of this.deps.store.nodes.trashedBefore(cutoff)) {
      await this.deletePermanently(null, id).catch((error) =>
        this.deps.log.warn('trash purge failed', { node_id: id, error: String(error) }),
      );
      purged++;
    }
    return purged;
  }

  /** The first of `name`, `name (1)`, `name (2)`, ... that no active sibling uses. */
  freeName(container: string, name: string, isFile: boolean): string {
    const { nodes } = this.deps.store;
    if (!nodes.activeSiblingId(container, nameKey(name))) return name;
    const dot = isFile ? name.lastIndexOf('.') : -1;
    const base = dot > 0 ? name.slice(0, dot) : name;
    const taken = nodes.siblingKeysStartingWith(container, nameKey(`${base} (`));
    for (let n = 1; ; n++) {
      const candidate = numberedName(name, n, isFile);
      // A name near the limit is numbered on a shorter base, which `taken` did not look for.
      if (!taken.has(nameKey(candidate)) && !nodes.activeSiblingId(container, nameKey(candidate))) return candidate;
    }
  }

  /**
   * A move in or out of a shared folder changes who may see the node. Each account hears only
   * what it may know: those who keep access see the move; those who lose it see the node
   * disappear as they knew it (old name, old parent), never where it went; those who gain it
   * see it appear where it is now, never where it came from.
   */
  private publishMove(dto: Node, before: NodeRow, audienceBefore: Audience): void {
    const usersOf = (audience: Audience) => new Set('users' in audience ? audience.users : []);
    const was = usersOf(audienceBefore);
    const now = usersOf(this.access.audienceOf(before));
    const kept = [...now].filter((u) => was.has(u));
    const gained = [...now].filter((u) => !was.has(u));
    const lost = [...was].filter((u) => !now.has(u));
    if (kept.length > 0) this.deps.bus.publish('node.moved', { node: dto, from_parent_id: before.parent_id }, { users: kept });
    if (gained.length > 0) this.deps.bus.publish('node.created', { node: dto }, { users: gained });
    if (lost.length > 0) {
      this.deps.bus.publish('node.deleted', { node: toNodeDto(before), permanent: false, access_lost: true }, { users: lost });
    }
  }

  publishQuota(userId: string): void {
    const user = this.deps.store.users.byId(userId);
    if (!user) return;
    const used = quotaUsed(this.deps.store, user);
    this.deps.bus.publish('quota.updated', { user_id: userId, used, limit: user.quota_bytes }, { users: [userId] });
  }

  private read(actor: Actor, id: string): Node {
    return toNodeDto(this.deps.store.nodes.byId(id, actor.userId) as NodeRow);
  }

  private publish(type: 'node.created' | 'node.updated' | 'node.restored', actor: Actor, id: string): Node {
    const dto = this.read(actor, id);
    this.deps.bus.publish(type, { node: dto }, this.access.audienceOf(dto));
    return dto;
  }
}
