import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Actor } from '../../services/common/context.ts';
import type { Services } from '../../services/index.ts';
import { BadIfHeader, ifHolds, parseIf, submittedTokens, type IfList, type IfState } from './if-header.ts';
import { covers, type DavLock, type LockManager } from './lock-manager.ts';
import { lockErrorXml } from './lock-xml.ts';
import { davHref, davSegments } from './paths.ts';
import { davEtag } from './props.ts';
import { resolvePath, type Resolved } from './resolve.ts';

/** Methods that change what is at a path, or its membership: they need the locks' tokens (a LOCK on a free name makes a file). */
const CHANGES = new Set(['PUT', 'DELETE', 'MOVE', 'COPY', 'MKCOL', 'PROPPATCH', 'LOCK']);
/** Methods whose If header is evaluated before anything is done (RFC 4918 10.4). */
const CONDITIONAL = new Set([...CHANGES, 'UNLOCK']);

/** A path the request would change; `deep`: also what is below it (a DELETE, a MOVE's source). */
interface Protected {
  names: string[];
  deep: boolean;
}

/** What a request passed the guard with: its If header's lists, and what to do once it has succeeded. */
export interface Guarded {
  lists: IfList[] | null;
  /** Locks on what a successful DELETE or MOVE took away go with it. */
  settle(status: number): void;
}

/**
 * The If header and the locks, checked before a request changes anything: 400 for an If header
 * that is not one, 412 when none of its lists holds, 423 (DAV:lock-token-submitted) when a path
 * the request would change is locked and none of that lock's tokens is in the If header. Null
 * once one of those answers is set.
 */
export function guardLocks(ctx: Koa.Context, services: Services, actor: Actor, locks: LockManager, at: Resolved): Guarded | null {
  const none: Guarded = { lists: null, settle: () => {} };
  if (!CONDITIONAL.has(ctx.method)) return none;
  let lists: IfList[] | null;
  try {
    lists = parseIf(ctx.get('If'));
  } catch (error) {
    if (error instanceof BadIfHeader) throw new AppError('invalid_input', `The If header is not one: ${error.message}`, { field: 'If' });
    throw error;
  }
  if (lists && !ifHolds(lists, (resource) => stateOf(ctx, services, actor, locks, resource === null ? at : resource))) {
    throw new AppError('if_condition_failed');
  }
  if (!CHANGES.has(ctx.method)) return { ...none, lists };
  const destination = ctx.method === 'MOVE' || ctx.method === 'COPY' ? destinationOf(ctx, services, actor) : null;
  const tokens = submittedTokens(lists);
  const unmet = new Map<string, DavLock>();
  for (const place of protectedPaths(ctx.method, at, destination)) {
    for (const group of lockGroups(locks, actor.userId, place)) {
      if (!group.some((lock) => tokens.has(lock.token))) unmet.set(group[0]!.token, group[0]!);
    }
  }
  if (unmet.size > 0) {
    const hrefs = [...new Set([...unmet.values()].map((lock) => lock.rootHref))];
    return answer(ctx, 423, 'application/xml; charset=utf-8', lockErrorXml('lock-token-submitted', hrefs));
  }
  return {
    lists,
    settle(status) {
      if (status >= 300) return;
      if (ctx.method === 'DELETE' || ctx.method === 'MOVE') locks.dropWithin(actor.userId, at.names);
    },
  };
}

/** The locks that guard a path, grouped by lock root: one token of each group must be submitted. */
function lockGroups(locks: LockManager, userId: string, place: Protected): DavLock[][] {
  const found = locks.covering(userId, place.names);
  if (place.deep) found.push(...locks.within(userId, place.names).filter((lock) => !found.includes(lock)));
  const groups = new Map<string, DavLock[]>();
  for (const lock of found) groups.set(lock.rootHref, [...(groups.get(lock.rootHref) ?? []), lock]);
  return [...groups.values()];
}

/**
 * What each method changes (RFC 4918 7.4 and 7.5): the resource itself, and the membership of
 * the folder it is in when it is made, removed or moved (a lock on a folder, even depth 0,
 * keeps its list of names).
 */
function protectedPaths(method: string, at: Resolved, destination: Resolved | null): Protected[] {
  const parentOf = (names: string[]): Protected[] => (names.length === 0 ? [] : [{ names: names.slice(0, -1), deep: false }]);
  const changed = (place: Resolved | null, deep: boolean): Protected[] => {
    if (!place) return [];
    if (place.exists) return [{ names: place.names, deep }, ...(deep ? parentOf(place.names) : [])];
    return parentOf(place.names);
  };
  switch (method) {
    case 'PUT':
    case 'PROPPATCH':
      return changed(at, false);
    case 'MKCOL':
      return parentOf(at.names);
    case 'LOCK':
      // Locks on the resource itself are LOCK's own business (a clash is 423 no-conflicting-lock).
      return at.exists ? [] : parentOf(at.names);
    case 'DELETE':
      return changed(at, true);
    case 'MOVE':
      return [...changed(at, true), ...changed(destination, true)];
    case 'COPY':
      return changed(destination, true);
    default:
      return [];
  }
}

/** The Destination header's place in the tree, or null when it is not one (move-copy.ts answers that). */
function destinationOf(ctx: Koa.Context, services: Services, actor: Actor): Resolved | null {
  const names = namesOfUrl(ctx, ctx.get('Destination'));
  return names && names.length > 0 ? resolvePath(services, actor, names) : null;
}

/** The state an If list is checked against: its resource's locks and entity tag. */
function stateOf(ctx: Koa.Context, services: Services, actor: Actor, locks: LockManager, resource: Resolved | string): IfState | null {
  let place: Resolved;
  if (typeof resource === 'string') {
    const names = namesOfUrl(ctx, resource);
    if (!names) return null;
    place = resolvePath(services, actor, names);
  } else place = resource;
  return {
    lockedWith: (token) => {
      const lock = locks.find(actor.userId, token);
      return lock !== null && covers(lock, place.names);
    },
    etag: place.node?.type === 'file' ? davEtag(place.node) : null,
  };
}

/** The names under /dav/ of a URL or absolute path on this server, or null. */
function namesOfUrl(ctx: Koa.Context, href: string): string[] | null {
  if (href === '') return null;
  let url: URL;
  try {
    url = new URL(href, `${ctx.protocol}://${ctx.host}`);
  } catch {
    return null;
  }
  if (url.host !== ctx.host) return null;
  return davSegments(url.pathname);
}

/** The href a lock root is shown with. */
export function rootHref(at: Resolved): string {
  return davHref(at.names, at.exists && (at.node === null || at.node.type === 'folder'));
}

function answer(ctx: Koa.Context, status: number, type: string, body: string): null {
  ctx.status = status;
  ctx.type = type;
  ctx.body = body;
  return null;
}
