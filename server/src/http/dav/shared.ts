import { AppError } from '../../app-error.ts';
import type { Node } from '../../contract/files-responses.ts';
import type { SharedWithMeItem } from '../../contract/shared-with-me-responses.ts';
import type { Actor } from '../../services/common/context.ts';
import { nameKey, numberedName } from '../../services/files/node-names.ts';
import type { Services } from '../../services/index.ts';

/** The folder at the top of /dav/ that holds what other accounts share with this one. */
export const SHARED_FOLDER = 'Shared with me';
/** What the account's own top-level "Shared with me" (made in the app) is called in /dav/: the virtual folder has the name. */
export const OWN_SHARED_ALIAS = 'Shared with me (mine)';

const PAGE = 200;

/** A file or folder someone shares with the account, as /dav/Shared with me/ lists it. */
export interface SharedEntry {
  /** Its name there: its own, or with the sharer's name when two share a name. */
  name: string;
  node: Node;
  role: 'viewer' | 'editor';
}

/** Whether a top-level name is the "Shared with me" folder (any case, as names are). */
export function isSharedFolderName(name: string): boolean {
  return nameKey(name) === nameKey(SHARED_FOLDER);
}

/**
 * The files and folders shared with the account, from the service behind the app's Shared page
 * (albums and partners are photos, not places in a tree: they are left out). Oldest share first,
 * so the names a drive already knows stay put when something newer arrives with a clashing name.
 */
export function sharedEntries(services: Services, actor: Actor): SharedEntry[] {
  const items: SharedWithMeItem[] = [];
  let cursor: string | undefined;
  do {
    const page = services.sharedWithMe.list(actor, { limit: PAGE, cursor });
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  const shared = items
    .filter((item): item is SharedWithMeItem & { node: Node } => item.node !== null && (item.kind === 'file' || item.kind === 'folder'))
    .sort((a, b) => a.shared_at - b.shared_at || a.id.localeCompare(b.id));
  const names = davNames(shared.map((item) => ({ name: item.name, by: item.shared_by.name, isFile: item.kind === 'file' })));
  return shared.map((item, i) => ({ name: names[i]!, node: item.node, role: item.role === 'editor' ? 'editor' : 'viewer' }));
}

/**
 * One name each, unique in any case: a name only one item has stays as it is; names two or more
 * share get the sharer's name ("Photos (Mum)", "notes (Dad).txt", before a file's extension);
 * what still clashes (one person sharing two "Photos") is numbered, the oldest share first.
 */
export function davNames(items: readonly { name: string; by: string; isFile: boolean }[]): string[] {
  const count = new Map<string, number>();
  for (const item of items) count.set(nameKey(item.name), (count.get(nameKey(item.name)) ?? 0) + 1);
  const taken = new Set<string>();
  return items.map((item) => {
    const first = count.get(nameKey(item.name))! > 1 ? labelled(item.name, item.by, item.isFile) : item.name;
    let name = first;
    for (let n = 2; taken.has(nameKey(name)); n += 1) name = numberedName(first, n, item.isFile);
    taken.add(nameKey(name));
    return name;
  });
}

function labelled(name: string, by: string, isFile: boolean): string {
  // A display name may hold what a path cannot: a slash or a backslash would split the name in two.
  // eslint-disable-next-line no-control-regex
  const who = by.replace(/[\u0000-\u001f\u007f/\\]/g, '-').trim() || 'someone';
  const dot = isFile ? name.lastIndexOf('.') : -1;
  return dot > 0 ? `${name.slice(0, dot)} (${who})${name.slice(dot)}` : `${name} (${who})`;
}

/** Where a path is: the account's own tree, or "Shared with me" and what is below it. */
export interface SharedPlace {
  area: 'own' | 'shared';
  /** Under "Shared with me": the role of the grant the path goes through; null for the folder itself and new names at its top. */
  role: 'viewer' | 'editor' | null;
  names: string[];
}

/** Methods that change what they name (LOCK too: a viewer's client must not believe it may write). */
const CHANGES = new Set(['PUT', 'MKCOL', 'DELETE', 'MOVE', 'PROPPATCH', 'LOCK']);
/** On a shared item itself (the names just under "Shared with me"): an editor writes its content, never removes or renames it. */
const ON_SHARED_ITEM = new Set(['PUT', 'PROPPATCH', 'LOCK']);

/**
 * Refuses, with a reason a person can act on, a change the place does not take: "Shared with me"
 * lists and never changes (403 `shared_with_me_read_only`), a viewer's share reads only (403
 * `shared_view_only`). What an editor may do is left to the services, as in the app.
 */
export function refuseSharedChange(method: string, at: SharedPlace): void {
  if (at.area !== 'shared') return;
  // Copying the whole of "Shared with me" would copy everyone's files at once: copy what is in it.
  if (method === 'COPY' && at.names.length === 1) throw new AppError('shared_with_me_read_only');
  if (!CHANGES.has(method)) return;
  if (at.role === null) throw new AppError('shared_with_me_read_only');
  if (at.names.length === 2 && !ON_SHARED_ITEM.has(method)) throw new AppError('shared_with_me_read_only');
  if (at.role === 'viewer') throw new AppError('shared_view_only');
}

/** A COPY or MOVE's destination: like a PUT there. */
export function refuseSharedDestination(to: SharedPlace): void {
  if (to.area !== 'shared') return;
  if (to.role === null || to.names.length === 2) throw new AppError('shared_with_me_read_only');
  if (to.role === 'viewer') throw new AppError('shared_view_only');
}

/**
 * The own top-level "Shared with me" (made in the app before this door existed) goes by
 * OWN_SHARED_ALIAS, numbered past the account's own names that already have it.
 */
export function ownSharedAlias(services: Services, actor: Actor): string {
  let alias = OWN_SHARED_ALIAS;
  for (let n = 2; services.nodes.ownChildNamed(actor, null, alias); n += 1) alias = numberedName(OWN_SHARED_ALIAS, n, false);
  return alias;
}
