import type { Actor } from '../../services/common/context.ts';
import type { DavLock, LockManager, LockScope } from './lock-manager.ts';
import { DAV_NS, NotXml, parseXml } from './xml-in.ts';
import { escapeXml } from './xml-out.ts';

/** What a LOCK body asks for (RFC 4918 14.11 lockinfo). */
export interface LockInfo {
  scope: LockScope;
  /** The owner element as it will be sent back in lockdiscovery, or '' when none was given. */
  owner: string;
}

/** The lockdiscovery and supportedlock values of RFC 4918 15.8 and 15.10. */
export const SUPPORTED_LOCK =
  '<d:lockentry><d:lockscope><d:exclusive/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>' +
  '<d:lockentry><d:lockscope><d:shared/></d:lockscope><d:locktype><d:write/></d:locktype></d:lockentry>';

const MAX_OWNER_CHARS = 4096;

/** A LOCK body: DAV:lockinfo with a lockscope and a write locktype; NotXml for anything else. */
export function parseLockInfo(body: string): LockInfo {
  const root = parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'lockinfo') throw new NotXml('The root is not DAV:lockinfo.');
  const child = (local: string) => root.children.find((element) => element.ns === DAV_NS && element.local === local);
  const scope = child('lockscope')?.children.find((element) => element.ns === DAV_NS);
  if (!scope || (scope.local !== 'exclusive' && scope.local !== 'shared'))
    throw new NotXml('A lockinfo names an exclusive or shared lockscope.');
  const type = child('locktype')?.children.find((element) => element.ns === DAV_NS);
  if (type?.local !== 'write') throw new NotXml('Only write locks exist (locktype write).');
  const owner = child('owner') ? ownerXml(body) : '';
  // Kept in memory for as long as the lock lives: a name or an address, not a document.
  if (owner.length > MAX_OWNER_CHARS) throw new NotXml(`The owner is longer than ${MAX_OWNER_CHARS} characters.`);
  return { scope: scope.local, owner };
}

/**
 * The owner element with its content as sent, so a client finds its own words in lockdiscovery (litmus
 * compares them). The body's namespace declarations are repeated on the owner element we send,
 * as the prefixes inside (Finder's and Windows' `<D:href>`) were declared further out.
 */
function ownerXml(body: string): string {
  const match = /<(?:([A-Za-z_][\w.-]*):)?owner\b[^>]*?(\/>|>([\s\S]*?)<\/(?:[A-Za-z_][\w.-]*:)?owner\s*>)/.exec(body);
  const inner = match?.[3]?.trim() ?? '';
  if (inner === '') return '';
  if (!inner.includes('<')) return `<d:owner>${inner}</d:owner>`;
  const declarations = [...body.matchAll(/\sxmlns(?::([A-Za-z_][\w.-]*))?\s*=\s*("[^"]*"|'[^']*')/g)]
    // Our own prefix `d` must stay DAV: on the element itself; a default namespace would change unprefixed names.
    .filter(([, prefix, value]) => prefix !== undefined && (prefix !== 'd' || value!.slice(1, -1) === DAV_NS))
    .map(([, prefix, value]) => ` xmlns:${prefix}=${value}`);
  return `<d:owner${[...new Set(declarations)].join('')}>${inner}</d:owner>`;
}

/** One activelock (RFC 4918 14.1), its timeout counted from now. */
export function activeLockXml(lock: DavLock, rootHref: string, now: number): string {
  const seconds = Math.max(0, Math.ceil((lock.expiresAt - now) / 1000));
  return (
    `<d:activelock><d:locktype><d:write/></d:locktype><d:lockscope><d:${lock.scope}/></d:lockscope>` +
    `<d:depth>${lock.depth}</d:depth>${lock.owner}<d:timeout>Second-${seconds}</d:timeout>` +
    `<d:locktoken><d:href>${escapeXml(lock.token)}</d:href></d:locktoken>` +
    `<d:lockroot><d:href>${escapeXml(rootHref)}</d:href></d:lockroot></d:activelock>`
  );
}

/** A LOCK's answer: the lockdiscovery of the lock made or refreshed. */
export function lockResponseXml(activeLock: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:prop xmlns:d="DAV:"><d:lockdiscovery>${activeLock}</d:lockdiscovery></d:prop>\n`;
}

/** An error body whose precondition names resources (RFC 4918 16: lock-token-submitted, no-conflicting-lock). */
export function lockErrorXml(condition: string, hrefs: string[]): string {
  const inner = hrefs.map((href) => `<d:href>${escapeXml(href)}</d:href>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:${condition}>${inner}</d:${condition}></d:error>\n`;
}

/** The lockdiscovery value of a resource: every live lock of the account whose scope holds it. */
export function lockDiscovery(locks: LockManager, actor: Actor, names: string[]): string {
  const now = Date.now();
  return locks
    .covering(actor.userId, names)
    .map((lock) => activeLockXml(lock, lock.rootHref, now))
    .join('');
}
