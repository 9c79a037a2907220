import type { Node } from '../../contract/files-responses.ts';
import type { Actor } from '../../services/common/context.ts';
import { nameKey } from '../../services/files/node-names.ts';
import type { Services } from '../../services/index.ts';
import { SHARED_FOLDER, isSharedFolderName, ownSharedAlias, sharedEntries, type SharedPlace } from './shared.ts';

/** A page as large as the listing gives: a folder is walked in as few calls as it allows. */
const PAGE = 1000;

/**
 * Where a /dav/ path leads: the top of the account's tree (node null, area own), the "Shared
 * with me" folder (node null, area shared), a node, or nothing yet.
 */
export interface Resolved extends SharedPlace {
  names: string[];
  /** Null for the top of the tree and for "Shared with me". */
  node: Node | null;
  /** The folder the last name is in (null: the top), when that folder exists. */
  parent: Node | null;
  parentExists: boolean;
  exists: boolean;
  /** The name it goes by in /dav/ when that is not its node's (the virtual folder, a shared item, the own alias). */
  label: string | null;
}

/** One entry of a folder's listing under /dav/: its name there and its node (null: "Shared with me"). */
export interface DavEntry {
  name: string;
  node: Node | null;
}

/**
 * A path, name by name from the top, each an indexed look-up in the node service (which checks
 * access and skips the trash). The top holds the account's own files and "Shared with me",
 * which holds what others share with it (sharedEntries); below a shared item, its own names.
 */
export function resolvePath(services: Services, actor: Actor, names: string[]): Resolved {
  const own = { names, area: 'own', role: null, label: null } as const;
  if (names.length === 0) return { ...own, node: null, parent: null, parentExists: true, exists: true };
  if (isSharedFolderName(names[0]!)) return resolveShared(services, actor, names);
  const alias = ownAliasTarget(services, actor, names[0]!);
  const top = alias ?? services.nodes.ownChildNamed(actor, null, names[0]!);
  return walk(services, actor, { ...own, label: alias && names.length === 1 ? names[0]! : null }, null, top, 0);
}

function resolveShared(services: Services, actor: Actor, names: string[]): Resolved {
  const place = { names, area: 'shared', role: null } as const;
  if (names.length === 1) return { ...place, node: null, parent: null, parentExists: true, exists: true, label: SHARED_FOLDER };
  const entry = sharedEntries(services, actor).find((e) => nameKey(e.name) === nameKey(names[1]!));
  if (!entry) return { ...place, node: null, parent: null, parentExists: names.length === 2, exists: false, label: null };
  const label = names.length === 2 ? entry.name : null;
  return walk(services, actor, { ...place, role: entry.role, label }, null, entry.node, 1);
}

/** From the node at names[from] down, each next name a child of the one before. */
function walk(
  services: Services,
  actor: Actor,
  base: SharedPlace & { label: string | null },
  parent: Node | null,
  first: Node | null,
  from: number,
): Resolved {
  const { names } = base;
  let at = parent;
  let child = first;
  for (let i = from; i < names.length; i += 1) {
    if (i > from) child = services.nodes.childNamed(actor, at!.id, names[i]!);
    const last = i === names.length - 1;
    if (!child) return { ...base, node: null, parent: at, parentExists: last, exists: false };
    if (last) return { ...base, node: child, parent: at, parentExists: true, exists: true };
    if (child.type !== 'folder') return { ...base, node: null, parent: null, parentExists: false, exists: false };
    at = child;
  }
  return { ...base, node: null, parent: null, parentExists: true, exists: true };
}

/** The account's own top-level "Shared with me" when `name` is the alias it goes by, else null. */
function ownAliasTarget(services: Services, actor: Actor, name: string): Node | null {
  if (!nameKey(name).startsWith(nameKey(SHARED_FOLDER))) return null;
  const mine = services.nodes.ownChildNamed(actor, null, SHARED_FOLDER);
  if (!mine) return null;
  return nameKey(name) === nameKey(ownSharedAlias(services, actor)) ? mine : null;
}

/** A folder's children (the top's when null) that its owner holds, every page of them. */
export function childrenOf(services: Services, actor: Actor, folder: Node | null): Node[] {
  const owner = folder?.owner_id ?? actor.userId;
  const items: Node[] = [];
  let cursor: string | undefined;
  do {
    const page = services.listing.list(actor, { parent_id: folder?.id, limit: PAGE, cursor });
    for (const node of page.items) if (node.owner_id === owner && node.trashed_at === null) items.push(node);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

/**
 * What a PROPFIND at Depth 1 lists in a resolved folder, each by its name in /dav/: at the top
 * the account's own files (its own "Shared with me" under the alias) and "Shared with me";
 * in "Shared with me", the shared items; elsewhere a folder's children.
 */
export function entriesOf(services: Services, actor: Actor, at: Resolved): DavEntry[] {
  if (at.area === 'shared' && at.names.length === 1) return sharedEntries(services, actor).map(({ name, node }) => ({ name, node }));
  const children = childrenOf(services, actor, at.node).map((node) => ({ name: node.name, node }));
  if (at.node !== null) return children;
  const alias = children.some((c) => isSharedFolderName(c.name)) ? ownSharedAlias(services, actor) : null;
  return [
    { name: SHARED_FOLDER, node: null },
    ...children.map((c) => (alias !== null && isSharedFolderName(c.name) ? { ...c, name: alias } : c)),
  ];
}
