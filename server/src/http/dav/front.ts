import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Services } from '../../services/index.ts';
import { holdDownloadSlot, type DownloadSlots } from '../download-slots.ts';
import { davActor } from './auth.ts';
import { guardLocks } from './lock-guard.ts';
import { LockManager } from './lock-manager.ts';
import { lockResource, unlockResource } from './locking.ts';
import { DAV_PREFIX, davSegments } from './paths.ts';
import { copyNode, moveNode } from './move-copy.ts';
import { proppatch } from './proppatch.ts';
import { getFile, propfind } from './read.ts';
import { resolvePath } from './resolve.ts';
import { answerWindowsRootProbe } from './root-probe.ts';
import { refuseSharedChange } from './shared.ts';
import { deleteNode, makeFolder, putFile } from './write.ts';

/** Class 2 (locks): Finder mounts a drive read-write only when the server says it can lock. */
const DAV_CLASS = '1, 2';
const ALLOW = 'OPTIONS, PROPFIND, PROPPATCH, GET, HEAD, PUT, MKCOL, DELETE, COPY, MOVE, LOCK, UNLOCK';

/**
 * The WebDAV door (RFC 4918): each account's own files under /dav/, on the API's port, signed in
 * with a drive password. Thin like the routes: the path becomes a node through the listing
 * service, and every change is a service call, so it is versioned, trashed, counted against the
 * quota and announced as it would be from the app.
 */
export function davFront(services: Services, slots: DownloadSlots, locks = new LockManager()): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path !== DAV_PREFIX && !ctx.path.startsWith(`${DAV_PREFIX}/`)) return answerWindowsRootProbe(ctx) ? undefined : next();
    ctx.set('DAV', DAV_CLASS);
    ctx.set('MS-Author-Via', 'DAV');
    if (ctx.method === 'OPTIONS') {
      // Unsigned: clients ask what the server speaks before they ask for a password.
      ctx.set('Allow', ALLOW);
      ctx.status = 200;
      ctx.body = '';
      return;
    }
    const names = davSegments(ctx.path);
    // A fragment is the client's own business: one sent here is not part of any name (litmus delete_fragment).
    if (names === null || ctx.url.includes('#')) throw new AppError('invalid_input', 'That path is not inside your files.');
    const actor = davActor(ctx, services);
    const at = resolvePath(services, actor, names);
    refuseSharedChange(ctx.method, at);
    // Locks and the If header are checked before anything changes (lock-guard.ts: 400, 412, 423).
    const guarded = guardLocks(ctx, services, actor, locks, at);
    if (!guarded) return;
    switch (ctx.method) {
      case 'LOCK':
        return lockResource(ctx, services, actor, locks, at, guarded.lists);
      case 'UNLOCK':
        return unlockResource(ctx, actor, locks, at);
      case 'PROPFIND':
        return propfind(ctx, services, actor, at, locks);
      case 'PROPPATCH':
        return proppatch(ctx, services, actor, at);
      case 'GET':
        // Counted with the app's downloads: a drive opening hundreds of files at once waits its turn (429).
        holdDownloadSlot(ctx, slots, { ip: ctx.request.ip || null, sessionId: actor.sessionId });
        return getFile(ctx, services, actor, at);
      case 'HEAD':
        return getFile(ctx, services, actor, at);
      case 'PUT':
        return putFile(ctx, services, actor, at);
      case 'MKCOL':
        return makeFolder(ctx, services, actor, at);
      case 'DELETE':
        deleteNode(ctx, services, actor, at);
        return guarded.settle(ctx.status);
      case 'COPY':
        return copyNode(ctx, services, actor, at);
      case 'MOVE':
        moveNode(ctx, services, actor, at);
        return guarded.settle(ctx.status);
      default:
        throw new AppError('method_not_allowed', undefined, { headers: { Allow: ALLOW } });
    }
  };
}
