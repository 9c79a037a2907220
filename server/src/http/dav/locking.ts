import { Readable } from 'node:stream';
import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Actor } from '../../services/common/context.ts';
import type { Services } from '../../services/index.ts';
import { submittedTokens, type IfList } from './if-header.ts';
import { rootHref } from './lock-guard.ts';
import { covers, MAX_LOCK_SECONDS, type DavLock, type LockDepth, type LockManager } from './lock-manager.ts';
import { activeLockXml, lockErrorXml, lockResponseXml, parseLockInfo } from './lock-xml.ts';
import { davHref } from './paths.ts';
import { readText } from './xml-body.ts';
import type { Resolved } from './resolve.ts';
import { NotXml } from './xml-in.ts';

/**
 * LOCK (RFC 4918 9.10): a write lock, exclusive or shared, on a file or on a folder and what it
 * holds (Depth infinity, the default). 200 with the lock's lockdiscovery and a Lock-Token
 * header; 201 on a name where nothing was, which becomes an empty file (7.3); 423 with
 * DAV:no-conflicting-lock when a lock there clashes. A LOCK without a body refreshes the lock
 * its If header names (9.10.2). `lists` is the If header the guard already checked.
 */
export async function lockResource(
  ctx: Koa.Context,
  services: Services,
  actor: Actor,
  locks: LockManager,
  at: Resolved,
  lists: IfList[] | null,
): Promise<void> {
  const body = await readText(ctx);
  const timeoutSeconds = timeoutOf(ctx.get('Timeout'));
  if (body.trim() === '') return refreshLocks(ctx, actor, locks, at, lists, timeoutSeconds);
  let info;
  try {
    info = parseLockInfo(body);
  } catch (error) {
    if (error instanceof NotXml) throw new AppError('invalid_input', `The request body is not a LOCK: ${error.message}`);
    throw error;
  }
  const depthHeader = ctx.get('Depth').trim().toLowerCase() || 'infinity';
  if (depthHeader !== '0' && depthHeader !== 'infinity')
    throw new AppError('invalid_input', 'LOCK takes Depth 0 or infinity.', { field: 'Depth' });
  const depth: LockDepth = depthHeader;
  if (!at.exists && !at.parentExists) return plain(ctx, 409, 'The folder this file would go in does not exist.');
  const clashes = locks.conflicts({ userId: actor.userId, names: at.names, scope: info.scope, depth });
  if (clashes.length > 0) {
    ctx.status = 423;
    ctx.type = 'application/xml; charset=utf-8';
    ctx.body = lockErrorXml('no-conflicting-lock', [...new Set(clashes.map((lock) => lock.rootHref))]);
    return;
  }
  const created = !at.exists;
  const href = created ? davHref(at.names, false) : rootHref(at);
  const lock = locks.create({
    userId: actor.userId,
    names: at.names,
    rootHref: href,
    scope: info.scope,
    depth,
    owner: info.owner,
    timeoutSeconds,
  });
  if (!lock) throw new AppError('rate_limited', 'Too many files are locked at once: unlock some first.');
  if (created) {
    try {
      await createEmptyFile(services, actor, at);
    } catch (error) {
      locks.remove(lock);
      throw error;
    }
  }
  ctx.set('Lock-Token', `<${lock.token}>`);
  respond(ctx, created ? 201 : 200, [lock]);
}

/** UNLOCK (RFC 4918 9.11): 204; 400 without a Lock-Token; 409 when that token locks nothing here. */
export function unlockResource(ctx: Koa.Context, actor: Actor, locks: LockManager, at: Resolved): void {
  const match = /^\s*<([^>]+)>\s*$/.exec(ctx.get('Lock-Token'));
  if (!match) throw new AppError('missing_field', 'UNLOCK needs a Lock-Token header: <token>.', { field: 'Lock-Token' });
  const lock = locks.find(actor.userId, match[1]!);
  if (!lock || !covers(lock, at.names)) {
    ctx.status = 409;
    ctx.type = 'application/xml; charset=utf-8';
    ctx.body = lockErrorXml('lock-token-matches-request-uri', []);
    return;
  }
  locks.remove(lock);
  ctx.status = 204;
}

function refreshLocks(ctx: Koa.Context, actor: Actor, locks: LockManager, at: Resolved, lists: IfList[] | null, seconds: number): void {
  if (!lists) throw new AppError('invalid_input', 'A LOCK without a body refreshes a lock: name it in the If header.');
  const held = [...submittedTokens(lists)]
    .map((token) => locks.find(actor.userId, token))
    .filter((lock): lock is DavLock => lock !== null && covers(lock, at.names));
  if (held.length === 0) return plain(ctx, 412, 'The If header names no lock on this resource.');
  for (const lock of held) locks.refresh(lock, seconds);
  respond(ctx, 200, held);
}

function respond(ctx: Koa.Context, status: number, held: DavLock[]): void {
  const now = Date.now();
  ctx.status = status;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = lockResponseXml(held.map((lock) => activeLockXml(lock, lock.rootHref, now)).join(''));
}

/**
 * The Timeout header (RFC 4918 10.7): the first `Second-N` or `Infinite` it offers, capped at
 * MAX_LOCK_SECONDS, as servers may give less than asked; the cap when none is offered.
 */
export function timeoutOf(header: string): number {
  for (const part of header.split(',')) {
    const value = part.trim().toLowerCase();
    if (value === 'infinite') return MAX_LOCK_SECONDS;
    const seconds = /^second-(\d+)$/.exec(value);
    if (seconds) return Math.min(MAX_LOCK_SECONDS, Math.max(1, Number(seconds[1])));
  }
  return MAX_LOCK_SECONDS;
}

/** A LOCK on a free name makes an empty file there, through the upload service as a PUT would. */
async function createEmptyFile(services: Services, actor: Actor, at: Resolved): Promise<void> {
  const metadata: Record<string, string | null> = { filename: at.names[at.names.length - 1]!, filetype: null };
  if (at.parent) metadata.parent_id = at.parent.id;
  const upload = await services.uploads.create(actor, 0, metadata);
  try {
    const result = await services.uploads.append(actor, upload.id, { offset: 0, bodyLength: 0 }, Readable.from([]));
    if (!result.node) throw new AppError('internal');
  } catch (error) {
    await services.uploads.terminate(actor, upload.id).catch(() => {});
    throw error;
  }
}

function plain(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = message;
}
