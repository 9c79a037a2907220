import { randomUUID } from 'node:crypto';
import { nameKey } from '../../services/files/node-names.ts';

/** Longest a lock lives without a refresh: a computer that went to sleep must not hold a file for days. */
export const MAX_LOCK_SECONDS = 3600;
/** A bound on one account's locks, so a misbehaving client cannot fill the server's memory. */
export const MAX_LOCKS_PER_ACCOUNT = 1000;

export type LockScope = 'exclusive' | 'shared';
export type LockDepth = '0' | 'infinity';

/** A write lock (RFC 4918 6): on a path in one account's tree, held until UNLOCK or its timeout. */
export interface DavLock {
  token: string;
  userId: string;
  /** The lock root's names, as the LOCK request spelt them. */
  names: string[];
  /** The lock root's href (lockdiscovery's lockroot). */
  rootHref: string;
  scope: LockScope;
  depth: LockDepth;
  /** The owner element to send back (XML, the client's content as sent), or '' when none was given. */
  owner: string;
  timeoutSeconds: number;
  expiresAt: number;
}

/** What LOCK asks for: the manager gives it its token and its end. */
export type NewLock = Omit<DavLock, 'token' | 'expiresAt'>;

/**
 * The drive door's write locks, kept in memory: a restart drops them, which clients survive (a
 * lock is a lease they refresh, and a lost one is taken again). Locks are per account and per
 * path, as each account's /dav/ tree is its own: a name matches case-insensitively, as the
 * files' names do. Expired locks are dropped whenever locks are looked at.
 */
export class LockManager {
  /** Each account's locks by token: a look-up walks only the asking account's locks. */
  private readonly byAccount = new Map<string, Map<string, DavLock>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** The account's live locks whose scope covers the path: on it, or depth infinity on a folder above it. */
  covering(userId: string, names: readonly string[]): DavLock[] {
    return this.live(userId).filter((lock) => covers(lock, names));
  }

  /** The account's live locks rooted at the path or anywhere below it. */
  within(userId: string, names: readonly string[]): DavLock[] {
    return this.live(userId).filter((lock) => isPrefix(names, lock.names));
  }

  /** The live locks that a new lock of this scope and depth on the path would clash with. */
  conflicts(wanted: Pick<NewLock, 'userId' | 'names' | 'scope' | 'depth'>): DavLock[] {
    const around = this.covering(wanted.userId, wanted.names);
    const below = wanted.depth === 'infinity' ? this.within(wanted.userId, wanted.names) : [];
    const clash = (lock: DavLock) => lock.scope === 'exclusive' || wanted.scope === 'exclusive';
    return [...new Set([...around, ...below])].filter(clash);
  }

  /** Null when the account already holds as many locks as it may. */
  create(lock: NewLock): DavLock | null {
    // Accounts that never come back must not keep their expired locks in memory.
    for (const userId of [...this.byAccount.keys()]) this.live(userId);
    if (this.live(lock.userId).length >= MAX_LOCKS_PER_ACCOUNT) return null;
    const made: DavLock = {
      ...lock,
      names: [...lock.names],
      token: `urn:uuid:${randomUUID()}`,
      expiresAt: this.now() + lock.timeoutSeconds * 1000,
    };
    const mine = this.byAccount.get(lock.userId) ?? new Map<string, DavLock>();
    mine.set(made.token, made);
    this.byAccount.set(lock.userId, mine);
    return made;
  }

  /** The account's live lock with that token, or null (another account's token is no lock of this one's). */
  find(userId: string, token: string): DavLock | null {
    const lock = this.byAccount.get(userId)?.get(token);
    if (!lock) return null;
    if (lock.expiresAt <= this.now()) {
      this.remove(lock);
      return null;
    }
    return lock;
  }

  refresh(lock: DavLock, timeoutSeconds: number): void {
    lock.timeoutSeconds = timeoutSeconds;
    lock.expiresAt = this.now() + timeoutSeconds * 1000;
  }

  remove(lock: DavLock): void {
    const mine = this.byAccount.get(lock.userId);
    mine?.delete(lock.token);
    if (mine?.size === 0) this.byAccount.delete(lock.userId);
  }

  /** Once what was at a path is gone (deleted, moved away), so are the locks on it and below it. */
  dropWithin(userId: string, names: readonly string[]): void {
    for (const lock of this.within(userId, names)) this.remove(lock);
  }

  private live(userId: string): DavLock[] {
    const now = this.now();
    const out: DavLock[] = [];
    for (const lock of this.byAccount.get(userId)?.values() ?? []) {
      if (lock.expiresAt <= now) this.remove(lock);
      else out.push(lock);
    }
    return out;
  }
}

/** Whether a lock's scope holds the path. */
export function covers(lock: DavLock, names: readonly string[]): boolean {
  if (!isPrefix(lock.names, names)) return false;
  return lock.depth === 'infinity' || lock.names.length === names.length;
}

/** Whether `outer` is `inner` or a folder above it, name by name as the tree compares names. */
function isPrefix(outer: readonly string[], inner: readonly string[]): boolean {
  return outer.length <= inner.length && outer.every((name, i) => nameKey(name) === nameKey(inner[i]!));
}
