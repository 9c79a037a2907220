import type { Node } from '../../contract/files-responses.ts';
import type { Actor } from '../../services/common/context.ts';
import type { Services } from '../../services/index.ts';

/** A page as large as the listing gives: a folder is walked in as few calls as it allows. */
const PAGE = 1000;

/** Where a /dav/ path leads: the top of the account's tree (node null), a node, or nothing yet. */
export interface Resolved {
  names: string[];
  /** Null for the top of the tree. */
  node: Node | null;
  /** The folder the last name is in (null: the top), when that folder exists. */
  parent: Node | null;
  parentExists: boolean;
  exists: boolean;
}

/**
 * The account's own files and folders only, name by name from the top, each an indexed look-up
 * in the node service (which checks access and skips the trash): what is shared with the
 * account is not part of this tree yet.
 */
export function resolvePath(services: Services, actor: Actor, names: string[]): Resolved {
  let parent: Node | null = null;
  for (let i = 0; i < names.length; i += 1) {
    const child = childNamed(services, actor, parent, names[i]!);
    const last = i === names.length - 1;
    if (!child) return { names, node: null, parent, parentExists: last, exists: false };
    if (last) return { names, node: child, parent, parentExists: true, exists: true };
    if (child.type !== 'folder') return { names, node: null, parent: null, parentExists: false, exists: false };
    parent = child;
  }
  return { names, node: null, parent: null, parentExists: true, exists: true };
}

/** A folder's children (the top's when null) that the account owns, every page of them. */
export function childrenOf(services: Services, actor: Actor, folder: Node | null): Node[] {
  const items: Node[] = [];
  let cursor: string | undefined;
  do {
    const page = services.listing.list(actor, { parent_id: folder?.id, limit: PAGE, cursor });
    for (const node of page.items) if (node.owner_id === actor.userId && node.trashed_at === null) items.push(node);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

function childNamed(services: Services, actor: Actor, folder: Node | null, name: string): Node | null {
  return services.nodes.ownChildNamed(actor, folder?.id ?? null, name);
}
