import { AppError } from '../errors.ts';
import type { Audience } from '../events/bus.ts';
import type { NodeRow } from '../store/nodes.repo.ts';
import type { Actor, ServiceDeps } from './context.ts';

/** What the caller wants to do with a node. */
export type Need = 'read' | 'write';

/**
 * The one access check every node route goes through. Today a node is visible to its owner
 * only; sharing widens `canSee`/`canWrite` here, nowhere else. A node the caller may not see
 * answers 404, the same as one that does not exist: existence is never revealed.
 */
export class AccessService {
  constructor(private readonly deps: ServiceDeps) {}

  node(actor: Actor, nodeId: string, need: Need): NodeRow {
    const node = this.deps.store.nodes.byId(nodeId, actor.userId);
    if (!node || !this.canSee(actor, node)) throw new AppError('not_found');
    if (need === 'write' && !this.canWrite(actor, node)) throw new AppError('forbidden');
    return node;
  }

  /** A folder the caller may add to; `null` (or "root") is the caller's own top level. */
  targetFolder(actor: Actor, parentId: string | null): NodeRow | null {
    if (parentId === null) return null;
    const parent = this.node(actor, parentId, 'write');
    if (parent.type !== 'folder') throw new AppError('invalid_input', 'The parent must be a folder.', { field: 'parent_id' });
    if (parent.in_trash) throw new AppError('in_trash');
    return parent;
  }

  /** Who receives events about a node: everyone who can see it. */
  audienceOf(node: Pick<NodeRow, 'owner_id'>): Audience {
    return { users: [node.owner_id] };
  }

  private canSee(actor: Actor, node: NodeRow): boolean {
    return node.owner_id === actor.userId;
  }

  private canWrite(actor: Actor, node: NodeRow): boolean {
    return node.owner_id === actor.userId;
  }
}

/** `parent_id` as clients send it: omitted, null or "root" all mean the top level. */
export function normaliseParentId(parentId: string | null | undefined): string | null {
  return parentId === undefined || parentId === null || parentId === 'root' ? null : parentId;
}
